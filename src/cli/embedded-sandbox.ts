import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { type RunningSandbox, startSandbox } from "../sandbox/index.ts";

/** The snapshot file `--sandbox` keeps in its directory (`.vigil/sandbox.json`). */
const sandboxSnapshotName = "sandbox.json";

/**
 * Starts the sandbox kept in `<dir>/sandbox.json` (created on the first run),
 * on a free loopback port. Its default account is on the business plan and
 * metered, like a real account. `close()` saves the snapshot and stops it:
 * call it in a `finally`, or the run's changes are lost.
 */
export async function openEmbeddedSandbox(dir: string): Promise<RunningSandbox> {
  await mkdir(dir, { recursive: true });
  return startSandbox({
    host: "127.0.0.1",
    port: 0,
    snapshotFile: join(dir, sandboxSnapshotName),
    plan: "business",
    onWarning: (message) => process.stderr.write(`Warning: the embedded sandbox: ${message}\n`),
  });
}
