/**
 * `npm run bench:slow-clients`: what slow clients can hold of the sandbox and of the watcher's listener,
 * both with their default limits (src/server-limits.ts: whole request 30 s, 512 connections).
 *
 * Against each server, in turn: `--below` connections (default 300) that send full headers declaring a
 * 200,000-byte body, then one byte every `--every-ms` (default 10,000), while a normal request is made
 * on a connection of its own; then `--above` of them (default 600, past the cap). For each it prints how
 * many were refused at once, how many were cut off and when, and whether a normal request succeeded
 * while they were held and once they were gone. The sandbox runs as its own process (`vigil sandbox`);
 * the watcher runs in this process, on a sandbox account.
 */
import { parseArgs } from "node:util";
import { request } from "undici";
import { operations, VigilClient } from "../src/api/index.ts";
import { applyChanges, MemoryStateStore } from "../src/engine/index.ts";
import { defaultServerLimits } from "../src/server-limits.ts";
import { startWatch } from "../src/watch/run.ts";
import { type HeldConnection, slowBody } from "../test/helpers/slow-clients.ts";
import { MemoryRecords, startSandbox } from "./lib.ts";

const { values: args } = parseArgs({
  options: {
    below: { type: "string", default: "300" },
    above: { type: "string", default: "600" },
    "every-ms": { type: "string", default: "10000" },
  },
});
const everyMs = Number(args["every-ms"]);

/** A normal request on a connection of its own: its status, or what went wrong. */
async function normal(url: string, headers: Record<string, string> = {}): Promise<string> {
  try {
    const res = await request(url, { headers, reset: true, headersTimeout: 5000 });
    await res.body.dump();
    return String(res.statusCode);
  } catch (error) {
    return `failed (${(error as { code?: string }).code ?? (error as Error).message})`;
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function attack(
  label: string,
  base: string,
  slow: { method: string; path: string; headers?: Record<string, string> },
  count: number,
  probe: () => Promise<string>,
) {
  const started = performance.now();
  const held: HeldConnection[] = [];
  for (let i = 0; i < count; i++) held.push(await slowBody(base, { ...slow, everyMs }));
  // Let the server accept (or refuse) the last of them before the normal request.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const during = await probe();
  const ends = await Promise.all(held.map((h) => h.closed));
  const refused = ends.filter((e) => e.answer === "");
  const cut = ends
    .filter((e) => e.answer !== "")
    .map((e) => e.afterMs)
    .sort((a, b) => a - b);
  const after = await probe();
  console.log(
    `| ${label} | ${count} | ${refused.length} | ${cut.length} | ` +
      `${cut.length ? `${seconds(cut[0]!)} / ${seconds(cut[Math.floor(cut.length / 2)]!)} / ${seconds(cut.at(-1)!)}` : "-"} | ` +
      `${during} | ${after} | ${seconds(performance.now() - started)} |`,
  );
}

const sandbox = await startSandbox({ data: false, connections: 4 });
const token = await sandbox.unmeteredAccount();
const client = new VigilClient({ baseUrl: sandbox.url, token });
const store = new MemoryStateStore();
await applyChanges({ ops: operations(client), store, desired: [] });
const watch = await startWatch({
  ops: operations(client),
  clientMetrics: client.metrics,
  store,
  records: new MemoryRecords(),
  desired: [],
  cadence: { everyMs: 3_600_000, fullEveryMs: 3_600_000 },
  share: 0.1,
  listen: { host: "127.0.0.1", port: 0 },
  secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  out: () => {},
  log: (line) => console.error(line),
});
const watcher = watch.url!;

const { requestTimeoutMs, maxConnections } = defaultServerLimits;
console.log(
  `Slow bodies (Content-Length: 200000, one byte every ${everyMs} ms); default limits: ` +
    `request ${seconds(requestTimeoutMs)}, ${maxConnections} connections.\n`,
);
console.log(
  "| server | slow connections | refused at once | cut off | cut after (first / median / last) | normal request meanwhile | normal request after | phase took |",
);
console.log("|---|---|---|---|---|---|---|---|");
try {
  for (const count of [Number(args.below), Number(args.above)]) {
    const auth = { authorization: `Bearer ${token}` };
    await attack("sandbox", sandbox.url, { method: "PATCH", path: "/account", headers: auth }, count, () =>
      normal(`${sandbox.url}/account`, auth),
    );
    await attack("watcher", watcher, { method: "POST", path: "/events" }, count, () =>
      normal(`${watcher}/metrics`),
    );
  }
} finally {
  await watch.stop();
  await client.close();
  await sandbox.stop();
}
