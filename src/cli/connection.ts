/**
 * Where a command's API calls go: an endpoint and token (flags or
 * VIGIL_ENDPOINT / VIGIL_TOKEN), or `--sandbox`, an embedded sandbox kept in
 * `.vigil/sandbox.json`. The typed client is the only thing that speaks HTTP.
 */
import { mkdir } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { type Operations, operations, type Pacer, QuotaPacer, VigilClient } from "../api/index.ts";
import { FileStateStore, type State, type StateStore } from "../engine/index.ts";
import { CliError } from "./errors.ts";

export interface ConnectionOptions {
  endpoint?: string;
  token?: string;
  sandbox?: boolean;
  /** The state file; by default `statePath(sandbox)`. */
  state?: string;
}

/**
 * The state's default place. The embedded sandbox has its own, so a sandbox
 * run in a GitOps repo never writes the state that repo commits for its
 * real account.
 */
export function statePath(options: { state?: string; sandbox?: boolean }): string {
  return options.state ?? `${vigilDir}/${options.sandbox ? "sandbox-state.json" : "state.json"}`;
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

/**
 * A CLI run is short and alone on its token most of the time: it may spend a
 * third of a minute's reads and writes back to back, then paces evenly. The
 * pacer still keeps every window under its limit, so this costs no 429.
 */
async function client(baseUrl: string, token: string, pacer?: Pacer): Promise<VigilClient> {
  const c = new VigilClient({
    baseUrl,
    token,
    pacer: pacer ?? new QuotaPacer({ burst: { read: 20, write: 10 } }),
  });
  // Learns the account's quotas (a call that spends none), so the first calls need not go one at a time.
  await c.prime();
  return c;
}

/** `pacer`: a long-running command's own pacing (`vigil watch` keeps to a share of the quota). */
export async function connect(
  options: ConnectionOptions,
  env = process.env,
  pacer?: Pacer,
): Promise<Connection> {
  if (options.sandbox) {
    // Loaded only when asked for: the sandbox is half of the CLI's start-up time.
    const { openEmbeddedSandbox } = await import("./embedded-sandbox.ts");
    const sandbox = await openEmbeddedSandbox(resolve(vigilDir));
    const c = await client(sandbox.url, sandbox.token, pacer).catch(async (error) => {
      await sandbox.close();
      throw error;
    });
    return {
      client: c,
      ops: operations(c),
      description: `the embedded sandbox (${vigilDir}/sandbox.json)`,
      close: async () => {
        await c.close();
        await sandbox.close();
      },
    };
  }
  const endpoint = options.endpoint ?? env.VIGIL_ENDPOINT;
  const token = options.token ?? env.VIGIL_TOKEN;
  if (!endpoint)
    throw new CliError("No API endpoint: pass --endpoint URL or set VIGIL_ENDPOINT (or use --sandbox).");
  if (!token) throw new CliError("No API token: pass --token TOKEN or set VIGIL_TOKEN.");
  if (!/^https?:\/\//.test(endpoint))
    throw new CliError(`--endpoint must be an http(s) URL, not ${JSON.stringify(endpoint)}.`);
  const c = await client(endpoint, token, pacer);
  return { client: c, ops: operations(c), description: endpoint, close: () => c.close() };
}

/** The saved state, read under the lock (undefined when there is none yet). */
export async function readSavedState(path: string, command: string): Promise<State | undefined> {
  const lock = await (await stateStore(path, command)).lock();
  try {
    return await lock.read();
  } finally {
    await lock.release();
  }
}

/** The state file's store; its directory is created on first use. */
export async function stateStore(path: string, command: string): Promise<StateStore> {
  await mkdir(dirname(resolve(path)), { recursive: true });
  return new FileStateStore(path, {
    command: `vigil ${command}`,
    onWarning: (message) => process.stderr.write(`Warning: ${message}\n`),
  });
}
