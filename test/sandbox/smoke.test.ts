import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

describe("sandbox start", () => {
  it("serves the default account to its owner token", async () => {
    const res = await sb.client.get("/account");
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(sb.accountId);
    expect(res.body.package.name).toBe("business");
    expect(res.headers["x-request-id"]).toMatch(/^req_/);
  });
});
