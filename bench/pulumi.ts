/**
 * pulumi-resource-vigil as the Pulumi engine drives it (test/pulumi/harness.ts plays the engine over gRPC):
 * the provider's start-up (spawn to port line, median and p90 of 20 launches), then wall time and API calls
 * (reads and writes, from the sandbox's /_sandbox/stats) of an `up` of 50 http monitors each with an alert
 * subscription to one of two contacts, of a second `up` with nothing to do (Check and Diff only: no call at
 * all), of a `refresh` (Read of every resource) and of a `destroy`.
 *
 * The sandbox runs in this process, its account unmetered (enterprise) unless `--metered`: the figures are
 * the provider's, not the plan's quotas.
 *
 *   node_modules/.bin/node bench/pulumi.ts [--monitors 50] [--launches 20] [--metered] [--plan business]
 */
import { parseArgs } from "node:util";
import { secret } from "../src/pulumi/provider/values.ts";
import { resourceToken } from "../src/pulumi/tokens.ts";
import { startTestSandbox } from "../test/helpers/sandbox.ts";
import { Engine, ProviderProcess, type ResourceDecl } from "../test/pulumi/harness.ts";
import { countCalls } from "./lib.ts";

const { values: args } = parseArgs({
  options: {
    monitors: { type: "string", default: "50" },
    launches: { type: "string", default: "20" },
    metered: { type: "boolean", default: false },
    plan: { type: "string", default: "enterprise" },
  },
});
const monitors = Number(args.monitors);
const launches = Number(args.launches);
const plan = args.plan as "trial" | "business" | "enterprise";

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
};

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
const account = await sb.account({ plan, metered: args.metered });
const provider = await ProviderProcess.launch();
try {
  await provider.configure({ endpoint: sb.url, token: account.token });
  const engine = new Engine(provider);

  const measure = async (step: string, run: () => Promise<unknown>) => {
    const { seconds, reads, writes, statuses } = await countCalls(sb.admin, run);
    const answered = Object.entries(statuses)
      .map(([status, n]) => `${status}×${n}`)
      .join(" ");
    return [step, `${seconds.toFixed(2)} s`, String(reads), String(writes), answered];
  };

  const rows = [
    await measure("up", () => engine.up(program)),
    await measure("no-op up", async () => {
      const steps = await engine.up(program);
      const changed = steps.filter((s) => s.step !== "same");
      if (changed.length > 0)
        throw new Error(`the no-op up changed ${changed.map((s) => s.name).join(", ")}`);
    }),
    await measure("refresh", async () => {
      const moved = await engine.refresh();
      if (moved.length > 0) throw new Error(`refresh moved ${moved.join(", ")}`);
    }),
    await measure("destroy", () => engine.destroy(program)),
  ];

  console.log(
    `pulumi-resource-vigil start-up (spawn to port line, ${launches} launches): ` +
      `median ${percentile(startups, 50).toFixed(0)} ms, p90 ${percentile(startups, 90).toFixed(0)} ms\n`,
  );
  console.log(
    `${monitors} http monitors + ${monitors} alert subscriptions + 2 contacts (${program.length} resources), ` +
      `one provider process, up to 16 resources at once; sandbox account on the ${plan} plan, ` +
      `${args.metered ? "metered" : "unmetered"}\n`,
  );
  const header = ["step", "wall time", "API reads", "API writes", "statuses"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  for (const row of [header, widths.map((w) => "-".repeat(w)), ...rows])
    console.log(row.map((cell, i) => cell.padEnd(widths[i]!)).join("  "));
} finally {
  await provider.close();
  await sb.close();
}
