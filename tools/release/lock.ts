/**
 * One build at a time per release folder: test files in parallel workers, and a developer's
 * `npm run release`, may all ask for the same release. The lock is a folder (made atomically) holding the
 * holder's pid; a lock whose holder is gone is taken over.
 */
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
};

export async function withLock<T>(lock: string, work: () => Promise<T>, timeoutMs = 20 * 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = Number(await readFile(join(lock, "pid"), "utf8").catch(() => ""));
      // A lock without a pid yet is being taken: only a lock whose holder has gone is stale.
      if (holder > 0 && !alive(holder)) await rm(lock, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`${lock} is still held by process ${holder || "?"}`);
      else await sleep(500);
    }
  }
  try {
    await writeFile(join(lock, "pid"), String(process.pid));
    return await work();
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}
