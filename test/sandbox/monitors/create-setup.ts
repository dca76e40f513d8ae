// The set-up of the POST /monitor tests (create-answer.test.ts, create-and-url.test.ts).
import { afterAll, beforeAll } from "vitest";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";

/** The calling file's sandbox and accounts, started by useSandbox. */
export let sb: TestSandbox;
export let acct: Awaited<ReturnType<TestSandbox["account"]>>;
export let enterprise: Awaited<ReturnType<TestSandbox["account"]>>;

/** One sandbox for the calling test file, with a business and an enterprise account, closed with it. */
export function useSandbox(): void {
  beforeAll(async () => {
    sb = await startTestSandbox();
    acct = await sb.account();
    enterprise = await sb.account({ plan: "enterprise" });
  });
  afterAll(() => sb.close());
}
