import { spawn } from "node:child_process";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";

/** Runs the real `vigil` binary, as a user would, in `cwd`. */
const root = resolve(import.meta.dirname, "../..");
const node = resolve(root, "node_modules/.bin/node");
export const vigilMain = resolve(root, "src/cli/main.ts");

export interface VigilRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface VigilOptions {
  cwd: string;
  /** Added to a clean environment (PATH and HOME kept; no VIGIL_*, NO_COLOR set unless given). */
  env?: Record<string, string>;
  /** Written to stdin, then closed. */
  input?: string;
  timeoutMs?: number;
}

export function vigil(args: readonly string[], options: VigilOptions): Promise<VigilRun> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    NO_COLOR: "1",
    ...options.env,
  };
  const child = spawn(node, ["--disable-warning=ExperimentalWarning", vigilMain, ...args], {
    cwd: options.cwd,
    env,
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => {
    stdout += d;
  });
  child.stderr.setEncoding("utf8").on("data", (d: string) => {
    stderr += d;
  });
  child.stdin.end(options.input ?? "");
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 60_000);
  return new Promise((done) =>
    child.once("close", (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    }),
  );
}

/** A fresh directory holding `files` (relative path → text). */
export async function workspace(files: Record<string, string> = {}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "vigil-cli-"));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  return dir;
}
