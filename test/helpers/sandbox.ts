import { Agent, request } from "undici";
import { type RunningSandbox, type SandboxOptions, startSandbox } from "../../src/sandbox/index.ts";

export interface CallOptions {
  body?: unknown;
  /** A bearer token; `null` sends none. Defaults to the client's own token. */
  token?: string | null;
  headers?: Record<string, string>;
  /** Send `body` as this raw string instead of JSON. */
  raw?: string;
  localAddress?: string;
}

export interface CallResult<T = any> {
  status: number;
  headers: Record<string, string>;
  text: string;
  body: T;
}

/**
 * `request()` ignores a per-call `localAddress`: the source address is an
 * option of the dispatcher's connections. One agent per address, shared.
 */
const agents = new Map<string, Agent>();
function agentFor(localAddress: string): Agent {
  let agent = agents.get(localAddress);
  if (!agent) {
    agent = new Agent({ localAddress });
    agents.set(localAddress, agent);
  }
  return agent;
}

/** A minimal HTTP caller bound to one token: tests talk to the sandbox over real HTTP only. */
export class Client {
  readonly url: string;
  readonly token: string;

  constructor(url: string, token: string) {
    this.url = url;
    this.token = token;
  }

  async call<T = any>(method: string, path: string, options: CallOptions = {}): Promise<CallResult<T>> {
    const headers: Record<string, string> = { ...options.headers };
    const token = options.token === undefined ? this.token : options.token;
    if (token !== null) headers.authorization = `Bearer ${token}`;
    let body: string | undefined;
    if (options.raw !== undefined) body = options.raw;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers["content-type"] ??= "application/json";
    }
    const res = await request(`${this.url}${path}`, {
      method: method as "GET",
      headers,
      body,
      ...(options.localAddress && { dispatcher: agentFor(options.localAddress) }),
    });
    const text = await res.body.text();
    const flat: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) flat[k] = Array.isArray(v) ? v.join(", ") : String(v);
    let parsed: unknown;
    try {
      parsed = text === "" ? undefined : JSON.parse(text);
    } catch {
      parsed = text;
    }
    return { status: res.statusCode, headers: flat, text, body: parsed as T };
  }

  get<T = any>(path: string, options?: CallOptions) {
    return this.call<T>("GET", path, options);
  }
  post<T = any>(path: string, body?: unknown, options?: CallOptions) {
    return this.call<T>("POST", path, { ...options, body });
  }
  patch<T = any>(path: string, body?: unknown, options?: CallOptions) {
    return this.call<T>("PATCH", path, { ...options, body });
  }
  put<T = any>(path: string, body?: unknown, options?: CallOptions) {
    return this.call<T>("PUT", path, { ...options, body });
  }
  delete<T = any>(path: string, options?: CallOptions) {
    return this.call<T>("DELETE", path, options);
  }
}

export interface TestSandbox extends RunningSandbox {
  /** Client of the default (metered, business) account. */
  client: Client;
  /** Client for `/_sandbox/` routes. */
  admin: Client;
  /** A fresh isolated account; unmetered unless `metered: true`, so resource tests never meet quotas. */
  account(options?: {
    plan?: "trial" | "business" | "enterprise";
    metered?: boolean;
    apiEnabled?: boolean;
    featureOverrides?: Record<string, number | boolean>;
  }): Promise<Client & { accountId: string }>;
  /** Mints a token with the mint's rules; answers the raw result. */
  mint(body: Record<string, unknown>): Promise<CallResult>;
  /** Moves the sandbox clock. */
  advance(seconds: number): Promise<number>;
  /**
   * Sets the sandbox clock to `at` (Unix seconds); its seconds keep ticking from there. A test that asserts an
   * exact duration sets each moment: advancing by offsets carries the real time spent between calls into it.
   */
  setClock(at: number): Promise<number>;
  outbox(): Promise<any[]>;
}

/**
 * The sandboxes started and not yet closed. Test files share a worker process (vitest.config.ts), so a
 * sandbox a file leaves running would tick on under the next files: test/setup/per-file.ts closes them
 * when the file ends, as the end of a process of its own did.
 */
export const openSandboxes = new Set<RunningSandbox>();

export async function startTestSandbox(options: SandboxOptions = {}): Promise<TestSandbox> {
  const sandbox = await startSandbox({ port: 0, ...options });
  openSandboxes.add(sandbox);
  const client = new Client(sandbox.url, sandbox.token);
  const admin = new Client(sandbox.url, sandbox.adminToken);
  return {
    ...sandbox,
    close: (closeOptions) => {
      openSandboxes.delete(sandbox);
      return sandbox.close(closeOptions);
    },
    client,
    admin,
    async account(opts = {}) {
      const res = await admin.post("/_sandbox/accounts", { metered: false, ...opts });
      if (res.status !== 201) throw new Error(`account: ${res.status} ${res.text}`);
      return Object.assign(new Client(sandbox.url, res.body.token), {
        accountId: res.body.accountId as string,
      });
    },
    mint: (body) => admin.post("/_sandbox/tokens", body),
    async advance(seconds) {
      return (await admin.post("/_sandbox/clock", { advanceSec: seconds })).body.now;
    },
    async setClock(at) {
      return (await admin.post("/_sandbox/clock", { now: at })).body.now;
    },
    async outbox() {
      return (await admin.get("/_sandbox/outbox")).body.data;
    },
  };
}
