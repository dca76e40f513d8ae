import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { type Client, startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { type VigilRun, vigil, workspace } from "../vigil.ts";

/** One test sandbox per file, closed with it. */
export function useSandbox(): () => TestSandbox {
  let sb: TestSandbox | undefined;
  beforeAll(async () => {
    sb = await startTestSandbox();
  });
  afterAll(async () => {
    await sb?.close();
  });
  return () => {
    if (!sb) throw new Error("the sandbox starts in beforeAll");
    return sb;
  };
}

export interface Project {
  dir: string;
  /** The account's own HTTP client: changes made out of band. */
  account: Client & { accountId: string };
  /** Runs `vigil` in the project with the account's endpoint and token in VIGIL_ENDPOINT/VIGIL_TOKEN. */
  run(args: readonly string[], options?: { env?: Record<string, string>; input?: string }): Promise<VigilRun>;
  write(name: string, text: string): Promise<void>;
  read(name: string): Promise<string>;
  /** The id the state gives an address. */
  idOf(address: string): Promise<string>;
}

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

/** A workspace holding `files` and a fresh unmetered account of `sb`; removed when the file's tests end. */
export async function project(
  sb: TestSandbox,
  files: Record<string, string>,
  env: Record<string, string> = {},
): Promise<Project> {
  const account = await sb.account({ plan: "enterprise" });
  const dir = await workspace(files);
  dirs.push(dir);
  const base = { VIGIL_ENDPOINT: sb.url, VIGIL_TOKEN: account.token, ...env };
  const read = (name: string) => readFile(join(dir, name), "utf8");
  return {
    dir,
    account,
    run: (args, options = {}) =>
      vigil(args, {
        cwd: dir,
        env: { ...base, ...options.env },
        ...(options.input !== undefined && { input: options.input }),
      }),
    write: (name, text) => writeFile(join(dir, name), text),
    read,
    async idOf(address) {
      const state = JSON.parse(await read(".vigil/state.json"));
      const id = state.resources[address]?.id;
      if (typeof id !== "string") throw new Error(`${address} has no id in the state`);
      return id;
    },
  };
}

/** A workspace for `--sandbox` runs: no endpoint or token, only the files. */
export async function sandboxWorkspace(files: Record<string, string>) {
  const dir = await workspace(files);
  dirs.push(dir);
  return {
    dir,
    run: (args: readonly string[], env: Record<string, string> = {}) => vigil(args, { cwd: dir, env }),
    write: (name: string, text: string) => writeFile(join(dir, name), text),
  };
}

/** A failed run's output, for assertion messages. */
export function shown(run: VigilRun): string {
  return `exit ${run.code}\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`;
}
