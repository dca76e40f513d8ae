import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contact } from "../../helpers/fixtures.ts";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { key, runJob } from "./helpers.ts";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const contacts = async (c: { get: (p: string) => Promise<any> }) =>
  (await c.get("/contact?limit=500")).body.data;

describe("POST /contact/bulk: create or update by (type, address)", () => {
  it("creates new contacts, updates existing ones, skips unchanged ones and fails invalid items", async () => {
    const c = await sb.account();
    const existing = await contact(c, {
      type: "http",
      address: "https://hooks.example.com/old",
      name: "Old",
    });
    const same = await contact(c, { type: "http", address: "https://hooks.example.com/same", name: "Same" });
    const items = [
      { type: "http", address: "https://hooks.example.com/new", name: "New" },
      { type: "http", address: "https://hooks.example.com/old", name: "Renamed" },
      { type: "http", address: "https://hooks.example.com/same", name: "Same" },
      { type: "email", address: "not-an-email" },
      { type: "http", address: "https://hooks.example.com/x", colour: "red" },
      { type: "email", address: "ops@example.com" },
    ];
    const job = await runJob(c, "/contact/bulk", { items });
    expect(job.body).toMatchObject({ kind: "contact.bulkWrite", state: "partial" });
    expect(job.body.results.map((r: any) => r.status)).toEqual([
      "created",
      "updated",
      "skipped",
      "failed",
      "failed",
      "created",
    ]);
    expect(job.body.results[1]).toMatchObject({
      entityId: existing,
      itemRef: "https://hooks.example.com/old",
    });
    expect(job.body.results[2].entityId).toBe(same);
    expect(job.body.results[3].error).toMatchObject({ status: 422, code: "validation_failed" });
    expect(job.body.results[3].error.errors[0]).toMatchObject({
      pointer: "/items/3/address",
      reason: "invalid_format",
    });
    expect(job.body.results[4].error.errors[0]).toMatchObject({
      pointer: "/items/4/colour",
      reason: "unknown_member",
    });
    expect((await c.get(`/contact/${existing}`)).body.name).toBe("Renamed");
    // A new email contact starts unconfirmed and gets its code, as through POST /contact.
    const email = await c.get(`/contact/${job.body.results[5].entityId}`);
    expect(email.body.confirmed).toBe(false);
    const sent = (await sb.outbox()).filter(
      (m: any) => m.to === "ops@example.com" && m.kind === "confirmation",
    );
    expect(sent).toHaveLength(1);
    expect(await contacts(c)).toHaveLength(4);
  });

  it("validates items without writing, and refuses bad envelopes and missing keys", async () => {
    const c = await sb.account({ plan: "trial", apiEnabled: true });
    const check = await c.post("/contact/bulk-validate", {
      items: [
        { type: "http", address: "https://hooks.example.com/a" },
        { type: "fax", address: "1" },
      ],
    });
    expect(check.status).toBe(200);
    expect(check.body.valid).toBe(1);
    expect(check.body.invalid[0]).toMatchObject({ index: 1, error: { code: "validation_failed" } });
    expect(check.body.invalid[0].error.errors[0].pointer).toBe("/items/1/type");
    expect(await contacts(c)).toEqual([]);

    const noKey = await c.post("/contact/bulk", {
      items: [{ type: "http", address: "https://h.example.com" }],
    });
    expect(noKey.body.code).toBe("idempotency_key_required");
    const limit = (await c.get("/account")).body.limits.maxBulkItems as number;
    const items = Array.from({ length: limit + 1 }, (_, i) => ({
      type: "http",
      address: `https://h.example.com/${i}`,
    }));
    const tooMany = await c.post("/contact/bulk", { items }, key());
    expect(tooMany.body.code).toBe("too_many_items");
    expect((await c.get("/job")).body.data).toEqual([]);
  });

  it("answers 422 at request time when the callback names no webhook of the account", async () => {
    const c = await sb.account();
    const res = await c.post(
      "/contact/bulk",
      { items: [{ type: "http", address: "https://h.example.com/cb" }], callback: { webhookId: "nope" } },
      key(),
    );
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ pointer: "/callback/webhookId", reason: "not_found" });
    const bad = await c.post(
      "/contact/bulk",
      {
        items: [{ type: "http", address: "https://h.example.com/cb" }],
        callback: { webhookId: "x", on: "all" },
      },
      key(),
    );
    expect(bad.body.errors[0].pointer).toBe("/callback/on");
    expect(await contacts(c)).toEqual([]);
  });
});

describe("two-phase contact bulk delete", () => {
  it("deletes the filtered contacts when expectedCount matches, and nothing otherwise", async () => {
    const c = await sb.account();
    const hooks = [
      await contact(c, { type: "http", address: "https://hooks.example.com/1" }),
      await contact(c, { type: "http", address: "https://hooks.example.com/2" }),
    ];
    const mail = await contact(c, { type: "email", address: "keep@example.com" });
    const filter = { type: ["http"] };
    const preview = await c.post("/contact/bulk-delete-validate", { filter });
    expect(preview.body.matched).toBe(2);
    expect(preview.body.sample.map((s: any) => s.id).sort()).toEqual([...hooks].sort());

    const mismatch = await c.post("/contact/bulk-delete", { filter, expectedCount: 5 }, key());
    expect(mismatch.status).toBe(409);
    expect(mismatch.body).toMatchObject({ code: "selection_mismatch", matched: 2, expectedCount: 5 });
    expect(await contacts(c)).toHaveLength(3);

    const byId = await c.post("/contact/bulk-delete-validate", {
      filter: { id: [hooks[0]], confirmed: true },
    });
    expect(byId.body.matched).toBe(1);

    const job = await runJob(c, "/contact/bulk-delete", { filter, expectedCount: 2 });
    expect(job.body).toMatchObject({
      kind: "contact.bulkDelete",
      state: "succeeded",
      summary: { deleted: 2 },
    });
    expect(job.body.results[0].result).toMatchObject({ deleted: true, cascaded: expect.any(Object) });
    expect((await contacts(c)).map((x: any) => x.id)).toEqual([mail]);
  });

  it("refuses a swapped selection while the validate call's record lasts (an hour), counts only after", async () => {
    const c = await sb.account();
    const first = await contact(c, { type: "http", address: "https://hooks.example.com/a" });
    await contact(c, { type: "http", address: "https://hooks.example.com/b" });
    const filter = { type: ["http"] };
    expect((await c.post("/contact/bulk-delete-validate", { filter })).body.matched).toBe(2);
    expect((await c.delete(`/contact/${first}`)).status).toBeLessThan(300);
    await contact(c, { type: "http", address: "https://hooks.example.com/c" });
    const swapped = await c.post("/contact/bulk-delete", { filter, expectedCount: 2 }, key());
    expect(swapped.status).toBe(409);
    expect(swapped.body).toMatchObject({ code: "selection_mismatch", matched: 2, expectedCount: 2 });
    expect(swapped.body.errors[0]).toMatchObject({ pointer: "/filter", reason: "members_changed" });
    expect(await contacts(c)).toHaveLength(2);
    // Past the hour the record is gone: the delete falls back to comparing counts.
    await sb.advance(3601);
    const job = await runJob(c, "/contact/bulk-delete", { filter, expectedCount: 2 });
    expect(job.body.summary.deleted).toBe(2);
  });

  it("answers filter_required without a filter", async () => {
    const c = await sb.account();
    const res = await c.post("/contact/bulk-delete", { expectedCount: 0 }, key());
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("filter_required");
    expect((await c.post("/contact/bulk-delete-validate", { filter: {} })).body.code).toBe("filter_required");
    expect(
      (await c.post("/contact/bulk-delete", { filter: { type: ["http"] }, expectedCount: 0 })).status,
    ).toBe(400);
  });
});
