// The set-up of the http settings tests (settings-http*.test.ts).
import { afterAll, beforeAll } from "vitest";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { httpMonitor } from "./fixtures.ts";

/** The calling file's sandbox and accounts, started by useSandbox. */
let sb: TestSandbox;
export let business: Awaited<ReturnType<TestSandbox["account"]>>;
export let trial: Awaited<ReturnType<TestSandbox["account"]>>;
export let enterprise: Awaited<ReturnType<TestSandbox["account"]>>;

export const withSettings = (settings: Record<string, unknown>) => httpMonitor({ settings });
export const post = (client: typeof business, settings: Record<string, unknown>) =>
  client.post("/monitor", withSettings(settings));

/** One sandbox for the calling test file, with a business, a trial and an enterprise account, closed with it. */
export function useSandbox(): void {
  beforeAll(async () => {
    sb = await startTestSandbox();
    business = await sb.account();
    trial = await sb.account({ plan: "trial" });
    enterprise = await sb.account({ plan: "enterprise" });
  });
  afterAll(() => sb.close());
}
