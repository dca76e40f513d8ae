import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";

export function tempStatePath(): string {
  return join(mkdtempSync(join(tmpdir(), "vigil-state-")), "vigil.state.json");
}

/** Starts test/engine/state/child.ts and waits for its first line (`locked` or `ready`). */
export async function startChild(
  mode: "hold" | "write-loop",
  location: string,
  leaseMs?: number,
): Promise<ChildProcess & { lines: AsyncIterator<string> }> {
  const child = spawn(
    process.execPath,
    [
      "--disable-warning=ExperimentalWarning",
      join(import.meta.dirname, "child.ts"),
      mode,
      location,
      ...(leaseMs === undefined ? [] : [String(leaseMs)]),
    ],
    { stdio: ["pipe", "pipe", "inherit"] },
  );
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const first = await lines.next();
  if (first.value !== (mode === "hold" ? "locked" : "ready")) throw new Error(`child said ${first.value}`);
  return Object.assign(child, { lines });
}

export async function kill(child: ChildProcess): Promise<void> {
  const exited = once(child, "exit");
  child.kill("SIGKILL");
  await exited;
}

/** The pid of a process that has already exited. */
export async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await once(child, "exit");
  return child.pid!;
}
