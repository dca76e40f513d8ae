import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { FileStateStore, StateLockedError } from "../../../src/engine/state/index.ts";
import { kill, startChild, tempStatePath } from "./helpers.ts";

describe("FileStateStore across processes", () => {
  it("refuses the lock another process holds, and takes it over once that process is killed", async () => {
    const path = tempStatePath();
    const child = await startChild("hold", path);
    const error = await new FileStateStore(path).lock().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StateLockedError);
    expect((error as StateLockedError).holder).toMatchObject({ pid: child.pid, operation: "child hold" });
    expect((error as Error).message).toContain(`(pid ${child.pid}, vigil `);

    await kill(child);
    const warnings: string[] = [];
    const lock = await new FileStateStore(path, { onWarning: (m) => warnings.push(m) }).lock();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`process ${child.pid} no longer exists`);
    await lock.release();
  });

  it("never leaves a torn file when a writer is killed at random moments", async () => {
    const path = tempStatePath();
    let lastSerial = 0;
    for (let round = 0; round < 8; round++) {
      const child = await startChild("write-loop", path);
      await new Promise((r) => setTimeout(r, Math.random() * 150));
      await kill(child);

      const warnings: string[] = [];
      const lock = await new FileStateStore(path, { onWarning: (m) => warnings.push(m) }).lock();
      expect(warnings, "the killed writer's lock is taken over").toHaveLength(1);
      // read() validates against the schema; the checks below catch a mix of two writes.
      const state = (await lock.read())!;
      expect(state.serial).toBeGreaterThanOrEqual(1);
      expect(state.accountId).toBe(`acc-${state.serial}`);
      expect(Object.keys(state.resources)).toHaveLength(state.serial % 300);
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(readdirSync(dirname(path)).sort(), "leftover temporaries are removed").toEqual([
        "vigil.state.history",
        basename(path),
        basename(path) + ".lock",
      ]);
      lastSerial = state.serial;
      await lock.release();
    }
    expect(JSON.parse(readFileSync(path, "utf8")).serial).toBe(lastSerial);
  });
});
