import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contact, monitor } from "../helpers/fixtures.ts";
import { Client, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

/** `POST /alert/bulk` and `POST /report/bulk`: one transaction, all or nothing. */
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

async function setup(plan?: "trial") {
  const c = await sb.account(plan ? { plan } : {});
  const [m1, m2] = [await monitor(c), await monitor(c)];
  const email = await contact(c, { type: "email", address: "bulk@example.com" });
  const http = await contact(c, { type: "http", address: "https://hooks.example.com/bulk" });
  return { c, m1, m2, email, http };
}

describe("POST /alert/bulk", () => {
  it("creates, replaces and deletes in one call", async () => {
    const { c, m1, m2, email, http } = await setup();
    const old = (await c.put(`/monitor/${m1}/alert/${email}`, { alertTypes: ["up"] })).body;
    const doomed = (await c.put(`/monitor/${m2}/alert/${http}`, { alertTypes: ["down"] })).body;
    const res = await c.post("/alert/bulk", {
      create: [
        { monitorId: m1, contactId: email, alertTypes: ["down"] },
        { monitorId: m1, contactId: http, alertTypes: ["down", "repeatedlyDown"] },
      ],
      delete: [{ monitorId: m2, contactId: http }],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.created).toEqual([
      expect.objectContaining({ id: old.id, monitorId: m1, contactId: email, alertTypes: ["down"] }),
      expect.objectContaining({ id: expect.stringMatching(/^als_/), contactId: http }),
    ]);
    expect(res.body.deleted).toEqual([
      { id: doomed.id, deleted: true, monitorId: m2, contactId: http, alertTypes: ["down"] },
    ]);
    expect((await c.get("/alert")).body.data).toHaveLength(2);
  });

  it("changes nothing when any item fails, and points at every failing item", async () => {
    const { c, m1, m2, email, http } = await setup();
    const ghost = randomUUID();
    const res = await c.post("/alert/bulk", {
      create: [
        { monitorId: m1, contactId: email, alertTypes: ["down"] },
        { monitorId: ghost, contactId: http, alertTypes: ["down"] },
        { monitorId: m1, contactId: ghost, alertTypes: ["down"] },
        { monitorId: m1, contactId: email, alertTypes: ["up"] },
      ],
      delete: [
        { monitorId: m2, contactId: email },
        { monitorId: m1, contactId: email },
      ],
    });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("validation_failed");
    expect(res.body.errors).toEqual([
      expect.objectContaining({ pointer: "/create/1/monitorId", value: ghost, reason: "unknown_monitor" }),
      expect.objectContaining({ pointer: "/create/2/contactId", value: ghost, reason: "unknown_contact" }),
      expect.objectContaining({ pointer: "/create/3", reason: "duplicate" }),
      expect.objectContaining({ pointer: "/delete/0", reason: "not_subscribed" }),
      expect.objectContaining({ pointer: "/delete/1", reason: "not_subscribed" }),
      expect.objectContaining({ pointer: "/delete/1", reason: "conflict" }),
    ]);
    expect((await c.get("/alert")).body.data).toEqual([]);
  });

  it("validates item shapes with pointers into the body", async () => {
    const { c, m1 } = await setup();
    const res = await c.post("/alert/bulk", {
      create: [{ monitorId: m1, contactId: "not-a-guid", alertTypes: ["down"] }, { monitorId: m1 }],
      remove: [],
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ pointer: "/create/0/contactId", reason: "invalid_format" }),
        expect.objectContaining({ pointer: "/create/1/contactId", reason: "required" }),
        expect.objectContaining({ pointer: "/create/1/alertTypes", reason: "required" }),
        expect.objectContaining({
          pointer: "/remove",
          reason: "unknown_member",
          allowed: ["create", "delete"],
        }),
      ]),
    );
  });

  it("needs monitor:write and contact:write (body checked first)", async () => {
    const { c, m1, email } = await setup();
    const account = (c as Client & { accountId: string }).accountId;
    const minted = await sb.mint({ accountId: account, scopes: ["monitor:write"] });
    const narrow = new Client(c.url, minted.body.token);
    const body = { create: [{ monitorId: m1, contactId: email, alertTypes: ["down"] }] };
    const res = await narrow.post("/alert/bulk", body);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("missing_scope");
    expect(res.body.errors[0]).toEqual({ required: "contact:write", granted: ["monitor:write"] });
    const invalid = await narrow.post("/alert/bulk", { create: [{}] });
    expect(invalid.status).toBe(422);
    const both = await sb.mint({ accountId: account, scopes: ["monitor:write", "contact:write"] });
    expect((await new Client(c.url, both.body.token).post("/alert/bulk", body)).status).toBe(200);
  });

  it("refuses more items than the plan's maxBulkItems (too_many_items)", async () => {
    const { c, m1, email } = await setup("trial");
    const create = Array.from({ length: 101 }, () => ({
      monitorId: m1,
      contactId: email,
      alertTypes: ["down"],
    }));
    const res = await c.post("/alert/bulk", { create });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("too_many_items");
    expect(res.body.errors[0]).toMatchObject({ value: 101, maximum: 100 });
  });
});

describe("POST /report/bulk", () => {
  it("writes report sets for email contacts", async () => {
    const { c, m1, m2, email } = await setup();
    const res = await c.post("/report/bulk", {
      create: [
        { monitorId: m1, contactId: email, frequencies: ["weekly"] },
        { monitorId: m2, contactId: email, frequencies: ["daily", "monthly"] },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.created.map((r: { id: string }) => r.id)).toEqual([
      expect.stringMatching(/^rsub_/),
      expect.stringMatching(/^rsub_/),
    ]);
    expect(res.body.deleted).toEqual([]);
    const del = await c.post("/report/bulk", { delete: [{ monitorId: m1, contactId: email }] });
    expect(del.body.deleted).toEqual([expect.objectContaining({ monitorId: m1, frequencies: ["weekly"] })]);
    expect((await c.get("/report")).body.data).toHaveLength(1);
  });

  it("refuses a non-email contact at its item, and writes nothing", async () => {
    const { c, m1, email, http } = await setup();
    const res = await c.post("/report/bulk", {
      create: [
        { monitorId: m1, contactId: email, frequencies: ["weekly"] },
        { monitorId: m1, contactId: http, frequencies: ["weekly"] },
      ],
    });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("unsupported_report_channel");
    expect(res.body.errors[0]).toMatchObject({
      pointer: "/create/1/contactId",
      reason: "not_email",
      value: "http",
    });
    expect((await c.get("/report")).body.data).toEqual([]);
  });

  it("refuses frequencies the plan lacks at their item", async () => {
    const { c, m1, email } = await setup("trial");
    const res = await c.post("/report/bulk", {
      create: [{ monitorId: m1, contactId: email, frequencies: ["yearly"] }],
    });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: "package_limit", feature: "reportFrequencies" });
    expect(res.body.errors[0]).toMatchObject({ pointer: "/create/0/frequencies", value: ["yearly"] });
  });
});
