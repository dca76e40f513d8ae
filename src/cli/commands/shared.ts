/**
 * What the plan-making commands share: the connection and state options,
 * opening both, and turning an engine plan into output.
 */
import { type Command, Option } from "commander";
import type { ClientMetrics } from "../../api/index.ts";
import {
  assertConfigNotEmpty,
  type DesiredResource,
  type Plan,
  type StateBackend,
} from "../../engine/index.ts";
import type { LoadedConfig } from "../../gitops/load.ts";
import { planInConfigTerms } from "../../gitops/present.ts";
import { connectionSettings } from "../../kinds/connection.ts";
import {
  type Connection,
  type ConnectionOptions,
  cliDuration,
  connect,
  defaultLockTimeout,
  parseKeepVersions,
  parseLockTimeout,
  parseStateLocation,
  readSavedState,
  settingFlag,
  statePath,
  vigilDir,
  withStateStore,
} from "../connection.ts";
import { releaseOnInterrupt } from "../interrupt.ts";
import type { CallCounts } from "../render/changes.ts";
import { renderPlan } from "../render/human.ts";
import { ReadProgress } from "../render/read-progress.ts";
import { stylerFor } from "../render/style.ts";

/** `--state`, `--workspace`, `--lock-timeout` and `--keep-versions`: where the state is and how its lock is waited for. */
export function withStateOptions(command: Command): Command {
  return command
    .addOption(
      new Option(
        "--state <file-or-url>",
        `state file, or postgres://user:password@host:port/db[?schema=NAME] (default: ${statePath({})}; with --sandbox: ${statePath({ sandbox: true })} for the configuration in this directory, ${vigilDir}/sandbox-states/DIR/state.json for one in DIR)`,
      )
        .env("VIGIL_STATE")
        .argParser(parseStateLocation),
    )
    .addOption(
      new Option("--workspace <name>", "one state among many in the same backend")
        .env("VIGIL_WORKSPACE")
        .default("default"),
    )
    .addOption(
      new Option(
        "--lock-timeout <duration>",
        "how long to wait for a lock another run holds (0: do not wait)",
      )
        .env("VIGIL_LOCK_TIMEOUT")
        .default(parseLockTimeout(defaultLockTimeout), defaultLockTimeout)
        .argParser(parseLockTimeout),
    )
    .addOption(
      new Option("--keep-versions <n>", "versions of the state kept in its history (default: 100)")
        .env("VIGIL_KEEP_VERSIONS")
        .argParser(parseKeepVersions),
    );
}

/** `plan` and `apply`: the override of the mass-deletion guard (docs/cli.md, "Guards against deleting"). */
export const allowMassDeleteOption = [
  "--allow-mass-delete",
  "let the plan delete a whole kind, or most of what the state manages (refused otherwise, as a configuration given in part)",
  false,
] as const;

/**
 * An empty configuration against a state that manages objects, refused before connecting: not one call.
 * The engine refuses it too; here it also costs nothing.
 */
export async function refuseEmptyConfig(
  desired: readonly DesiredResource[],
  options: ConnectionOptions,
  command: string,
): Promise<void> {
  if (desired.length > 0) return;
  const state = await readSavedState(options, command);
  if (state) assertConfigNotEmpty(desired, state);
}

/** `--endpoint`, `--token`, `--sandbox` and the state options, on every command that talks to the API. */
export function withConnectionOptions(command: Command): Command {
  // The connection settings (kinds/connection.ts), each read from its environment variable when not given.
  for (const setting of connectionSettings)
    command.addOption(
      new Option(`${settingFlag(setting)} <${setting.flag.value}>`, setting.flag.help).env(
        setting.environment,
      ),
    );
  return withStateOptions(
    command.option("--sandbox", `run against an embedded sandbox kept in ${vigilDir}/sandbox.json`, false),
  );
}

/**
 * Runs `fn` with a connection and the state store, and always closes both (saving `--sandbox`). The
 * connection's reads show on stderr as `reading` (render/read-progress.ts).
 */
export async function withConnection<T>(
  options: ConnectionOptions,
  command: string,
  fn: (connection: Connection & { reading: ReadProgress }, store: StateBackend) => Promise<T>,
): Promise<T> {
  // The command stops `reading` before it prints to stdout; here it stops whatever happens.
  const reading = readProgress();
  try {
    const connection = await connect(options, process.env, undefined, reading);
    // Ctrl+C closes it too (and saves `--sandbox`), once the state's lock is released.
    const forget = releaseOnInterrupt(() => connection.close());
    try {
      return await withStateStore(options, command, (store) => fn({ ...connection, reading }, store));
    } finally {
      forget();
      await connection.close();
    }
  } finally {
    reading.stop();
  }
}

/** Read progress on stderr; `VIGIL_PROGRESS_EVERY` sets how often a line is printed without a terminal. */
function readProgress(env = process.env): ReadProgress {
  const every = env.VIGIL_PROGRESS_EVERY;
  return new ReadProgress({
    stream: process.stderr,
    ...(every && { everyMs: cliDuration(every, { name: "VIGIL_PROGRESS_EVERY", minMs: 1000 }) }),
  });
}

/** The calls made so far: reads (lists, gets, job polls) and writes. */
export function callCounts(metrics: ClientMetrics): CallCounts {
  const byClass = metrics.snapshot().byClass;
  return {
    reads: (byClass.read ?? 0) + (byClass.checkRead ?? 0),
    writes: (byClass.write ?? 0) + (byClass.checkWrite ?? 0),
  };
}

/** Address → `file:line`, for plan headers. */
export function sourcesOf(config: LoadedConfig | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const r of config?.resources ?? [])
    if (r.source?.file) out.set(r.address, `${r.source.file}:${r.source.line}`);
  return out;
}

export function humanPlan(
  plan: Plan,
  config: LoadedConfig | undefined,
  calls: CallCounts,
  refreshOnly = false,
) {
  return renderPlan(planInConfigTerms(plan), {
    style: stylerFor(process.stdout),
    calls,
    sources: sourcesOf(config),
    refreshOnly,
  });
}

export function planHasChanges(plan: Plan): boolean {
  return plan.actions.some((a) => a.action !== "no-op");
}

export function printNotes(notes: readonly string[]): void {
  for (const note of notes) process.stderr.write(`Note: ${note}\n`);
}
