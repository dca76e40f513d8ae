/**
 * A separate process using a state store, for the tests that need another
 * process: `hold <location> [leaseMs]` takes the lock, says `locked`, and on
 * each stdin line `write` tries a save and says `written` or `lost: why`;
 * `write-loop <location>` takes the lock and rewrites the state as fast as it
 * can, with a size that varies. A location is a file path or a postgres:// URL.
 */
import { createInterface } from "node:readline";
import {
  FileStateStore,
  isPostgresUrl,
  newState,
  type StateBackend,
} from "../../../src/engine/state/index.ts";
import { PostgresStateStore } from "../../../src/engine/state/postgres-store.ts";

const [mode, location, lease] = process.argv.slice(2);
const options = { operation: `child ${mode}`, ...(lease && { leaseMs: Number(lease) }) };
const store: StateBackend = isPostgresUrl(location!)
  ? new PostgresStateStore(location!, options)
  : new FileStateStore(location!, options);
const lock = await store.lock();

if (mode === "hold") {
  process.stdout.write("locked\n");
  const state = (await lock.read()) ?? newState();
  for await (const line of createInterface({ input: process.stdin })) {
    if (line !== "write") continue;
    state.serial++;
    try {
      await lock.write(state);
      process.stdout.write("written\n");
    } catch (error) {
      process.stdout.write(`lost: ${(error as Error).message}\n`);
    }
  }
} else {
  const state = newState();
  for (let serial = 1; ; serial++) {
    state.serial = serial;
    // accountId and the resource count both derive from serial, so a mixed file is detectable.
    state.accountId = `acc-${serial}`;
    state.resources = {};
    for (let i = 0; i < serial % 300; i++) {
      state.resources[`monitors.m${i}`] = {
        kind: "monitor",
        id: `m${i}`,
        naturalKey: { url: `https://example.com/${i}`, type: "http" },
        managed: { name: `monitor ${i} of ${serial}`, interval: 60 },
      };
    }
    await lock.write(state);
    if (serial === 1) process.stdout.write("ready\n");
  }
}
