/**
 * Where a command's API calls go: an endpoint and token (flags or
 * VIGIL_ENDPOINT / VIGIL_TOKEN), or `--sandbox`, an embedded sandbox kept in
 * `.vigil/sandbox.json`. The typed client is the only thing that speaks HTTP.
 */
import { mkdir } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import {
  bursts,
  type CallWatcher,
  type Operations,
  openApiSession,
  type Pacer,
  type RetryEvent,
  type VigilClient,
} from "../api/index.ts";
import { DurationError, type DurationRules, parseDuration } from "../duration.ts";
import {
  FileStateStore,
  isPostgresUrl,
  parsePostgresUrl,
  type State,
  type StateBackend,
  type StoreOptions,
} from "../engine/index.ts";
import {
  type ConnectionSetting,
  type ConnectionValues,
  connectionSettings,
  endpointSetting,
  missingSetting,
} from "../kinds/connection.ts";
import { CliError } from "./errors.ts";
import { releaseOnInterrupt } from "./interrupt.ts";
import { guardOutput, stateUrlPassword } from "./output-guard.ts";
import { configDirOf, describeSandboxState, sandboxStateOf, sandboxStates } from "./sandbox-states.ts";

export interface ConnectionOptions extends StateOptions {
  endpoint?: string;
  token?: string;
  sandbox?: boolean;
}

/**
 * The state's default place. The embedded sandbox has its own, so a sandbox run in a GitOps repo never
 * writes the state that repo commits for its real account; and each configuration has its own sandbox
 * state (sandbox-states.ts), so planning another repository never reads this one's.
 */
export function statePath(options: Pick<StateOptions, "state" | "sandbox" | "configPaths">): string {
  // `||`: an empty VIGIL_STATE (a CI secret left unset) means the default, not a file named "".
  if (options.state) return options.state;
  return options.sandbox
    ? sandboxStateOf(vigilDir, configDirOf(options.configPaths))
    : `${vigilDir}/state.json`;
}

/**
 * For a command that reads no configuration (`vigil state ...`, `output`, `destroy` without paths): with
 * `--sandbox` and no `--state`, the working directory's sandbox state, or else the only other one kept
 * here (said on stderr); with several and none of this directory, a refusal naming each.
 */
export function chooseSandboxState(options: StateOptions): void {
  if (!options.sandbox || options.state || options.configPaths) return;
  const states = sandboxStates(vigilDir);
  if (states.length === 0 || states[0]!.configDir === ".") return;
  if (states.length === 1) {
    options.state = states[0]!.path;
    process.stderr.write(
      `Note: the sandbox state of ${describeSandboxState(states[0]!)}, the only one here.\n`,
    );
    return;
  }
  throw new CliError(
    `This directory's configuration has no sandbox state (${statePath({ sandbox: true })}), and several others do:\n${states.map((s) => `  ${describeSandboxState(s)}`).join("\n")}\nChoose one with --state FILE (the file in parentheses).`,
  );
}

export interface Connection {
  client: VigilClient;
  ops: Operations;
  /** `https://api.example.com` or `the embedded sandbox (.vigil/sandbox.json)`. */
  description: string;
  close(): Promise<void>;
}

/** The directory `--sandbox` keeps its data in: beside the default state. */
export const vigilDir = ".vigil";

/** A command's session: the CLI's burst, each retry said on stderr, primed. */
async function session(
  baseUrl: string,
  token: string,
  pacer?: Pacer,
  watch?: CallWatcher,
): Promise<{ client: VigilClient; ops: Operations }> {
  const s = openApiSession({
    baseUrl,
    token,
    burst: bursts.command,
    ...(pacer && { pacer }),
    ...(watch && { watch }),
    // A refused connection is said at once, then each retry: never a silent wait.
    onRetry: (event) => process.stderr.write(`${retryLine(event, baseUrl)}\n`),
  });
  // Learns the account's quotas (a call that spends none), so the first calls need not go one at a time.
  await s.client.prime();
  return s;
}

/**
 * `Cannot reach the API at http://localhost:1 (GET /account: connect ECONNREFUSED 127.0.0.1:1); retry 1 of 7
 * in 0.2 s.` or `GET /monitor answered 503 service_unavailable; retry 2 of 7 in 1.4 s.`
 */
function retryLine(event: RetryEvent, baseUrl: string): string {
  const next = `retry ${event.attempt} of ${event.attempts - 1} in ${(event.waitMs / 1000).toFixed(1)} s.`;
  if (typeof event.reason === "number")
    return `${event.route} answered ${event.reason} ${event.detail}; ${next}`;
  const what = event.reason === "timeout" ? "timed out" : event.detail;
  return `Cannot reach the API at ${baseUrl} (${event.route}: ${what}); ${next}`;
}

/**
 * `pacer`: a long-running command's own pacing (`vigil watch` keeps to a share of the quota);
 * `watch`: sees every call the engine makes and every wait for quota.
 */
export async function connect(
  options: ConnectionOptions,
  env = process.env,
  pacer?: Pacer,
  watch?: CallWatcher,
): Promise<Connection> {
  if (options.sandbox) {
    // Loaded only when asked for: the sandbox is half of the CLI's start-up time.
    const { openEmbeddedSandbox } = await import("./embedded-sandbox.ts");
    const sandbox = await openEmbeddedSandbox(resolve(vigilDir));
    const { client: c, ops } = await session(sandbox.url, sandbox.token, pacer, watch).catch(
      async (error) => {
        await sandbox.close();
        throw error;
      },
    );
    return {
      client: c,
      ops,
      description: `the embedded sandbox (${vigilDir}/sandbox.json)`,
      close: async () => {
        await c.close();
        await sandbox.close();
      },
    };
  }
  const settings = apiSettings(options, env);
  // Before a refusal can quote it (the token given where the endpoint goes).
  guardOutput(settings.token);
  const { endpoint, token } = judgedApiSettings(settings);
  const { client: c, ops } = await session(endpoint, token, pacer, watch);
  return { client: c, ops, description: endpoint, close: () => c.close() };
}

/** `--endpoint`, `--token`: a connection setting's flag (kinds/connection.ts). */
export const settingFlag = (setting: ConnectionSetting) => `--${setting.name}`;

/** The endpoint and token from the flags, else the environment; either missing is refused, saying where to set it. */
function apiSettings(
  options: Pick<ConnectionOptions, "endpoint" | "token">,
  env: NodeJS.ProcessEnv,
): ConnectionValues {
  const pick = (setting: ConnectionSetting): string => {
    const value = options[setting.name] ?? env[setting.environment];
    if (value) return value;
    // Without an endpoint, the embedded sandbox is the other way to run.
    const instead = setting === endpointSetting ? " (or use --sandbox)" : "";
    throw new CliError(
      `${missingSetting(setting)}: pass ${settingFlag(setting)} ${setting.flag.value.toUpperCase()} or set ${setting.environment}${instead}.`,
    );
  };
  return Object.fromEntries(connectionSettings.map((s) => [s.name, pick(s)])) as ConnectionValues;
}

/** The settings, each judged by its rule (kinds/connection.ts): `--endpoint must be an http(s) URL, …`. */
export function judgedApiSettings(settings: ConnectionValues): ConnectionValues {
  for (const setting of connectionSettings) {
    const refusal = setting.refusal(settings[setting.name]);
    if (refusal) throw new CliError(`${settingFlag(setting)} ${refusal}.`);
  }
  return settings;
}

/** Where the state is kept and how its lock is waited for: `--state`, `--workspace`, `--lock-timeout`, `--keep-versions`. */
export interface StateOptions {
  /** A file path or a `postgres://` URL; by default `statePath(sandbox)`. */
  state?: string;
  sandbox?: boolean;
  /** The paths of the configuration the command reads, if it reads one: whose `--sandbox` state is the default. */
  configPaths?: readonly string[];
  workspace?: string;
  /** Milliseconds (parsed by `parseLockTimeout`). */
  lockTimeout?: number;
  keepVersions?: number;
}

/**
 * `--state`: a file path, or a PostgreSQL URL read at once, so that a malformed URL is refused before
 * anything is read from the files or the API (the message never quotes its password).
 */
export function parseStateLocation(text: string): string {
  if (isPostgresUrl(text)) parsePostgresUrl(text);
  return text;
}

/** The default wait for a lock another run holds. */
export const defaultLockTimeout = "5m";

/** `--lock-timeout`: `300` (seconds), `90s`, `5m`, `1m30s`, `500ms`, `0` (do not wait), in milliseconds. */
export function parseLockTimeout(text: string): number {
  return cliDuration(text, { name: "--lock-timeout", zero: "do not wait" });
}

/** A flag's duration (src/duration.ts), refused as a CLI error that says what the flag takes. */
export function cliDuration(text: string, rules: DurationRules): number {
  try {
    return parseDuration(text, rules);
  } catch (error) {
    if (error instanceof DurationError) throw new CliError(error.message);
    throw error;
  }
}

export function parseKeepVersions(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1 || n > 1_000_000)
    throw new CliError(`--keep-versions takes a whole number from 1 to 1000000, not ${JSON.stringify(text)}`);
  return n;
}

/**
 * The state's store: PostgreSQL for a `postgres://` URL (the driver loads only
 * then), the file store otherwise. `operation` is recorded in the lock it takes.
 */
export async function stateStore(options: StateOptions, operation: string): Promise<StateBackend> {
  const where = statePath(options);
  const storeOptions: StoreOptions = {
    operation,
    lockTimeoutMs: options.lockTimeout ?? parseLockTimeout(defaultLockTimeout),
    ...(options.workspace && { workspace: options.workspace }),
    ...(options.keepVersions !== undefined && { keepVersions: options.keepVersions }),
    onWaiting: (message) => process.stderr.write(`Waiting: ${message}\n`),
    onWarning: (message) => process.stderr.write(`Warning: ${message}\n`),
  };
  if (isPostgresUrl(where)) {
    for (const password of stateUrlPassword(where)) guardOutput(password);
    const { PostgresStateStore } = await import("../engine/state/postgres-store.ts");
    return new PostgresStateStore(where, storeOptions);
  }
  await mkdir(dirname(resolve(where)), { recursive: true });
  return new FileStateStore(where, storeOptions);
}

/**
 * Runs `fn` with the state's store, and always closes it (a database connection). Ctrl+C releases the lock
 * a run holds and closes the store too (interrupt.ts), so no one has to wait for the lock's lease to end.
 */
export async function withStateStore<T>(
  options: StateOptions,
  operation: string,
  fn: (store: StateBackend) => Promise<T>,
): Promise<T> {
  const store = await stateStore(options, operation);
  const forget = releaseOnInterrupt(() => store.close());
  try {
    return await fn(releasingLocksOnInterrupt(store));
  } finally {
    forget();
    await store.close();
  }
}

/** The store, its locks released by Ctrl+C while they are held. */
function releasingLocksOnInterrupt(store: StateBackend): StateBackend {
  const take = store.lock.bind(store);
  store.lock = async () => {
    const lock = await take();
    const forget = releaseOnInterrupt(() => lock.release());
    return {
      ...lock,
      release: async () => {
        forget();
        await lock.release();
      },
    };
  };
  return store;
}

/** The saved state without taking the lock: a refusal before connecting, `vigil output`. */
export async function readSavedState(options: StateOptions, operation: string): Promise<State | undefined> {
  return withStateStore(options, operation, (store) => store.read());
}

/**
 * Where a run keeps its local files beside the state (credentials the service generated, the
 * watcher's record): the state file itself, or `.vigil/postgres-state.json` when the state is in
 * PostgreSQL, since those files stay on the machine that made them. A workspace other than
 * `default` gets its own name, so two workspaces never share one.
 */
export function localStateBase(options: StateOptions): string {
  const where = statePath(options);
  const base = isPostgresUrl(where) ? `${vigilDir}/postgres-state.json` : where;
  const workspace = options.workspace ?? "default";
  return workspace === "default" ? base : base.replace(/(\.json)?$/, `.${workspace}$1`);
}
