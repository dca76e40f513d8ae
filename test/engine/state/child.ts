/**
 * A separate process using a FileStateStore, for the tests that need another
 * pid: `hold <path>` takes the lock and keeps it; `write-loop <path>` takes the
 * lock and rewrites the state as fast as it can, with a size that varies.
 */
import { FileStateStore, newState } from "../../../src/engine/state/index.ts";

const [mode, path] = process.argv.slice(2);
const lock = await new FileStateStore(path!, { command: `child ${mode}` }).lock();

if (mode === "hold") {
  process.stdout.write("locked\n");
  setInterval(() => {}, 60_000);
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
