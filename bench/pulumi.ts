/**
 * pulumi-resource-vigil as the Pulumi engine drives it (test/pulumi/harness.ts plays the engine over gRPC):
 * the provider's start-up (spawn to port line, median and p90 of `--launches` launches), then wall time and
 * API calls (reads, writes and 429s, from the sandbox's /_sandbox/stats) of an `up` of 200 http monitors
 * each with an alert subscription to one of two contacts, of a second `up` with nothing to do (Check and
 * Diff only: no call at all), of a `refresh` (Read of every resource) and of a `destroy`.
 *
 * Each is run twice, in a fresh account each time: with batched writes (the provider's default), and as the
 * baseline with `VIGIL_BATCH_WRITES=off` (one write per resource, as before batching). The account is
 * unmetered (enterprise) unless `--metered`, which runs on a metered account of `--plan` (business by
 * default), where the pacer keeps the calls under the quotas.
 *
 *   npm run bench:pulumi [-- --monitors 200] [--parallel 16] [--launches 20] [--metered] [--plan business]
 *                        [--modes batched,baseline] [--routes]
 */
import { parseArgs } from "node:util";
import { secret } from "../src/pulumi/provider/values.ts";
import { resourceToken } from "../src/pulumi/tokens.ts";
import { startTestSandbox } from "../test/helpers/sandbox.ts";
import { Engine, ProviderProcess, type ResourceDecl } from "../test/pulumi/harness.ts";
import {
  benchPlan,
  countCalls,
  type Measured,
  modesOf,
  percentile,
  printRoutes,
  printTable,
  providerBenchOptions,
  quotaOptimum,
  quotaRoom,
} from "./lib.ts";

const { values: args } = parseArgs({
  options: {
    ...providerBenchOptions,
    parallel: { type: "string", default: "16" },
    launches: { type: "string", default: "20" },
  },
});
const monitors = Number(args.monitors);
const parallel = Number(args.parallel);
const launches = Number(args.launches);
const plan = benchPlan(args);
const modes = modesOf(args.modes);

// Start-up: one launch first warms Node's compile cache, as any run after the first finds it.
await (await ProviderProcess.launch()).close();
const startups: number[] = [];
for (let i = 0; i < launches; i++) {
  const provider = await ProviderProcess.launch();
  startups.push(provider.startupMs);
  await provider.close();
}

const program: ResourceDecl[] = [
  ...[0, 1].map((i) => ({
    name: `team-${i}`,
    type: resourceToken("contact"),
    inputs: () => ({ type: "email", name: `Team ${i}`, address: `team-${i}@example.com` }),
  })),
  ...Array.from({ length: monitors }, (_, i) => ({
    name: `service-${i}`,
    type: resourceToken("monitor"),
    inputs: () => ({
      type: "http",
      url: `https://service-${i}.example.com/health`,
      name: `Service ${i}`,
      interval: 60,
      tags: ["bench"],
      locations: { pools: ["westeurope", "northamerica"] },
      settings: { method: "G", timeout: 10000, username: "probe", password: secret("bench-password") },
    }),
  })),
  ...Array.from({ length: monitors }, (_, i) => ({
    name: `alert-${i}`,
    type: resourceToken("alertSubscription"),
    inputs: (ref: (name: string) => string) => ({
      monitorId: ref(`service-${i}`),
      contactId: ref(`team-${i % 2}`),
      alertTypes: ["down", "up"],
    }),
  })),
];

const sb = await startTestSandbox();
const rows: Measured[] = [];
try {
  for (const mode of modes) {
    const account = await sb.account({ plan, metered: args.metered });
    const provider = await ProviderProcess.launch(mode === "baseline" ? { VIGIL_BATCH_WRITES: "off" } : {});
    try {
      await provider.configure({ endpoint: sb.url, token: account.token });
      const engine = new Engine(provider, parallel);
      const measure = async (step: string, run: () => Promise<unknown>) => {
        const room = args.metered ? await quotaRoom(account, sb.admin) : undefined;
        rows.push({
          mode,
          step,
          resources: program.length,
          ...(await countCalls(sb.admin, run)),
          ...(room && { room }),
        });
      };
      await measure("up", () => engine.up(program));
      await measure("no-op up", async () => {
        const changed = (await engine.up(program)).filter((s) => s.step !== "same");
        if (changed.length > 0)
          throw new Error(`the no-op up changed ${changed.map((s) => s.name).join(", ")}`);
      });
      await measure("refresh", async () => {
        const moved = await engine.refresh();
        if (moved.length > 0) throw new Error(`refresh moved ${moved.join(", ")}`);
      });
      await measure("destroy", () => engine.destroy(program));
      const left = (await account.get("/monitor?limit=1")).body.data.length;
      if (left > 0) throw new Error(`${mode}: the destroy left monitors behind`);
    } finally {
      await provider.close();
    }
  }

  console.log(
    `pulumi-resource-vigil start-up (spawn to port line, ${launches} launches): ` +
      `median ${percentile(startups, 50).toFixed(0)} ms, p90 ${percentile(startups, 90).toFixed(0)} ms\n`,
  );
  console.log(
    `${monitors} http monitors + ${monitors} alert subscriptions + 2 contacts (${program.length} resources), ` +
      `one provider process, up to ${parallel} resources at once (--parallel); sandbox account on the ${plan} plan, ` +
      `${args.metered ? "metered (its quotas apply, and the provider paces under them)" : "unmetered"}\n`,
  );
  printTable(rows, args.metered ? quotaOptimum(plan) : undefined);
  if (args.routes) printRoutes(rows);
} finally {
  await sb.close();
}
