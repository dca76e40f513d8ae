/**
 * `vigil test` at scale (issue 29): a configuration of 1,000 monitors and 100 scenarios, budget 60 s on
 * the 2-core machine. The configuration is applied once and each scenario starts from a restore of the
 * sandbox's checkpoint, not from a fresh apply.
 *
 *   npm run bench:test [-- --monitors 1000 --scenarios 100 --files 4 --keep]
 *
 * Writes the repository (bench/test-config.ts) into a temporary directory, then runs `vigil test DIR --json`
 * in a fresh Node process of its own (the CLI's code, in-process there, so its figures are the run's
 * alone): the wall time, the CPU time, the peak RSS, the time to the first scenario (loading, applying,
 * confirming) and the scenarios' own time, and the load average before and after, to judge how shared the
 * machine was. `--keep` keeps the repository and prints its path.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { writeTestRepository } from "./test-config.ts";

const { values: args } = parseArgs({
  options: {
    monitors: { type: "string", default: "1000" },
    scenarios: { type: "string", default: "100" },
    files: { type: "string", default: "4" },
    keep: { type: "boolean", default: false },
    /** Internal: run `vigil test` on this directory and print the figures as JSON on stderr. */
    run: { type: "string" },
  },
});

if (args.run) {
  const { runCli } = await import("../src/cli/run.ts");
  const out: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  // The JSON document is the run's; the figures go to stderr, after it.
  process.stdout.write = ((chunk: string | Uint8Array) => {
    out.push(String(chunk));
    return true;
  }) as typeof process.stdout.write;
  const started = performance.now();
  const cpu = process.cpuUsage();
  await runCli(["test", args.run, "--json"]);
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  process.stdout.write = write;
  const report = JSON.parse(out.join("")) as {
    passed: boolean;
    summary: { scenarios: number; passed: number; failed: number };
    files: { scenarios: { durationMs: number }[] }[];
  };
  const scenarioMs = report.files.flatMap((f) => f.scenarios).reduce((sum, s) => sum + s.durationMs, 0);
  process.stderr.write(
    `\n${JSON.stringify({
      exitCode: process.exitCode ?? 0,
      passed: report.passed,
      summary: report.summary,
      wallMs,
      cpuMs: (used.user + used.system) / 1000,
      scenarioMs,
      maxRssMb: process.resourceUsage().maxRSS / 1024,
    })}\n`,
  );
  process.exit(0);
}

const monitors = Number(args.monitors);
const scenarios = Number(args.scenarios);
const dir = mkdtempSync(join(tmpdir(), "vigil-bench-test-"));
try {
  writeTestRepository(dir, { monitors, scenarios, files: Number(args.files) });
  const before = loadavg()[0]!.toFixed(2);
  const child = spawnSync(
    process.execPath,
    ["--disable-warning=ExperimentalWarning", import.meta.filename, "--run", dir],
    { encoding: "utf8", maxBuffer: 256 * 2 ** 20 },
  );
  const last = child.stderr.trim().split("\n").at(-1) ?? "";
  let figures: {
    exitCode: number;
    passed: boolean;
    summary: unknown;
    wallMs: number;
    cpuMs: number;
    scenarioMs: number;
    maxRssMb: number;
  };
  try {
    figures = JSON.parse(last);
  } catch {
    throw new Error(`the run failed (status ${child.status}):\n${child.stderr.slice(-4000)}`);
  }
  const after = loadavg()[0]!.toFixed(2);
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  console.log(`vigil test: ${monitors} monitors, ${scenarios} scenarios in ${args.files} files`);
  console.log(
    `  result: ${figures.passed ? "passed" : "FAILED"} (exit ${figures.exitCode}), ${JSON.stringify(figures.summary)}`,
  );
  console.log(
    `  wall time: ${s(figures.wallMs)} (budget 60 s): ${figures.wallMs <= 60_000 ? "within" : "OVER"}`,
  );
  console.log(
    `    before the first scenario (load, apply once, confirm, checkpoint): ${s(figures.wallMs - figures.scenarioMs)}`,
  );
  console.log(
    `    the scenarios (each from a restore): ${s(figures.scenarioMs)}, ${(figures.scenarioMs / scenarios).toFixed(0)} ms each`,
  );
  console.log(`  CPU time: ${s(figures.cpuMs)}`);
  console.log(`  peak RSS: ${figures.maxRssMb.toFixed(0)} MB`);
  console.log(`  load average (1 min): ${before} before, ${after} after`);
  if (args.keep) console.log(`  kept: ${dir}`);
} finally {
  if (!args.keep) rmSync(dir, { recursive: true, force: true });
}
