import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { resolve } from "node:path";
import { programCommand } from "../helpers/programs.ts";

/** Spawns the real `vigil sandbox` CLI, as a user would run it, for the CLI suites. */
const root = resolve(import.meta.dirname, "../..");

export interface SandboxProcess {
  child: ChildProcessWithoutNullStreams;
  /** The first stdout line, parsed. */
  info: { url: string; token: string; adminToken: string };
  firstLine: string;
  stdout(): string;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function runCli(args: string[]) {
  const [node, ...flags] = programCommand("vigil");
  const child = spawn(node, [...flags, ...args], {
    cwd: root,
    env: { ...process.env, NO_COLOR: "1" },
  });
  let out = "";
  let err = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => {
    out += d;
  });
  child.stderr.setEncoding("utf8").on("data", (d: string) => {
    err += d;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once("exit", (code, signal) => done({ code, signal })),
  );
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Starts the sandbox and waits for its first stdout line. */
export async function startCli(args: string[], timeoutMs = 15_000): Promise<SandboxProcess> {
  const run = runCli(["sandbox", ...args]);
  const firstLine = await new Promise<string>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`no first line; stderr: ${run.stderr()}`)), timeoutMs);
    const check = () => {
      const newline = run.stdout().indexOf("\n");
      if (newline >= 0) {
        clearTimeout(timer);
        done(run.stdout().slice(0, newline));
      }
    };
    run.child.stdout.on("data", check);
    run.exited.then(({ code }) => {
      clearTimeout(timer);
      fail(new Error(`exited ${code} before its first line; stderr: ${run.stderr()}`));
    });
  });
  return { ...run, firstLine, info: JSON.parse(firstLine) };
}

/** Stops a process that a test left running. */
export async function stopCli(p: { child: ChildProcessWithoutNullStreams; exited: Promise<unknown> }) {
  if (p.child.exitCode === null && p.child.signalCode === null) {
    p.child.kill("SIGKILL");
    await p.exited;
  }
}
