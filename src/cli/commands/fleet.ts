/**
 * `vigil fleet apply|plan|status`: many accounts at once, run by the workers (docs/fleet.md). Each account
 * is one job; each one's failure is its own, said on its line, and the exit code is 0 only when all succeed.
 */
import { type Command, Option } from "commander";
import { formatDurationMs } from "../../duration.ts";
import type { Plan } from "../../engine/index.ts";
import {
  type AccountOutcome,
  chooseAccounts,
  defaultFleetTimeoutMs,
  FleetUsageError,
  fleetStatus,
  type PendingAccount,
  runFleet,
} from "../../fleet/client.ts";
import { FleetFileError, readFleetFile } from "../../fleet/fleet-file.ts";
import type { JobResult } from "../../fleet/jobs.ts";
import { planInConfigTerms } from "../../gitops/present.ts";
import { cliDuration, parseStateLocation } from "../connection.ts";
import { CliError, exitCodes } from "../errors.ts";
import { renderPlanMarkdown } from "../render/markdown.ts";
import { fleetStateUrl } from "./worker.ts";

interface RunFlags {
  state?: string;
  accounts?: string;
  planOnly?: boolean;
  json: boolean;
  markdown?: boolean;
  timeout: string;
}

const timeoutOption = () =>
  new Option(
    "--timeout <duration>",
    `how long to wait for the results; the jobs still without one stay queued or running (exit ${exitCodes.timedOut})`,
  ).default(formatDurationMs(defaultFleetTimeoutMs));

const stateOption = () =>
  new Option("--state <url>", "postgres://user:password@host:port/db[?schema=NAME]")
    .env("VIGIL_STATE")
    .argParser(parseStateLocation);

/** `acme: 3 created, 1 updated, 0 deleted` or `acme: failed: why`. */
function accountLine({ account, result }: AccountOutcome, action: "apply" | "plan"): string {
  if (!result.ok) return `${account}: failed: ${result.message ?? "see the worker's log"}`;
  const r = result as Exclude<AccountOutcome["result"], { failed: 1; message: string }>;
  const verbs =
    action === "plan" ? ["to create", "to update", "to delete"] : ["created", "updated", "deleted"];
  return `${account}: ${r.created} ${verbs[0]}, ${r.updated} ${verbs[1]}, ${r.deleted} ${verbs[2]}`;
}

/** `acme: no result after 2s: still queued, no worker has taken it`. */
function pendingLine({ account, state, worker }: PendingAccount, waited: string): string {
  const where =
    state === "running"
      ? `still running on ${worker ?? "a worker"}`
      : "still queued, no worker has taken it (is a vigil worker running on this state?)";
  return `${account}: no result after ${waited}: ${where}`;
}

function summaryLine(
  outcomes: readonly AccountOutcome[],
  action: "apply" | "plan",
  pending: readonly PendingAccount[] = [],
): string {
  const failed = outcomes.filter((o) => !o.result.ok).length;
  const sum = (key: "created" | "updated" | "deleted") =>
    outcomes.reduce((n, o) => n + (o.result.ok ? (o.result as JobResult)[key] : 0), 0);
  const what = action === "plan" ? "Fleet plan" : "Fleet apply";
  const verbs =
    action === "plan" ? ["to create", "to update", "to delete"] : ["created", "updated", "deleted"];
  const total = outcomes.length + pending.length;
  return `${what}: ${outcomes.length - failed} of ${total} account(s) succeeded${failed > 0 ? `, ${failed} failed` : ""}${pending.length > 0 ? `, ${pending.length} without a result yet` : ""}; ${sum("created")} ${verbs[0]}, ${sum("updated")} ${verbs[1]}, ${sum("deleted")} ${verbs[2]}.`;
}

/**
 * One section per account, in the fleet file's order: its plan as `vigil plan --markdown` renders it, why it
 * failed, or that it has no result yet.
 */
export function markdownOf(
  order: readonly string[],
  outcomes: readonly AccountOutcome[],
  pending: readonly PendingAccount[],
  waited: string,
): string {
  const sections = new Map<string, string>();
  for (const p of pending) sections.set(p.account, `**No result yet:** ${pendingLine(p, waited)}\n`);
  for (const { account, result } of outcomes) {
    const plan = (result as { plan?: Plan }).plan;
    sections.set(
      account,
      !result.ok
        ? `**Failed:** ${result.message ?? ""}\n`
        : plan
          ? renderPlanMarkdown(planInConfigTerms(plan), { maxLength: 20_000 })
          : "No plan.\n",
    );
  }
  const parts = order.flatMap((account) => {
    const section = sections.get(account);
    return section === undefined ? [] : [`## ${account}\n\n${section}`];
  });
  return `${parts.join("\n")}\n${summaryLine(outcomes, "plan", pending)}\n`;
}

async function runCommand(file: string, flags: RunFlags, action: "apply" | "plan"): Promise<void> {
  const command = `fleet ${action}`;
  if (flags.json && flags.markdown) throw new CliError("--json and --markdown cannot be used together.");
  const stateUrl = fleetStateUrl(flags.state, command);
  const timeoutMs = cliDuration(flags.timeout, { name: "--timeout", minMs: 1000 });
  const waited = formatDurationMs(timeoutMs);
  let fleet: Awaited<ReturnType<typeof readFleetFile>>;
  try {
    fleet = await readFleetFile(file);
  } catch (error) {
    if (error instanceof FleetFileError) throw new CliError(error.message);
    throw error;
  }
  let accounts: ReturnType<typeof chooseAccounts>;
  try {
    accounts = chooseAccounts(
      fleet,
      flags.accounts
        ?.split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    );
  } catch (error) {
    if (error instanceof FleetUsageError) throw new CliError(error.message);
    throw error;
  }
  const plain = !flags.json && !flags.markdown;
  const { outcomes, pending } = await runFleet(stateUrl, fleet, accounts, action, {
    timeoutMs,
    ...(plain && { onResult: (o: AccountOutcome) => process.stdout.write(`${accountLine(o, action)}\n`) }),
  });
  if (flags.json) {
    process.stdout.write(
      `${JSON.stringify(
        {
          accounts: outcomes.map(({ result }) => (action === "apply" ? withoutPlan(result) : result)),
          succeeded: outcomes.filter((o) => o.result.ok).length,
          failed: outcomes.filter((o) => !o.result.ok).length,
          pending,
        },
        null,
        2,
      )}\n`,
    );
  } else if (flags.markdown)
    process.stdout.write(
      markdownOf(
        accounts.map((a) => a.name),
        outcomes,
        pending,
        waited,
      ),
    );
  else {
    for (const p of pending) process.stdout.write(`${pendingLine(p, waited)}\n`);
    process.stdout.write(`${summaryLine(outcomes, action, pending)}\n`);
  }
  if (pending.length > 0) {
    // Stopping the wait cancels nothing: the jobs are the workers' now, and their results land in the record.
    process.stderr.write(
      `Error: --timeout ${waited} passed with ${pending.length} account(s) without a result (${pending.map((p) => p.account).join(", ")}). Their jobs stay on the queue and a worker runs them; vigil fleet status shows their results.\n`,
    );
    process.exitCode = exitCodes.timedOut;
  } else if (outcomes.some((o) => !o.result.ok)) process.exitCode = exitCodes.error;
}

const withoutPlan = <T extends object>(result: T) => {
  const { plan: _plan, ...rest } = result as T & { plan?: unknown };
  return rest;
};

export function registerFleet(program: Command) {
  const fleet = program
    .command("fleet")
    .description("Plan, apply and watch many accounts, run by vigil workers");
  fleet
    .command("apply")
    .description("Apply every account of the fleet file (one job each), and wait for the results")
    .argument("<fleet-file>", "the fleet file (docs/fleet.md)")
    .addOption(stateOption())
    .option("--accounts <names>", "only these accounts, comma-separated")
    .option("--plan-only", "plan instead of applying (as vigil fleet plan)", false)
    .addOption(timeoutOption())
    .option("--json", "print the per-account results as JSON", false)
    .action((file: string, flags: RunFlags) => runCommand(file, flags, flags.planOnly ? "plan" : "apply"));
  fleet
    .command("plan")
    .description("Show what apply would change in every account of the fleet file, changing nothing")
    .argument("<fleet-file>", "the fleet file (docs/fleet.md)")
    .addOption(stateOption())
    .option("--accounts <names>", "only these accounts, comma-separated")
    .option("--json", "print the per-account results, with their plans, as JSON", false)
    .option("--markdown", "print one plan per account for a pull-request comment", false)
    .addOption(timeoutOption())
    .action((file: string, flags: RunFlags) => runCommand(file, flags, "plan"));
  fleet
    .command("status")
    .description("Per account: the last apply, the last drift check, the worker on it, the queue's lag")
    .addOption(stateOption())
    .option("--json", "print it as JSON", false)
    .action(async (flags: { state?: string; json: boolean }) => {
      const statuses = await fleetStatus(fleetStateUrl(flags.state, "fleet status"));
      if (flags.json) {
        process.stdout.write(`${JSON.stringify({ accounts: statuses }, null, 2)}\n`);
        return;
      }
      if (statuses.length === 0) {
        process.stdout.write("No account has run in this fleet yet (vigil fleet apply enqueues them).\n");
        return;
      }
      for (const s of statuses) {
        const apply = s.lastApply
          ? `last apply ${s.lastApply.finishedAt} ${s.lastApply.ok ? `ok (+${s.lastApply.created} ~${s.lastApply.updated} -${s.lastApply.deleted})` : `failed: ${firstLine(s.lastApply.message)}`}`
          : "never applied";
        const drift = s.lastDrift
          ? `last drift check ${s.lastDrift.finishedAt}: ${s.lastDrift.ok ? driftedText(s.lastDrift) : `failed: ${firstLine(s.lastDrift.message)}`}`
          : "no drift check";
        const on = s.holder ? `held by ${s.holder}` : s.runningOn ? `running on ${s.runningOn}` : "idle";
        const lag =
          s.queued > 0
            ? `${s.queued} queued, oldest ${Math.round(s.queueLagSeconds ?? 0)} s`
            : "nothing queued";
        process.stdout.write(`${s.account}: ${apply}; ${drift}; ${on}; ${lag}\n`);
      }
    });
}

/** `2 drifted (monitors.web, monitors.api)`, or `0 drifted`. */
function driftedText({ changes = 0, drifted = [] }: JobResult): string {
  if (drifted.length === 0) return `${changes} drifted`;
  return `${changes} drifted (${drifted.join(", ")}${changes > drifted.length ? ", …" : ""})`;
}

const firstLine = (text: string | undefined) => (text ?? "").split("\n")[0];
