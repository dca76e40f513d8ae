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
export async function startChild(mode: "hold" | "write-loop", path: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ["--disable-warning=ExperimentalWarning", join(import.meta.dirname, "child.ts"), mode, path],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const [line] = (await once(createInterface({ input: child.stdout! }), "line")) as [string];
  if (line !== (mode === "hold" ? "locked" : "ready")) throw new Error(`child said ${line}`);
  return child;
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
