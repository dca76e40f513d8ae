import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { create, httpMonitor, refusal } from "./fixtures.ts";

/** Credentials in settings: who reads them in full, and how writes keep, replace or clear them. */
let sb: TestSandbox;
let acct: Awaited<ReturnType<TestSandbox["account"]>>;
let viewer: string;
let editor: string;
beforeAll(async () => {
  sb = await startTestSandbox();
  acct = await sb.account();
  const mint = async (login: string, rights: string[]) => {
    const res = await sb.mint({ accountId: acct.accountId, scopes: ["monitor"], member: { login, rights } });
    expect(res.status, res.text).toBe(201);
    return res.body.token as string;
  };
  viewer = await mint("viewer@example.com", ["monitor:read"]);
  editor = await mint("editor@example.com", ["monitor:read", "monitor:write"]);
});
afterAll(() => sb.close());

/**
 * Each moment a test compares with is set, not read: a set clock starts at the second's very beginning, so the
 * write that follows lands in it even on a loaded machine.
 */
async function moment(ahead: number): Promise<number> {
  return sb.setClock((await sb.advance(0)) + ahead);
}

async function withPassword() {
  const created = await moment(1);
  const body = await create(acct, httpMonitor({ settings: { username: "probe", password: "s3cret" } }));
  return { id: body.id as string, created };
}

describe("reading credentials", () => {
  it("the owner reads them in full, on create and on GET", async () => {
    const body = await create(acct, httpMonitor({ settings: { username: "probe", password: "s3cret" } }));
    expect(body.settings).toMatchObject({ username: "probe", password: "s3cret" });
    expect((await acct.get(`/monitor/${body.id}`)).body.settings.password).toBe("s3cret");
  });

  it("a member with edit rights reads them in full", async () => {
    const { id } = await withPassword();
    expect((await acct.get(`/monitor/${id}`, { token: editor })).body.settings.password).toBe("s3cret");
  });

  it("a member without monitor:write sees {set: true, updatedAt}, in single reads and list rows", async () => {
    const { id, created } = await withPassword();
    const read = await acct.get(`/monitor/${id}`, { token: viewer });
    expect(read.status).toBe(200);
    expect(read.body.settings.password).toEqual({ set: true, updatedAt: created });
    expect(read.body.settings.username).toBe("probe");
    const list = await acct.get(`/monitor?expand=settings&limit=500`, { token: viewer });
    const row = list.body.data.find((m: { id: string }) => m.id === id);
    expect(row.settings.password).toEqual({ set: true, updatedAt: created });
  });

  it("an absent credential is absent for everyone", async () => {
    const body = await create(acct, httpMonitor());
    expect((await acct.get(`/monitor/${body.id}`, { token: viewer })).body.settings).not.toHaveProperty(
      "password",
    );
  });
});

describe("private-probe credentials", () => {
  it("connection strings, community strings and keys are masked like passwords", async () => {
    const enterprise = await sb.account({ plan: "enterprise" });
    const member = await sb.mint({
      accountId: enterprise.accountId,
      scopes: ["monitor:read"],
      member: { login: "reader@example.com", rights: ["monitor:read"] },
    });
    const at = await moment(1);
    const db = await create(enterprise, {
      type: "database",
      settings: { engine: "postgres", connectionString: "postgres://u:p@db.internal/app" },
    });
    const snmp = await create(enterprise, { type: "snmp", settings: { community: "public", authKey: "k1" } });
    expect(db.settings.connectionString).toBe("postgres://u:p@db.internal/app");
    const token = member.body.token as string;
    expect((await enterprise.get(`/monitor/${db.id}`, { token })).body.settings).toEqual({
      engine: "postgres",
      connectionString: { set: true, updatedAt: at },
    });
    expect((await enterprise.get(`/monitor/${snmp.id}`, { token })).body.settings).toEqual({
      community: { set: true, updatedAt: at },
      authKey: { set: true, updatedAt: at },
    });
    const masked = await enterprise.patch(`/monitor/${snmp.id}`, {
      settings: { community: { set: true, updatedAt: at } },
    });
    expect(refusal(masked)).toEqual({
      status: 422,
      code: "credential_write_only",
      errors: [{ pointer: "/settings/community", reason: "masked_value_sent" }],
    });
  });
});

describe("writing credentials", () => {
  it("a PATCH without the credential keeps it and its updatedAt", async () => {
    const { id, created } = await withPassword();
    await sb.advance(60);
    const res = await acct.patch(`/monitor/${id}`, { settings: { timeout: 5000 } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.settings.password).toBe("s3cret");
    expect((await acct.get(`/monitor/${id}`, { token: viewer })).body.settings.password).toEqual({
      set: true,
      updatedAt: created,
    });
  });

  it("a new value replaces it and moves updatedAt", async () => {
    const { id } = await withPassword();
    const later = await moment(120);
    const res = await acct.patch(`/monitor/${id}`, { settings: { password: "n3w" } });
    expect(res.body.settings.password).toBe("n3w");
    expect((await acct.get(`/monitor/${id}`, { token: viewer })).body.settings.password).toEqual({
      set: true,
      updatedAt: later,
    });
  });

  it("the same value sent again keeps its updatedAt and changes nothing", async () => {
    const { id, created } = await withPassword();
    const before = (await acct.get(`/monitor/${id}`)).body;
    await sb.advance(60);
    const res = await acct.patch(`/monitor/${id}`, { settings: { password: "s3cret" } });
    expect(res.body).toEqual(before);
    expect((await acct.get(`/monitor/${id}`, { token: viewer })).body.settings.password).toEqual({
      set: true,
      updatedAt: created,
    });
  });

  it("null clears it", async () => {
    const { id } = await withPassword();
    const res = await acct.patch(`/monitor/${id}`, { settings: { password: null } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.settings).not.toHaveProperty("password");
    expect((await acct.get(`/monitor/${id}`, { token: viewer })).body.settings).not.toHaveProperty(
      "password",
    );
  });

  it("sending the masked object back answers 422 credential_write_only and changes nothing", async () => {
    const { id } = await withPassword();
    const masked = (await acct.get(`/monitor/${id}`, { token: viewer })).body.settings.password;
    const res = await acct.patch(`/monitor/${id}`, { settings: { password: masked, timeout: 1234 } });
    expect(refusal(res)).toEqual({
      status: 422,
      code: "credential_write_only",
      errors: [{ pointer: "/settings/password", reason: "masked_value_sent" }],
    });
    const after = (await acct.get(`/monitor/${id}`)).body.settings;
    expect(after).toMatchObject({ password: "s3cret", timeout: 40000 });
  });

  it("the masked object is refused on create too", async () => {
    const res = await acct.post(
      "/monitor",
      httpMonitor({ settings: { password: { set: true, updatedAt: 1 } } }),
    );
    expect(refusal(res)).toEqual({
      status: 422,
      code: "credential_write_only",
      errors: [{ pointer: "/settings/password", reason: "masked_value_sent" }],
    });
  });

  it("a viewer cannot write at all", async () => {
    const { id } = await withPassword();
    const res = await acct.patch(`/monitor/${id}`, { settings: { password: "x" } }, { token: viewer });
    expect(refusal(res)).toEqual({
      status: 403,
      code: "insufficient_rights",
      errors: [{ required: "monitor:write", granted: ["monitor:read"] }],
    });
  });
});
