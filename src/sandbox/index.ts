import { createApp } from "./core/app.ts";
import { purgeExpired } from "./core/idempotency.ts";
import type { PlanName } from "./core/plans.ts";
import { SandboxState } from "./core/state.ts";
import { allOperations } from "./operations.ts";
import { createAccount } from "./resources/accounts.ts";
import { mintOwnerToken } from "./resources/admin.ts";
import { backgroundTasks } from "./tasks.ts";

export interface SandboxOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** SQLite file that keeps state across restarts; in memory when absent. */
  dataFile?: string;
  /** Plan of the default account (business when absent). */
  plan?: PlanName;
  /** Lets webhooks deliver over plain http to loopback addresses (local tests only; off by default). */
  allowInsecureWebhooks?: boolean;
}

export interface RunningSandbox {
  url: string;
  /** Owner token of the default account, with every scope. */
  token: string;
  /** Authorizes the `/_sandbox/` routes. */
  adminToken: string;
  accountId: string;
  close(): Promise<void>;
}

/** Starts a sandbox in this process. Each call is an independent instance with its own state. */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const state = new SandboxState(options.dataFile, {
    allowInsecureWebhooks: options.allowInsecureWebhooks ?? false,
  });
  const now = state.clock.now();
  let accountId = state.store.meta<string>("defaultAccountId");
  if (!accountId || !state.store.get("account", accountId)) {
    accountId = createAccount(state.store, now, {
      plan: options.plan ?? "business",
      login: "owner@sandbox.test",
    }).id;
    state.store.setMeta("defaultAccountId", accountId);
  }
  // Expired idempotency records are already ignored on lookup; sweeping them keeps the store from growing.
  const sweep = () => purgeExpired(state.store, state.clock.now());
  sweep();
  const sweeper = setInterval(sweep, 10 * 60 * 1000).unref();
  const app = createApp(state, allOperations());
  const host = options.host ?? "127.0.0.1";
  state.background.start(backgroundTasks());
  try {
    await app.listen({ host, port: options.port ?? 0 });
  } catch (error) {
    // Release the data file (and its lock) when the port cannot be had.
    clearInterval(sweeper);
    await state.background.stop();
    await app.close();
    state.store.close();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  state.baseUrl = url;
  const token = mintOwnerToken(state.tokens, accountId, now, "owner");
  return {
    url,
    token,
    adminToken: state.services.adminToken,
    accountId,
    close: async () => {
      clearInterval(sweeper);
      await app.close();
      await state.background.stop();
      state.store.close();
    },
  };
}
