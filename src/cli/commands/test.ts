/**
 * `vigil test [PATH...]`: runs scenario files against the configuration at PATH on an embedded sandbox with
 * a virtual clock (docs/testing.md). Exit 0: everything passed; 1: a scenario, a rule or the coverage
 * minimum failed; 2: nothing could be judged (a test file, the configuration or a flag is wrong).
 */
import { access, constants, stat, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { clearLine, cursorTo } from "node:readline";
import type { Command } from "commander";
import { formatDiagnostic, type LoadDiagnostic, loadConfig } from "../../gitops/load.ts";
import { guardOutput } from "../output-guard.ts";
import { stylerFor } from "../render/style.ts";
import { coverageOf } from "../scenarios/coverage.ts";
import type { ScenarioResult } from "../scenarios/judge.ts";
import { renderJunit } from "../scenarios/junit.ts";
import type { Suite } from "../scenarios/model.ts";
import { configNames, findTestFiles, readSuites } from "../scenarios/read.ts";
import { printable, type RunReport, renderHuman, reportJson, reportPassed } from "../scenarios/report.ts";
import { judgeRules, matrixFor, neverWarnings } from "../scenarios/rules.ts";
import { ApplyRefusedError, runSuites, ScenarioTooLongError } from "../scenarios/run.ts";

export const testExitCodes = { passed: 0, failed: 1, invalid: 2 } as const;

interface TestOptions {
  tests?: string;
  json: boolean;
  junit?: string;
  coverage: boolean;
  minCoverage?: number;
}

/** Raised for what makes a run impossible: printed line by line, exit 2. */
class Invalid extends Error {
  readonly lines: string[];
  constructor(lines: string[], summary: string) {
    super(summary);
    this.lines = lines;
  }
}

function parsePercent(text: string): number {
  const n = Number(text);
  if (text.trim() === "" || !Number.isFinite(n) || n < 0 || n > 100)
    throw new Invalid([], `--min-coverage takes a percentage from 0 to 100, not ${JSON.stringify(text)}.`);
  return n;
}

const sorted = (ds: readonly LoadDiagnostic[]) =>
  [...ds].sort(
    (a, b) =>
      (a.at?.file ?? "").localeCompare(b.at?.file ?? "") ||
      (a.at?.line ?? 0) - (b.at?.line ?? 0) ||
      (a.at?.column ?? 0) - (b.at?.column ?? 0),
  );

const problems = (what: string, n: number) => `${n} problem${n === 1 ? "" : "s"} in ${what}`;

/** Where `--junit` writes must take a file, checked before anything runs. */
async function checkJunitTarget(file: string): Promise<void> {
  const dir = dirname(resolve(file));
  const ok = await access(dir, constants.W_OK).then(
    () => true,
    () => false,
  );
  if (!ok)
    throw new Invalid([], `--junit ${file}: the directory ${dir} does not exist or cannot be written.`);
  if ((await stat(file).catch(() => undefined))?.isDirectory())
    throw new Invalid([], `--junit ${file}: a directory, not a file.`);
}

/**
 * On a terminal, one line on stderr redrawn as the run goes (the apply, then each scenario); elsewhere (a CI
 * log, a pipe) nothing: the summary says it all.
 */
function scenarioProgress(total: number) {
  const stream = process.stderr;
  const show = (text: string) => {
    if (!stream.isTTY) return;
    cursorTo(stream, 0);
    clearLine(stream, 0);
    stream.write(text.slice(0, Math.max(20, (stream.columns ?? 80) - 1)));
  };
  let done = 0;
  show(`Applying the configuration to the test sandbox; ${total} scenario${total === 1 ? "" : "s"} to run…`);
  return {
    done: (suite: Suite, result: ScenarioResult) =>
      show(`${++done} of ${total} scenarios: ${suite.file}: ${printable(result.scenario.name)}`),
    finish: () => {
      if (!stream.isTTY) return;
      cursorTo(stream, 0);
      clearLine(stream, 0);
    },
  };
}

async function run(paths: string[], options: TestOptions): Promise<number> {
  const given = paths.length > 0 ? paths : ["."];
  if (options.junit) await checkJunitTarget(options.junit);
  const found = await findTestFiles(given, options.tests);
  if (found.problems.length > 0)
    throw new Invalid(
      found.problems.map(formatDiagnostic),
      problems("finding the test files", found.problems.length),
    );
  const config = await loadConfig(given, { skipFiles: found.real });
  guardOutput(config.secrets);
  if (config.diagnostics.length > 0)
    throw new Invalid(
      config.diagnostics.map(formatDiagnostic),
      `${problems("the configuration", config.diagnostics.length)}; no scenario ran.`,
    );
  const read = await readSuites(found.files, configNames(config.resources));
  if (read.problems.length > 0)
    throw new Invalid(
      sorted(read.problems).map(formatDiagnostic),
      `${problems("the test files", read.problems.length)}; no scenario ran.`,
    );

  const warnings: LoadDiagnostic[] = [];
  const rules = read.suites.map((suite) => {
    const matrix = matrixFor(config.resources, suite);
    warnings.push(...neverWarnings(suite, matrix));
    return judgeRules(suite, matrix);
  });
  for (const w of sorted(warnings)) process.stderr.write(`Warning: ${formatDiagnostic(w)}\n`);

  const progress = scenarioProgress(read.suites.reduce((n, suite) => n + suite.scenarios.length, 0));
  const runs = await runSuites(config, read.suites, { onScenario: progress.done })
    .finally(progress.finish)
    .catch((error: unknown) => {
      if (error instanceof ApplyRefusedError)
        throw new Invalid(
          error.lines.map((l) => l.replace(/^Error: /, "")),
          error.message,
        );
      if (error instanceof ScenarioTooLongError) throw new Invalid([], error.message);
      throw error;
    });
  const report: RunReport = {
    files: runs.map((r, i) => ({ ...r, rules: rules[i]! })),
    warnings,
    ...((options.coverage || options.minCoverage !== undefined) && {
      coverage: coverageOf(config.resources, runs),
    }),
    ...(options.minCoverage !== undefined && { minCoverage: options.minCoverage }),
  };
  if (options.junit) await writeFile(options.junit, renderJunit(report));
  process.stdout.write(
    options.json
      ? `${JSON.stringify(reportJson(report), null, 2)}\n`
      : renderHuman(report, stylerFor(process.stdout)),
  );
  return reportPassed(report) ? testExitCodes.passed : testExitCodes.failed;
}

export function registerTest(program: Command) {
  program
    .command("test")
    .description(
      "Run scenario files (*.test.yaml) against the configuration on a sandbox with a virtual clock",
    )
    .argument(
      "[paths...]",
      "files or directories of the configuration and its *.test.yaml (default: the current directory)",
    )
    .option(
      "--tests <glob>",
      "the test files: files matching this glob from the current directory, instead of *.test.yaml under the paths",
    )
    .option("--json", "print the results as JSON (docs/testing.md)", false)
    .option("--junit <file>", "also write the results as JUnit XML, for CI test reporters")
    .option(
      "--coverage",
      "report the monitors, contacts and alert subscriptions no scenario exercises",
      false,
    )
    .option(
      "--min-coverage <percent>",
      "fail (exit 1) when coverage is under this percentage (implies --coverage)",
    )
    .action(async (paths: string[], raw: Omit<TestOptions, "minCoverage"> & { minCoverage?: string }) => {
      try {
        const { minCoverage, ...rest } = raw;
        const options: TestOptions = {
          ...rest,
          ...(minCoverage !== undefined && { minCoverage: parsePercent(minCoverage) }),
        };
        process.exitCode = await run(paths, options);
      } catch (error) {
        if (!(error instanceof Invalid)) throw error;
        for (const line of error.lines) process.stderr.write(`Error: ${line}\n`);
        process.stderr.write(`Error: ${error.message}\n`);
        process.exitCode = testExitCodes.invalid;
      }
    });
}
