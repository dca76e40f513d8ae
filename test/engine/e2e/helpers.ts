import { VigilClient } from "../../../src/api/client.ts";
import { operations } from "../../../src/api/operations.ts";
import type { Pacer } from "../../../src/api/types.ts";
import { quickTime } from "../../api/caller.ts";
import type { TestSandbox } from "../../helpers/sandbox.ts";

/** Test accounts are unmetered: nothing to pace. */
const noPacing: Pacer = { acquire: async () => {}, observe: () => {} };

/** A fresh account of the sandbox and the engine's view of it: typed operations over the real client. */
export async function engineAccount(sb: TestSandbox, options: Parameters<TestSandbox["account"]>[0] = {}) {
  const account = await sb.account({ plan: "enterprise", ...options });
  const client = new VigilClient({
    baseUrl: sb.url,
    token: account.token,
    pacer: noPacing,
    time: quickTime(50),
  });
  return { account, client, ops: operations(client), time: quickTime(50) };
}
