/**
 * `vigil state ...`: read and edit what vigil manages without calling the API
 * (list, show, rm), and manage the backend itself: workspaces, the lock,
 * history, and moving a state between backends (pull, push).
 */
import { readFile } from "node:fs/promises";
import { type Command, Option } from "commander";
import { stringify } from "yaml";
import {
  describeHolder,
  formatSummary,
  pushState,
  type State,
  type StateBackend,
  StateFileError,
  type VersionInfo,
  validateState,
  type WorkspaceInfo,
} from "../../engine/index.ts";
import { formatIsoTime } from "../../gitops/format.ts";
import { timesAsIso } from "../../gitops/present.ts";
import { chooseSandboxState, type StateOptions, vigilDir, withStateStore } from "../connection.ts";
import { CliError } from "../errors.ts";
import { sandboxStates } from "../sandbox-states.ts";
import { withStateOptions } from "./shared.ts";

/** The state, or a refusal that says where none was found (and where --sandbox runs keep theirs). */
function readState(options: StateOptions, command: string) {
  return async (store: StateBackend): Promise<State> => {
    const state = await store.read();
    if (!state) throw noState(store, options, command);
    return state;
  };
}

function noState(store: StateBackend, options: StateOptions, command: string): CliError {
  const sandboxed = !options.sandbox && !options.state && sandboxStates(vigilDir).length > 0;
  return new CliError(
    `There is no state in ${store.description}.${sandboxed ? ` Runs with --sandbox keep theirs apart: vigil ${command} --sandbox` : ""}`,
  );
}

/** An address and everything nested under it (`monitors.web` takes `monitors.web.alerts.*`). */
function addressesUnder(state: State, address: string): string[] {
  return Object.keys(state.resources).filter((a) => a === address || a.startsWith(`${address}.`));
}

function positiveInteger(flag: string) {
  return (text: string): number => {
    if (!/^\d+$/.test(text) || Number(text) < 1 || !Number.isSafeInteger(Number(text)))
      throw new CliError(`${flag} takes a whole number of at least 1, not ${JSON.stringify(text)}`);
    return Number(text);
  };
}

function nonNegativeInteger(flag: string) {
  return (text: string): number => {
    if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text)))
      throw new CliError(`${flag} takes a whole number (a serial), not ${JSON.stringify(text)}`);
    return Number(text);
  };
}

export function registerState(program: Command) {
  const state = program
    .command("state")
    .description("Read or edit the state, its history and its lock (no API calls)")
    // Which sandbox state, before any subcommand opens it: they read no configuration to tell.
    .hook("preAction", (_state, subcommand) => {
      const options = subcommand.opts<StateOptions>();
      chooseSandboxState(options);
      if (options.state !== undefined) subcommand.setOptionValue("state", options.state);
    });
  registerList(state);
  registerShow(state);
  registerRm(state);
  registerWorkspaces(state);
  registerUnlock(state);
  registerHistory(state);
  registerPull(state);
  registerPush(state);
}

/** A subcommand's state options, after its own. */
const withState = (c: Command) =>
  withStateOptions(c).option("--sandbox", "the embedded sandbox's state (its own default file)", false);

function registerList(state: Command) {
  withState(state.command("list").description("List the addresses the state manages")).action(
    async (options: StateOptions) => {
      const s = await withStateStore(options, "state list", readState(options, "state list"));
      for (const line of listLines(s)) process.stdout.write(`${line}\n`);
    },
  );
}

/** One line per address, sorted, with its kind and id (or what is pending). */
export function listLines(state: State): string[] {
  const rows = Object.entries(state.resources).sort(([a], [b]) => (a < b ? -1 : 1));
  // Both columns padded, so the ids line up whatever the kinds (monitor, alertSubscription).
  const width = Math.max(0, ...rows.map(([a]) => a.length));
  const kindWidth = Math.max(0, ...rows.map(([, r]) => r.kind.length));
  return rows.map(
    ([address, r]) =>
      `${address.padEnd(width)}  ${r.kind.padEnd(kindWidth)}  ${r.id ?? "(create pending)"}${r.pending ? `  (${r.pending.action} pending)` : ""}`,
  );
}

function registerShow(state: Command) {
  withState(
    state
      .command("show")
      .description("Show what the state holds for an address (or all of it), now or in an earlier version")
      .argument("[address]")
      .addOption(
        new Option("--version <serial>", "a version from vigil state history").argParser(
          nonNegativeInteger("--version"),
        ),
      ),
  ).action(async (address: string | undefined, options: StateOptions & { version?: number }) => {
    const s = await withStateStore(options, "state show", async (store) => {
      if (options.version === undefined) return readState(options, "state show")(store);
      const found = await store.version(options.version);
      if (!found)
        throw new CliError(
          `Version ${options.version} is not in the history of ${store.description}; vigil state history lists the versions kept.`,
        );
      return found;
    });
    // Credentials are in the state only as salted hashes; nothing secret is printed.
    process.stdout.write(
      address === undefined ? `${JSON.stringify(s, null, 2)}\n` : shownResource(s, address),
    );
  });
}

/** One address of the state for a person: times in ISO 8601, as the YAML format writes them (the state keeps Unix seconds). */
export function shownResource(state: State, address: string): string {
  const r = state.resources[address];
  if (!r) throw new CliError(`${address} is not in the state; vigil state list shows what is.`);
  return stringify({
    address,
    ...r,
    naturalKey: timesAsIso(r.kind, r.naturalKey),
    managed: timesAsIso(r.kind, r.managed),
    ...(r.pending && { pending: { ...r.pending, startedAt: formatIsoTime(r.pending.startedAt) } }),
  });
}

function registerRm(state: Command) {
  withState(
    state
      .command("rm")
      .description("Forget addresses (and what nests under them) without deleting their objects")
      .argument("<addresses...>"),
  ).action(async (addresses: string[], options: StateOptions) => {
    await withStateStore(options, "state rm", async (store) => {
      const lock = await store.lock();
      try {
        const s = await lock.read();
        if (!s) throw noState(store, options, "state rm");
        const removed = removedAddresses(s, addresses);
        for (const a of removed) delete s.resources[a];
        s.serial++;
        await lock.write(s);
        for (const a of removed)
          process.stdout.write(`Removed ${a} from the state; its object stays in the account.\n`);
      } finally {
        await lock.release();
      }
    });
  });
}

/** The addresses `state rm` forgets: each one asked for and what nests under it; all or nothing. */
export function removedAddresses(state: State, addresses: readonly string[]): string[] {
  return addresses.flatMap((a) => {
    const found = addressesUnder(state, a);
    if (found.length === 0) throw new CliError(`${a} is not in the state; nothing was removed.`);
    return found;
  });
}

function registerWorkspaces(state: Command) {
  withState(state.command("workspaces").description("List the workspaces of the backend")).action(
    async (options: StateOptions) => {
      const rows = await withStateStore(options, "state workspaces", (store) => store.workspaces());
      for (const line of workspaceLines(rows, options.workspace ?? "default"))
        process.stdout.write(`${line}\n`);
    },
  );
}

/** One line per workspace, the current one starred, with its last save and who holds its lock. */
export function workspaceLines(rows: readonly WorkspaceInfo[], current: string): string[] {
  const width = Math.max(0, ...rows.map((r) => r.name.length));
  return rows.map((r) => {
    const saved = r.serial === undefined ? "(no state yet)" : `serial ${r.serial}, saved ${r.savedAt}`;
    const locked = r.lock ? `  locked: ${describeHolder(r.lock)}` : "";
    return `${r.name === current ? "*" : " "} ${r.name.padEnd(width)}  ${saved}${locked}`;
  });
}

function registerUnlock(state: Command) {
  withState(
    state
      .command("unlock")
      .description("Force-release the workspace's lock; only the lock with this id is released")
      .argument("<lock-id>", "the id shown by the run that holds it, or by vigil state workspaces"),
  ).action(async (id: string, options: StateOptions) => {
    const holder = await withStateStore(options, "state unlock", (store) => store.unlock(id));
    process.stdout.write(`Released the lock ${id}, held by ${describeHolder(holder)}.\n`);
  });
}

function registerHistory(state: Command) {
  withState(
    state
      .command("history")
      .description("List the saved versions, newest first")
      .addOption(
        new Option("--limit <n>", "versions per page").default(20).argParser(positiveInteger("--limit")),
      )
      .addOption(
        new Option("--before <serial>", "the page of versions older than this serial").argParser(
          nonNegativeInteger("--before"),
        ),
      ),
  ).action(async (options: StateOptions & { limit: number; before?: number }) => {
    const versions = await withStateStore(options, "state history", (store) =>
      store.history({
        limit: options.limit,
        ...(options.before !== undefined && { before: options.before }),
      }),
    );
    process.stdout.write(historyText(versions, options.limit));
  });
}

/** A page of versions, two lines each, and how to ask for the next page when this one is full. */
export function historyText(versions: readonly VersionInfo[], limit: number): string {
  if (versions.length === 0) return "No versions.\n";
  const lines = versions.map((v) => {
    const by = v.holder
      ? `${v.holder.operation} by ${v.holder.user}@${v.holder.host}, lock ${v.holder.id}${v.holder.ciUrl ? `, ${v.holder.ciUrl}` : ""}`
      : "unknown run";
    return `${v.serial}  ${v.savedAt}  ${by}\n    ${formatSummary(v.summary)}\n`;
  });
  if (versions.length === limit)
    lines.push(`More: vigil state history --before ${versions.at(-1)!.serial}\n`);
  return lines.join("");
}

function registerPull(state: Command) {
  withState(
    state.command("pull").description("Print the current state as JSON (to move it to another backend)"),
  ).action(async (options: StateOptions) => {
    const s = await withStateStore(options, "state pull", readState(options, "state pull"));
    process.stdout.write(`${JSON.stringify(s, null, 2)}\n`);
  });
}

function registerPush(state: Command) {
  withState(
    state
      .command("push")
      .description("Replace the state with a file written by vigil state pull")
      .argument("<file>")
      .option("--force", "push even a state of another lineage or an older serial", false),
  ).action(async (file: string, options: StateOptions & { force: boolean }) => {
    // Validated before the lock is taken: a bad file changes nothing.
    const pushed = await readPushedState(file);
    const result = await withStateStore(options, "state push", async (store) => ({
      ...(await pushState(store, pushed, { force: options.force, source: file })),
      description: store.description,
    }));
    process.stdout.write(
      result.unchanged
        ? `${result.description} already holds this state (serial ${result.serial}); nothing was written.\n`
        : `Pushed ${file} to ${result.description} as serial ${result.serial}.\n`,
    );
  });
}

/** A file written by `vigil state pull`, read and validated. */
async function readPushedState(file: string): Promise<State> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new CliError(
      `Cannot read ${file}: ${(error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message}`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new StateFileError(file, `${file} is not valid JSON: ${(error as Error).message}`);
  }
  return validateState(value, file);
}
