/**
 * One apply of the crash test's fleet, in its own process so the test can
 * SIGKILL it at any point: `node crash-child.ts '<json args>'`. Prints
 * `ready` once loaded, as the apply starts, and one JSON line with the outcome
 * when it gets to the end.
 */
import {
  type Operations,
  operations,
  type Pacer,
  type TimeSource,
  VigilClient,
} from "../../../src/api/index.ts";
import { applyChanges, FileStateStore } from "../../../src/engine/index.ts";
import { type FleetShape, fleetConfig } from "../fixtures/fleet.ts";

export interface CrashChildArgs {
  url: string;
  token: string;
  statePath: string;
  tag: string;
  shape: FleetShape;
  /** Reported as the account's `limits.maxBulkItems`, so the monitors go in several jobs and a kill can fall between them. */
  maxBulkItems: number;
}

const args = JSON.parse(process.argv[2]!) as CrashChildArgs;
const noPacing: Pacer = { acquire: async () => {}, observe: () => {} };
// Job polls honour Retry-After, but the sandbox's jobs finish in a few ticks: short sleeps keep the apply brisk.
const time: TimeSource = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.min(ms, 50))),
};
const client = new VigilClient({ baseUrl: args.url, token: args.token, pacer: noPacing, time });
const real = operations(client);
const ops: Operations = {
  ...real,
  account: {
    ...real.account,
    async get() {
      const account = await real.account.get();
      return { ...account, limits: { ...(account.limits as object), maxBulkItems: args.maxBulkItems } };
    },
  },
};

// Loading the engine takes longer than applying: the parent times its kill from here.
process.stdout.write("ready\n");
const started = Date.now();
const { result, notes } = await applyChanges({
  ops,
  store: new FileStateStore(args.statePath),
  desired: fleetConfig(args.tag, args.shape),
  time,
});
process.stdout.write(
  `${JSON.stringify({ ms: Date.now() - started, done: result.done.length, failures: result.failures, notes: notes.length })}\n`,
);
