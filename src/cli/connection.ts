/**
 * Where a command's API calls go: an endpoint and token (flags or
 * VIGIL_ENDPOINT / VIGIL_TOKEN), or `--sandbox`, an embedded sandbox kept in
 * `.vigil/sandbox.json`. The typed client is the only thing that speaks HTTP.
 */
import { mkdir } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { type Operations, operations, VigilClient } from "../api/index.ts";
import { FileStateStore, type StateStore } from "../engine/index.ts";
import { openEmbeddedSandbox } from "./embedded-sandbox.ts";
import { CliError } from "./errors.ts";

export interface ConnectionOptions {
  endpoint?: string;
  token?: string;
  sandbox?: boolean;
  state: string;
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

export async function connect(options: ConnectionOptions, env = process.env): Promise<Connection> {
  if (options.sandbox) {
    const sandbox = await openEmbeddedSandbox(resolve(vigilDir));
    const client = new VigilClient({ baseUrl: sandbox.url, token: sandbox.token });
    return {
      client,
      ops: operations(client),
      description: `the embedded sandbox (${vigilDir}/sandbox.json)`,
      close: async () => {
        await client.close();
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
  const client = new VigilClient({ baseUrl: endpoint, token });
  return { client, ops: operations(client), description: endpoint, close: () => client.close() };
}

/** The state file's store; its directory is created on first use. */
export async function stateStore(path: string, command: string): Promise<StateStore> {
  await mkdir(dirname(resolve(path)), { recursive: true });
  return new FileStateStore(path, {
    command: `vigil ${command}`,
    onWarning: (message) => process.stderr.write(`Warning: ${message}\n`),
  });
}
