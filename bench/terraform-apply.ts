/**
 * Real Terraform with the vigil provider on 50 http monitors, each with an alert subscription to one of
 * two contacts: wall time and API calls (reads and writes, from the sandbox's /_sandbox/stats) of
 * `terraform apply`, of a no-op `terraform plan` right after it, and of `terraform destroy`. Also how
 * many times Terraform started the provider, and its start-up inside those runs (from Terraform's own
 * provider log: "starting plugin" to "using plugin").
 *
 * The sandbox runs in this process. By default its account is unmetered (enterprise plan), so no quota
 * paces the calls: the figures are the provider's, not the plan's (under Business quotas the writes alone
 * take minutes; the output says how many). `--metered` runs on a metered account of `--plan`, to see the
 * provider's pacing at work (and that no call meets a 429).
 *
 *   npm run bench:terraform-apply [-- --monitors 50] [--metered] [--plan business]
 */
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startTestSandbox } from "../test/helpers/sandbox.ts";
import { described, terraformWorkspace } from "../test/helpers/terraform.ts";
import { countCalls } from "./lib.ts";

const { values: args } = parseArgs({
  options: {
    monitors: { type: "string", default: "50" },
    metered: { type: "boolean", default: false },
    plan: { type: "string", default: "enterprise" },
  },
});
const monitors = Number(args.monitors);
const plan = args.plan as "trial" | "business" | "enterprise";

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

/** Calls the service meters as reads: every GET, and the POST twins of lists and lookups. */
const sb = await startTestSandbox();
const account = await sb.account({ plan, metered: args.metered });
const ws = await terraformWorkspace({ env: { VIGIL_ENDPOINT: sb.url, VIGIL_TOKEN: account.token } });

interface Row {
  step: string;
  seconds: number;
  reads: number;
  writes: number;
  statuses: Record<string, number>;
  starts: number;
  startupMs: number[];
}

/** Runs one terraform command with fresh stats and a fresh provider log, and measures it. */
async function measure(step: string, expectedCode: number, ...args: string[]): Promise<Row> {
  const log = join(ws.root, `${args[0]}.log`);
  ws.env.TF_LOG_PROVIDER = "debug";
  ws.env.TF_LOG_PATH = log;
  const { seconds, reads, writes, statuses } = await countCalls(sb.admin, async () => {
    const run = await ws.run(dir, ...args);
    if (run.code !== expectedCode) throw new Error(described(run));
  });
  const { starts, startupMs } = providerStarts(await readFile(log, "utf8"));
  await rm(log);
  return { step, seconds, reads, writes, statuses, starts, startupMs };
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

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

const dir = join(ws.root, "config");
try {
  await mkdir(dir);
  await writeFile(join(dir, "main.tf"), config);
  const init = await ws.run(dir, "init", "-input=false");
  if (init.code !== 0) throw new Error(described(init));

  const rows = [
    await measure("apply", 0, "apply", "-auto-approve", "-input=false"),
    await measure("no-op plan", 0, "plan", "-detailed-exitcode", "-input=false"),
    await measure("destroy", 0, "destroy", "-auto-approve", "-input=false"),
  ];

  const resources = monitors * 2 + 2;
  console.log(
    `terraform ${(await ws.ok(dir, "version", "-json")).stdout.match(/"terraform_version":\s*"([^"]+)"/)?.[1]}, ` +
      `${monitors} http monitors + ${monitors} alert subscriptions + 2 contacts (${resources} resources); ` +
      `sandbox account on the ${plan} plan, ` +
      (args.metered
        ? "metered (its quotas apply, and the provider paces under them)\n"
        : "unmetered (no quota window, so nothing is paced)\n"),
  );
  const header = [
    "step",
    "wall time",
    "API reads",
    "API writes",
    "statuses",
    "provider starts",
    "start-up (median)",
  ];
  const table = rows.map((r) => [
    r.step,
    `${r.seconds.toFixed(1)} s`,
    String(r.reads),
    String(r.writes),
    Object.entries(r.statuses)
      .map(([status, n]) => `${status}×${n}`)
      .join(" "),
    String(r.starts),
    `${median(r.startupMs).toFixed(0)} ms`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i]!.length)));
  for (const row of [header, widths.map((w) => "-".repeat(w)), ...table]) {
    console.log(row.map((cell, i) => cell.padEnd(widths[i]!)).join("  "));
  }
  // The client's pacer spreads a class's calls evenly over its window: one write every 60/limit seconds.
  const applyWrites = rows[0]!.writes;
  const paced = (perMinute: number) => `${(applyWrites / perMinute).toFixed(1)} min`;
  if (!args.metered)
    console.log(
      `\nOn a metered account the pacer would spread the apply's ${applyWrites} writes evenly: about ` +
        `${paced(30)} under Business quotas (30 writes a minute), ${paced(60)} under Enterprise (60 a minute).`,
    );
} finally {
  await ws.remove();
  await sb.close();
}
