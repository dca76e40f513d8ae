/**
 * Finding and reading `vigil test`'s files: `*.test.yaml` under the paths given, or those `--tests GLOB`
 * names; each read as the configuration's files are (bounded, with positions: gitops/files.ts), its shape
 * judged (shape.ts), then its meaning against the configuration (check.ts).
 */
import { glob, realpath, stat } from "node:fs/promises";
import { basename } from "node:path";
import type { DesiredResource } from "../../engine/model.ts";
import { findConfigFiles, parseConfigFile } from "../../gitops/files.ts";
import { displayName } from "../../gitops/find-files.ts";
import { SuiteChecker } from "./check.ts";
import type { ConfigNames, Suite, TestDiagnostic } from "./model.ts";
import { readShape, ShapeReader } from "./shape.ts";

export interface FoundTests {
  /** As-given paths of the test files, in a stable order. */
  files: string[];
  /** Their real paths: the configuration's loader leaves them out. */
  real: Set<string>;
  problems: TestDiagnostic[];
}

/**
 * The test files: `*.test.yaml`/`*.test.yml` under `paths` (hidden directories and node_modules skipped, and
 * links followed only inside the paths, as for the configuration), or with `pattern` every file that glob
 * matches from the working directory.
 */
export async function findTestFiles(paths: readonly string[], pattern?: string): Promise<FoundTests> {
  const problems: TestDiagnostic[] = [];
  let files: string[];
  if (pattern === undefined) {
    const found = await findConfigFiles(paths, { select: "tests" });
    problems.push(...found.problems.map((message) => ({ message })));
    files = found.files.map((f) => f.path);
  } else {
    files = [];
    for await (const path of glob(pattern, { exclude: skipped })) {
      const info = await stat(path).catch(() => undefined);
      if (info?.isFile()) files.push(path);
    }
    files.sort();
  }
  if (files.length === 0 && problems.length === 0)
    problems.push({
      message:
        pattern === undefined
          ? `no test files (*.test.yaml) under ${paths.join(", ")}; name scenario files so, or pick them with --tests GLOB`
          : `--tests ${pattern} matches no file`,
    });
  const real = new Set<string>();
  for (const file of files) real.add(await realpath(file));
  return { files, real, problems };
}

/** What a glob does not walk into, as for the configuration: hidden directories and node_modules. */
function skipped(path: string): boolean {
  const name = basename(path);
  return name === "node_modules" || (name.startsWith(".") && name !== "." && name !== "..");
}

/** The names of a loaded configuration (its resources' addresses), with what the checks need of each. */
export function configNames(resources: readonly DesiredResource[]): ConfigNames {
  const names: ConfigNames = { monitors: new Map(), contacts: new Map(), webhooks: new Map() };
  for (const r of resources) {
    const name = r.address.slice(r.address.indexOf(".") + 1);
    const m = r.members;
    if (r.kind === "monitor") names.monitors.set(name, { enabled: m.enabled !== false });
    else if (r.kind === "contact") names.contacts.set(name, { type: String(m.type) });
    else if (r.kind === "webhook")
      names.webhooks.set(name, {
        events: Array.isArray(m.events) ? m.events.filter((e): e is string => typeof e === "string") : [],
      });
  }
  return names;
}

/** Reads and checks the test files; a file with any mistake gives no suite. */
export async function readSuites(
  files: readonly string[],
  names: ConfigNames,
): Promise<{ suites: Suite[]; problems: TestDiagnostic[] }> {
  const suites: Suite[] = [];
  const problems: TestDiagnostic[] = [];
  for (const path of files) {
    const { parsed, problems: fileProblems } = await parseConfigFile(path);
    problems.push(...fileProblems.map(({ at, message }) => ({ at, message })));
    if (!parsed) continue;
    const reader = new ShapeReader(parsed);
    const shape = readShape(reader, parsed.data);
    if (shape) {
      const check = new SuiteChecker(reader, names);
      const start = shape.file.start === undefined ? undefined : check.time(shape.file.start, ["start"]);
      const confirmed = check.confirmed(shape.file.confirmed, ["confirmed"]);
      const rules = check.rules(shape.file.rules);
      const seen = new Map<string, number>();
      const scenarios = shape.scenarios.map((s, i) => (s ? check.scenario(s, i, start, seen) : undefined));
      if (reader.problems.length === 0)
        suites.push({
          file: displayName(path),
          ...(confirmed && { confirmed }),
          rules,
          scenarios: scenarios.filter((s) => s !== undefined),
        });
    }
    problems.push(...[...reader.problems].sort(byPlace));
  }
  return { suites, problems };
}

const byPlace = (a: TestDiagnostic, b: TestDiagnostic) =>
  (a.at?.line ?? 0) - (b.at?.line ?? 0) || (a.at?.column ?? 0) - (b.at?.column ?? 0);
