/**
 * A file state has one watcher: a second `vigil watch` of the same state file would report everything
 * twice (replicas need a PostgreSQL state, whose lease elects one). The running watcher holds
 * `<state>.watch.pid`; a second one on this host is refused while that process lives, and takes the file
 * over once it is gone (killed, say).
 */

import { link, readFile, rm, unlink, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { CliError } from "./errors.ts";

interface Holder {
  pid: number;
  host: string;
  startedAt: string;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

async function holderOf(path: string): Promise<Holder | undefined> {
  try {
    const parsed = JSON.parse(await readFile(path, "utf8")) as Partial<Holder>;
    if (typeof parsed.pid === "number" && typeof parsed.host === "string")
      return { pid: parsed.pid, host: parsed.host, startedAt: String(parsed.startedAt) };
  } catch {
    // Gone, or not a holder's record: no one can be shown to hold it.
  }
  return undefined;
}

/** Claims the state file's watcher slot; answers how to give it back. `state`: the state file's path. */
export async function claimSingleWatcher(state: string): Promise<() => Promise<void>> {
  const path = `${state}.watch.pid`;
  const me: Holder = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString() };
  const text = `${JSON.stringify(me)}\n`;
  // Written aside, then linked into place: the claim is atomic, and never an empty file.
  const aside = `${path}.${process.pid}.tmp`;
  await writeFile(aside, text, { mode: 0o600 });
  try {
    for (let tries = 0; ; tries++) {
      try {
        await link(aside, path);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST" || tries > 2) throw error;
      }
      const holder = await holderOf(path);
      if (holder && (holder.host !== me.host || alive(holder.pid)))
        throw new CliError(
          `Another vigil watch watches ${state}: pid ${holder.pid} on ${holder.host}, since ${holder.startedAt} (${path}). ` +
            "With a state file, one watcher runs at a time: two would report everything twice. " +
            "Run replicas on a PostgreSQL state (--state postgres://…), which elects one active watcher " +
            `(docs/watch.md, "Replicas and failover")` +
            (holder.host !== me.host ? `; if that watcher is gone, delete ${path}.` : "."),
        );
      // Its process is gone: the slot is free.
      await rm(path, { force: true });
    }
  } finally {
    await unlink(aside).catch(() => {});
  }
  return async () => {
    const holder = await holderOf(path);
    if (holder?.pid === me.pid && holder.host === me.host) await rm(path, { force: true });
  };
}
