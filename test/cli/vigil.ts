import { spawn } from "node:child_process";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { programCommand } from "../helpers/programs.ts";

/** Runs the real `vigil` program, as a user would, in `cwd`: the package's, built for this run. */
export const vigilCommand = programCommand("vigil");

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
  /** Another command that is vigil (the sources themselves, for a test of what they load). */
  command?: readonly string[];
}

export function vigil(args: readonly string[], options: VigilOptions): Promise<VigilRun> {
  return startVigil(args, options).done;
}

/** A `vigil` run under way: its process, what it printed so far, and its end. */
export interface StartedVigil {
  pid: number;
  /** Resolves once stdout or stderr holds `text` (a line the test waits for before it acts). */
  printed(text: string): Promise<void>;
  done: Promise<VigilRun>;
}

/** Starts `vigil args` as `vigil()` does, for a test that acts while it runs (a signal at a chosen moment). */
export function startVigil(args: readonly string[], options: VigilOptions): StartedVigil {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    NO_COLOR: "1",
    ...options.env,
  };
  const [file, ...flags] = options.command ?? vigilCommand;
  const child = spawn(file!, [...flags, ...args], {
    cwd: options.cwd,
    env,
  });
  let stdout = "";
  let stderr = "";
  const watchers: { text: string; seen: () => void }[] = [];
  const check = () => {
    for (const w of [...watchers])
      if (stdout.includes(w.text) || stderr.includes(w.text)) {
        watchers.splice(watchers.indexOf(w), 1);
        w.seen();
      }
  };
  child.stdout.setEncoding("utf8").on("data", (d: string) => {
    stdout += d;
    check();
  });
  child.stderr.setEncoding("utf8").on("data", (d: string) => {
    stderr += d;
    check();
  });
  child.stdin.end(options.input ?? "");
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 60_000);
  const done = new Promise<VigilRun>((finished) =>
    child.once("close", (code) => {
      clearTimeout(timer);
      finished({ code, stdout, stderr });
    }),
  );
  return {
    pid: child.pid!,
    printed: (text) =>
      new Promise((seen, never) => {
        watchers.push({ text, seen });
        check();
        void done.then((run) =>
          never(
            new Error(`vigil ended without printing ${JSON.stringify(text)}:\n${run.stdout}${run.stderr}`),
          ),
        );
      }),
    done,
  };
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
