import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

/** Shared-access member tokens: the scope must be granted and the member must hold the matching right. */
let sb: TestSandbox;
let acct: Client & { accountId: string };
beforeAll(async () => {
  sb = await startTestSandbox();
  acct = await sb.account();
});
afterAll(() => sb.close());

async function memberToken(login: string, rights: string[], scopes = ["account", "monitor"]) {
  const res = await sb.mint({ accountId: acct.accountId, scopes, member: { login, rights } });
  expect(res.status, res.text).toBe(201);
  return res.body.token as string;
}

describe("insufficient_rights", () => {
  it("refuses a write the member has no right to, with {required, granted}", async () => {
    const token = await memberToken("viewer@example.com", ["monitor:read"]);
    const res = await acct.patch("/account", { name: "x" }, { token });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: "insufficient_rights", status: 403 });
    expect(res.body.errors).toEqual([{ required: "profile:write", granted: ["monitor:read"] }]);
  });

  it("admits the same write once the member holds the right", async () => {
    const token = await memberToken("editor@example.com", ["profile:write"]);
    const res = await acct.patch("/account", { name: "Edited by member" }, { token });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe("Edited by member");
  });

  it("checks the scope first: a missing scope answers missing_scope even when the right is also missing", async () => {
    const token = await memberToken("narrow@example.com", [], ["account:read"]);
    const res = await acct.patch("/account", { name: "x" }, { token });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("missing_scope");
  });

  it("an empty rights list is reported as an empty array", async () => {
    const token = await memberToken("nobody@example.com", []);
    const res = await acct.patch("/account", { name: "x" }, { token });
    expect(res.status).toBe(403);
    expect(res.body.errors).toEqual([{ required: "profile:write", granted: [] }]);
  });

  it("reads that need no member right stay open to any member", async () => {
    const token = await memberToken("reader@example.com", []);
    expect((await acct.get("/account", { token })).status).toBe(200);
  });

  it("a later mint for the same login replaces the member's rights, and the member is listed", async () => {
    const first = await memberToken("changing@example.com", []);
    expect((await acct.patch("/account", { name: "a" }, { token: first })).status).toBe(403);
    await memberToken("changing@example.com", ["profile:write"]);
    // Rights live on the account, not in the token: the first token now carries the new rights.
    expect((await acct.patch("/account", { name: "b" }, { token: first })).status).toBe(200);
    const members = (await acct.get("/account/member")).body.data;
    const entry = members.filter((m: { login: string }) => m.login === "changing@example.com");
    expect(entry).toHaveLength(1);
    expect(entry[0].rights).toEqual(["profile:write"]);
  });

  it("the mint refuses rights that do not exist", async () => {
    const res = await sb.mint({
      accountId: acct.accountId,
      scopes: ["account"],
      member: { login: "x@example.com", rights: ["profile:admin"] },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("ValidationError");
  });
});
