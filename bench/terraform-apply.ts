/**
 * Real Terraform with the vigil provider on 200 http monitors, each with an alert subscription to one of
 * two contacts (402 resources): wall time and API calls (reads, writes and 429s, from the sandbox's
 * /_sandbox/stats) of `terraform apply`, of a no-op `terraform plan` right after it, and of
 * `terraform destroy`; also how many times Terraform started the provider, and its start-up inside those
 * runs (from Terraform's own provider log: "starting plugin" to "using plugin").
 *
 * Each runs at Terraform's default parallelism (10) and at `-parallelism=50`, both with batched writes (the
 * provider's default) and as the baseline with `VIGIL_BATCH_WRITES=off` (one write per resource, as before
 * batching), each in a fresh account. The sandbox runs in this process. By default its account is
 * unmetered (enterprise plan), so no quota paces the calls: the figures are the provider's, not the plan's.
 * `--metered` runs on a metered account of `--plan` (business by default), to see the provider's pacing at
 * work, how close the wall time comes to what the quotas allow for the calls made, and that no call meets
 * a 429.
 *
 *   npm run bench:terraform-apply [-- --monitors 200] [--parallelism 10,50] [--modes batched,baseline]
 *                                 [--metered] [--plan business] [--routes]
 */
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { type Client, startTestSandbox } from "../test/helpers/sandbox.ts";
import { described, terraformWorkspace } from "../test/helpers/terraform.ts";
import {
  benchPlan,
  countCalls,
  type Measured,
  median,
  modesOf,
  printRoutes,
  printTable,
  providerBenchOptions,
  quotaOptimum,
  quotaRoom,
  type WriteMode,
} from "./lib.ts";

const { values: args } = parseArgs({
  options: {
    ...providerBenchOptions,
    parallelism: { type: "string", default: "10,50" },
  },
});
const monitors = Number(args.monitors);
const metered = args.metered;
const plan = benchPlan(args);
const parallelisms = args.parallelism.split(",").map(Number);
const modes = modesOf(args.modes);

const config = `terraform {
  required_providers {
    vigil = { source = "vigil/vigil" }
  }
}

provider "vigil" {}

resource "vigil_contact" "team" {
  count   = 2
  type    = "email"
  name    = "Team \${count.index}"
  address = "team-\${count.index}@example.com"
}

resource "vigil_monitor" "service" {
  count     = ${monitors}
  type      = "http"
  url       = "https://service-\${count.index}.example.com/health"
  name      = "Service \${count.index}"
  interval  = 60
  tags      = ["bench"]
  locations = { pools = ["westeurope", "northamerica"] }
  settings  = { method = "G", timeout = 10000 }
}

resource "vigil_alert_subscription" "service" {
  count       = ${monitors}
  monitor_id  = vigil_monitor.service[count.index].id
  contact_id  = vigil_contact.team[count.index % 2].id
  alert_types = ["down", "up"]
}
`;

const sb = await startTestSandbox();
const ws = await terraformWorkspace({ env: { VIGIL_ENDPOINT: sb.url } });

/** Runs one terraform command with fresh stats and a fresh provider log, and measures it. */
async function measure(account: Client, mode: string, step: string, ...args: string[]): Promise<Measured> {
  const log = join(ws.root, `${args[0]}.log`);
  ws.env.TF_LOG_PROVIDER = "debug";
  ws.env.TF_LOG_PATH = log;
  const room = metered ? await quotaRoom(account, sb.admin) : undefined;
  const calls = await countCalls(sb.admin, async () => {
    const run = await ws.run(dir, ...args);
    if (run.code !== 0) throw new Error(described(run));
  });
  const { starts, startupMs } = providerStarts(await readFile(log, "utf8"));
  await rm(log);
  return {
    mode,
    step,
    resources: monitors * 2 + 2,
    ...calls,
    ...(room && { room }),
    extra: [
      ["provider starts", String(starts)],
      ["start-up (median)", `${median(startupMs).toFixed(0)} ms`],
    ],
  };
}

/** Provider processes Terraform started, and each one's time from start to its handshake. */
function providerStarts(log: string) {
  const startedAt: number[] = [];
  const startupMs: number[] = [];
  for (const line of log.split("\n")) {
    const at = Date.parse(line.slice(0, line.indexOf(" ")));
    if (line.includes("provider: starting plugin:")) startedAt.push(at);
    // Terraform starts providers one at a time per graph walk, so each handshake closes the oldest start.
    else if (line.includes("provider: using plugin:")) startupMs.push(at - startedAt[startupMs.length]!);
  }
  return { starts: startedAt.length, startupMs };
}

/** Apply, no-op plan and destroy in a fresh account, with writes batched or not, at one parallelism. */
async function run(mode: WriteMode, parallelism: number): Promise<Measured[]> {
  const account = await sb.account({ plan, metered: args.metered });
  ws.env.VIGIL_TOKEN = account.token;
  if (mode === "baseline") ws.env.VIGIL_BATCH_WRITES = "off";
  else delete ws.env.VIGIL_BATCH_WRITES;
  // Terraform's default is 10: that run passes no flag, as a user would not.
  const flag = parallelism === 10 ? [] : [`-parallelism=${parallelism}`];
  const label = `${mode}, ${flag.length > 0 ? flag[0] : "default parallelism"}`;
  const rows = [
    await measure(account, label, "apply", "apply", "-auto-approve", "-input=false", ...flag),
    await measure(account, label, "no-op plan", "plan", "-detailed-exitcode", "-input=false", ...flag),
    await measure(account, label, "destroy", "destroy", "-auto-approve", "-input=false", ...flag),
  ];
  const left = (await account.get("/monitor?limit=1")).body.data.length;
  if (left > 0) throw new Error(`${label}: the destroy left monitors behind`);
  return rows;
}

const dir = join(ws.root, "config");
try {
  await mkdir(dir);
  await writeFile(join(dir, "main.tf"), config);
  const init = await ws.run(dir, "init", "-input=false");
  if (init.code !== 0) throw new Error(described(init));

  const rows: Measured[] = [];
  for (const parallelism of parallelisms)
    for (const mode of modes) rows.push(...(await run(mode, parallelism)));

  const resources = monitors * 2 + 2;
  console.log(
    `terraform ${(await ws.ok(dir, "version", "-json")).stdout.match(/"terraform_version":\s*"([^"]+)"/)?.[1]}, ` +
      `${monitors} http monitors + ${monitors} alert subscriptions + 2 contacts (${resources} resources); ` +
      `sandbox account on the ${plan} plan, ` +
      (args.metered
        ? "metered (its quotas apply, and the provider paces under them)\n"
        : "unmetered (no quota window, so nothing is paced)\n"),
  );
  printTable(rows, args.metered ? quotaOptimum(plan) : undefined);
  if (args.routes) printRoutes(rows);
} finally {
  await ws.remove();
  await sb.close();
}
