/**
 * How the tests start vigil's programs: the npm package's launchers that test/setup/programs.ts built for
 * this run (VIGIL_TEST_PROGRAMS names their folder), on the pinned Node. With VIGIL_TEST_PROGRAMS=source, or
 * outside vitest (the benches share some helpers), the sources in src/ instead.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { programPath } from "../../tools/pack.ts";
import { FROM_SOURCE, PROGRAMS_ENV } from "../setup/programs.ts";

const root = resolve(import.meta.dirname, "../..");
/** The repository's pinned Node 22. */
export const nodeBin = join(root, "node_modules/.bin/node");

/** A program, by its package.json `bin` name. */
export type ProgramName = "vigil" | "terraform-provider-vigil" | "pulumi-resource-vigil";

const sources = (
  JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { bin: Record<string, string> }
).bin;

/** The file that is the program: its launcher in the built folder, or its main module in src/. */
export function programFile(name: ProgramName): string {
  const built = process.env[PROGRAMS_ENV];
  return built && built !== FROM_SOURCE ? join(built, programPath(name)) : join(root, sources[name]!);
}

const command = (file: string): [string, ...string[]] => [
  nodeBin,
  "--disable-warning=ExperimentalWarning",
  file,
];

/** The command that runs the program: the pinned Node, its flags, the program's file; arguments follow. */
export const programCommand = (name: ProgramName) => command(programFile(name));

/** The program from its sources whatever the run uses: for a test of what the sources load. */
export const sourceCommand = (name: ProgramName) => command(join(root, sources[name]!));
