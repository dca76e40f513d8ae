import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monitor } from "../../helpers/fixtures.ts";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { key, monitorBody, runJob } from "./helpers.ts";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const count = async (c: { get: (p: string) => Promise<any> }, query = "") =>
  (await c.get(`/monitor?expand=count${query}`)).body.count.matched as number;

describe("POST /monitor/bulk", () => {
  it("creates valid items and fails invalid ones with full problem documents: partial", async () => {
    const c = await sb.account();
    const good = monitorBody({ tags: ["bulk"] });
    const job = await runJob(c, "/monitor/bulk", {
      items: [good, { type: "http", url: "not a url" }, monitorBody({ interval: "often" }), good],
    });
    expect(job.body.state).toBe("partial");
    expect(job.body.summary).toMatchObject({ created: 1, failed: 3 });
    const [created, badUrl, badType, duplicate] = job.body.results;
    expect(created).toMatchObject({ index: 0, itemRef: good.url, status: "created" });
    const read = await c.get(`/monitor/${created.entityId}`);
    expect(read.body).toMatchObject({ url: good.url, tags: ["bulk"] });
    expect(badUrl.error).toMatchObject({ status: 422, code: "invalid_url", instance: `/job/${job.body.id}` });
    expect(badUrl.error.type).toMatch(/\/problems\/invalid_url$/);
    expect(badUrl.error.errors[0].pointer).toBe("/items/1/url");
    expect(badType.error).toMatchObject({ code: "validation_failed" });
    expect(badType.error.errors[0]).toMatchObject({ pointer: "/items/2/interval", reason: "wrong_type" });
    // The fourth item repeats the first: the single route's 409, per item.
    expect(duplicate.error).toMatchObject({ status: 409, code: "duplicate_monitor" });
    expect(await count(c)).toBe(1);
  });

  it("refuses a malformed envelope as a whole: not an array, empty, too many items", async () => {
    const c = await sb.account({ plan: "trial", apiEnabled: true });
    const notArray = await c.post("/monitor/bulk", { items: { a: 1 } }, key());
    expect(notArray.status).toBe(422);
    expect(notArray.body.errors[0]).toMatchObject({ pointer: "/items", reason: "wrong_type" });
    expect((await c.post("/monitor/bulk", { items: [] }, key())).status).toBe(422);
    const limit = (await c.get("/account")).body.limits.maxBulkItems as number;
    const items = Array.from({ length: limit + 1 }, () => ({ type: "http" }));
    const tooMany = await c.post("/monitor/bulk", { items }, key());
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.code).toBe("too_many_items");
    expect(tooMany.body.errors[0]).toMatchObject({ pointer: "/items", value: limit + 1, maximum: limit });
    const validate = await c.post("/monitor/bulk-validate", { items });
    expect(validate.body.code).toBe("too_many_items");
    expect((await c.get("/job")).body.data).toEqual([]);
  });

  it("requires an Idempotency-Key and replays the first answer for the same key and body", async () => {
    const c = await sb.account();
    const body = { items: [monitorBody()] };
    const noKey = await c.post("/monitor/bulk", body);
    expect(noKey.status).toBe(400);
    expect(noKey.body.code).toBe("idempotency_key_required");
    const headers = key();
    const first = await c.post("/monitor/bulk", body, headers);
    const replay = await c.post("/monitor/bulk", body, headers);
    expect(replay.status).toBe(202);
    expect(replay.headers["idempotency-replayed"]).toBe("true");
    expect(replay.text).toBe(first.text);
    expect(replay.headers.location).toBe(first.headers.location);
    const conflict = await c.post("/monitor/bulk", { items: [monitorBody()] }, headers);
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe("idempotency_key_conflict");
    expect((await c.get("/job")).body.data).toHaveLength(1);
    const update = await c.post("/monitor/bulk-update", { items: [{ id: randomUUID() }] });
    expect(update.body.code).toBe("idempotency_key_required");
    const remove = await c.post("/monitor/bulk-delete", { filter: { tag: ["x"] }, expectedCount: 0 });
    expect(remove.body.code).toBe("idempotency_key_required");
  });

  it("needs contact:write too when an item carries inline contacts", async () => {
    const c = await sb.account();
    const minted = await sb.mint({ accountId: c.accountId, scopes: ["monitor:write"] });
    const item = monitorBody({
      contacts: [{ ref: "a", type: "http", address: "https://hooks.example.com/x" }],
    });
    const res = await c.post("/monitor/bulk", { items: [item] }, { ...key(), token: minted.body.token });
    expect(res.status).toBe(403);
    expect(res.body.errors[0]).toMatchObject({ required: "contact:write" });
    const job = await runJob(c, "/monitor/bulk", { items: [item] });
    expect(job.body.state).toBe("succeeded");
    // The job's scopes are both: a monitor-only token cannot read it.
    expect((await c.get(`/job/${job.body.id}`, { token: minted.body.token })).body.errors[0].required).toBe(
      "contact:write",
    );
  });
});

describe("POST /monitor/bulk-validate", () => {
  it("answers {valid, invalid[]} with each item's problem, and creates nothing", async () => {
    const c = await sb.account();
    const first = monitorBody();
    const res = await c.post("/monitor/bulk-validate", {
      items: [first, { type: "http", url: "x y" }, first, monitorBody({ colour: "red" })],
    });
    expect(res.status).toBe(200);
    expect(res.body.valid).toBe(1);
    expect(res.body.invalid.map((i: any) => [i.index, i.error.code])).toEqual([
      [1, "invalid_url"],
      [2, "duplicate_monitor"],
      [3, "validation_failed"],
    ]);
    expect(res.body.invalid[0].error).toMatchObject({ status: 422, title: expect.any(String) });
    expect(res.body.invalid[2].error.errors[0]).toMatchObject({
      pointer: "/items/3/colour",
      reason: "unknown_member",
    });
    expect(await count(c)).toBe(0);
    expect((await c.get("/job")).body.data).toEqual([]);
  });
});

describe("POST /monitor/bulk-update", () => {
  it("updates, skips unchanged, and fails missing or invalid items", async () => {
    const c = await sb.account();
    const a = await monitor(c);
    const b = await monitor(c);
    const missing = randomUUID();
    const items = [
      { id: a, name: "renamed" },
      { id: b },
      { id: missing, name: "x" },
      { id: a, interval: -5 },
      { name: "no id" },
    ];
    const check = await c.post("/monitor/bulk-update-validate", { items });
    expect(check.body.valid).toBe(2);
    expect(check.body.invalid.map((i: any) => i.index)).toEqual([2, 3, 4]);
    expect((await c.get(`/monitor/${a}`)).body.name).not.toBe("renamed");

    const job = await runJob(c, "/monitor/bulk-update", { items });
    expect(job.body.state).toBe("partial");
    expect(job.body.results.map((r: any) => r.status)).toEqual([
      "updated",
      "skipped",
      "failed",
      "failed",
      "failed",
    ]);
    expect(job.body.results[0]).toMatchObject({ itemRef: a, entityId: a });
    expect(job.body.results[2].error).toMatchObject({ status: 404, code: "not_found" });
    expect(job.body.results[4].error.errors[0]).toMatchObject({ pointer: "/items/4/id", reason: "required" });
    expect((await c.get(`/monitor/${a}`)).body.name).toBe("renamed");
  });
});

describe("two-phase bulk delete", () => {
  it("counts with the validate call, deletes with the matching expectedCount, refuses a changed selection", async () => {
    const c = await sb.account();
    const tagged = [];
    for (let i = 0; i < 3; i++) {
      const res = await c.post("/monitor", monitorBody({ tags: ["old"] }));
      tagged.push(res.body.id);
    }
    const keep = await monitor(c);
    const filter = { tag: ["old"] };
    const preview = await c.post("/monitor/bulk-delete-validate", { filter });
    expect(preview.status).toBe(200);
    expect(preview.body.matched).toBe(3);
    expect(preview.body.sample.map((m: any) => m.id).sort()).toEqual([...tagged].sort());

    const mismatch = await c.post("/monitor/bulk-delete", { filter, expectedCount: 2 }, key());
    expect(mismatch.status).toBe(409);
    expect(mismatch.body).toMatchObject({ code: "selection_mismatch", matched: 3, expectedCount: 2 });
    expect(mismatch.body.errors[0]).toMatchObject({ matched: 3, expectedCount: 2 });
    expect(await count(c)).toBe(4);

    const job = await runJob(c, "/monitor/bulk-delete", { filter, expectedCount: 3 });
    expect(job.body).toMatchObject({
      kind: "monitor.bulkDelete",
      state: "succeeded",
      summary: { deleted: 3 },
    });
    expect(job.body.results[0].result).toMatchObject({ deleted: true, cascaded: expect.any(Object) });
    for (const id of tagged) expect((await c.get(`/monitor/${id}`)).status).toBe(404);
    expect((await c.get(`/monitor/${keep}`)).status).toBe(200);
  });

  it("refuses a swapped selection of the same count: one monitor left the filter, another joined", async () => {
    const c = await sb.account();
    const [a, b] = [await monitor(c), await monitor(c)];
    for (const id of [a, b]) await c.patch(`/monitor/${id}`, { tags: ["swap"] });
    const filter = { tag: ["swap"] };
    expect((await c.post("/monitor/bulk-delete-validate", { filter })).body.matched).toBe(2);

    // Between the two phases, a leaves the selection and a new monitor joins it: still 2 matched.
    await c.patch(`/monitor/${a}`, { tags: [] });
    const joined = (await c.post("/monitor", monitorBody({ tags: ["swap"] }))).body.id;
    const swapped = await c.post("/monitor/bulk-delete", { filter, expectedCount: 2 }, key());
    expect(swapped.status).toBe(409);
    expect(swapped.body).toMatchObject({ code: "selection_mismatch", matched: 2, expectedCount: 2 });
    expect(swapped.body.errors[0]).toMatchObject({ pointer: "/filter", reason: "members_changed" });
    expect(await count(c)).toBe(3);

    // The same filter spelt otherwise is the same selection: validating again lets the delete through.
    const again = await c.post("/monitor/bulk-delete-validate", { filter: { tag: ["swap", "swap"] } });
    expect(again.body.sample.map((m: any) => m.id).sort()).toEqual([b, joined].sort());
    const job = await runJob(c, "/monitor/bulk-delete", { filter, expectedCount: 2 });
    expect(job.body.results.map((r: any) => r.entityId).sort()).toEqual([b, joined].sort());
    expect((await c.get(`/monitor/${a}`)).status).toBe(200);
  });

  it("answers too_many_items when the filter selects more than limits.maxBulkItems", async () => {
    const c = await sb.account({ plan: "trial", apiEnabled: true, featureOverrides: { monitors: 500 } });
    const limit = (await c.get("/account")).body.limits.maxBulkItems as number;
    const items = Array.from({ length: limit }, () => monitorBody({ interval: 300 }));
    await runJob(c, "/monitor/bulk", { items });
    await runJob(c, "/monitor/bulk", { items: [monitorBody({ interval: 300, tags: ["last"] })] });
    expect(await count(c)).toBe(limit + 1);

    const filter = { type: ["http"] };
    const preview = await c.post("/monitor/bulk-delete-validate", { filter });
    expect(preview.status).toBe(422);
    expect(preview.body).toMatchObject({ code: "too_many_items", matched: limit + 1, maximum: limit });
    expect(preview.body.errors[0]).toMatchObject({ pointer: "/filter", matched: limit + 1, maximum: limit });
    const remove = await c.post("/monitor/bulk-delete", { filter, expectedCount: limit + 1 }, key());
    expect(remove.status).toBe(422);
    expect(remove.body.code).toBe("too_many_items");
    expect(await count(c)).toBe(limit + 1);
    // A narrower filter within the limit goes through.
    const job = await runJob(c, "/monitor/bulk-delete", { filter: { tag: ["last"] }, expectedCount: 1 });
    expect(job.body.summary.deleted).toBe(1);
  });

  it("combines filters as the list does (q, type, enabled, url)", async () => {
    const c = await sb.account();
    const a = monitorBody({ enabled: false });
    await c.post("/monitor", a);
    await c.post("/monitor", monitorBody());
    const byUrl = await c.post("/monitor/bulk-delete-validate", { filter: { url: [a.url] } });
    expect(byUrl.body.matched).toBe(1);
    const disabled = await c.post("/monitor/bulk-delete-validate", {
      filter: { enabled: false, type: ["http"] },
    });
    expect(disabled.body.sample.map((m: any) => m.url)).toEqual([a.url]);
    const q = await c.post("/monitor/bulk-delete-validate", { filter: { q: "EXAMPLE.com" } });
    expect(q.body.matched).toBe(2);
  });

  it("answers filter_required without a filter or with an empty one, and judges filter members", async () => {
    const c = await sb.account();
    await monitor(c);
    for (const body of [{ expectedCount: 1 }, { filter: {}, expectedCount: 1 }]) {
      const res = await c.post("/monitor/bulk-delete", body, key());
      expect(res.status).toBe(422);
      expect(res.body.code).toBe("filter_required");
    }
    expect((await c.post("/monitor/bulk-delete-validate", {})).body.code).toBe("filter_required");
    const unknown = await c.post("/monitor/bulk-delete-validate", { filter: { colour: ["red"] } });
    expect(unknown.body.code).toBe("unknown_parameter");
    expect(unknown.body.errors[0].pointer).toBe("/filter/colour");
    const badState = await c.post("/monitor/bulk-delete-validate", { filter: { state: ["sleepy"] } });
    expect(badState.body.code).toBe("unknown_enum_value");
    const noCount = await c.post("/monitor/bulk-delete", { filter: { type: ["http"] } }, key());
    expect(noCount.body.errors[0]).toMatchObject({ pointer: "/expectedCount", reason: "required" });
    expect(await count(c)).toBe(1);
  });
});

describe("onOverlimit against the plan's monitor count", () => {
  const items = (onOverlimit?: string) =>
    Array.from({ length: 4 }, () => monitorBody(onOverlimit ? { onOverlimit } : {}));

  it("fail: items beyond the limit fail with 403 package_limit", async () => {
    const c = await sb.account({ featureOverrides: { monitors: 2 } });
    const job = await runJob(c, "/monitor/bulk", { items: items("fail") });
    expect(job.body.state).toBe("partial");
    expect(job.body.results.map((r: any) => r.status)).toEqual(["created", "created", "failed", "failed"]);
    expect(job.body.results[2].error).toMatchObject({
      status: 403,
      code: "package_limit",
      feature: "monitors",
    });
  });

  it("disable: items beyond the limit are created disabled", async () => {
    const c = await sb.account({ featureOverrides: { monitors: 2 } });
    const job = await runJob(c, "/monitor/bulk", { items: items("disable") });
    expect(job.body.state).toBe("succeeded");
    expect(job.body.summary).toMatchObject({ created: 2, createdDisabled: 2 });
    const disabled = await c.get(`/monitor/${job.body.results[3].entityId}`);
    expect(disabled.body).toMatchObject({ enabled: false, overlimited: true });
  });

  it("stop: the first item over the limit fails and the rest are cancelled", async () => {
    const c = await sb.account({ featureOverrides: { monitors: 2 } });
    const job = await runJob(c, "/monitor/bulk", { items: items("stop") });
    expect(job.body.state).toBe("partial");
    expect(job.body.results.map((r: any) => r.status)).toEqual(["created", "created", "failed", "cancelled"]);
    expect(job.body.summary).toMatchObject({ created: 2, failed: 1, cancelled: 1, pending: 0 });
    expect(await count(c)).toBe(2);
    // The validate variant judges the same way, without creating anything.
    const again = await sb.account({ featureOverrides: { monitors: 1 } });
    const check = await again.post("/monitor/bulk-validate", { items: items("disable").concat(items()) });
    // Four disabled-or-created items fit; the four "fail" ones after them meet the full plan.
    expect(check.body.valid).toBe(4);
    expect(check.body.invalid.map((i: any) => i.index)).toEqual([4, 5, 6, 7]);
    expect(check.body.invalid[0].error.code).toBe("package_limit");
  });
});

describe("POST /monitor/{id}/copy", () => {
  it("copies up to 10 addresses at once, all or nothing", async () => {
    const c = await sb.account();
    const source = await c.post("/monitor", monitorBody({ tags: ["web"], interval: 600, name: "Source" }));
    const urls = [`https://example.org/${randomUUID()}`, `https://example.org/${randomUUID()}`];
    const res = await c.post(`/monitor/${source.body.id}/copy`, { urls });
    expect(res.status).toBe(201);
    expect(res.body.data.map((m: any) => m.url)).toEqual(urls);
    expect(res.body.data[0]).toMatchObject({ tags: ["web"], interval: 600, name: urls[0], type: "http" });
    expect(await count(c)).toBe(3);

    const clash = await c.post(`/monitor/${source.body.id}/copy`, {
      urls: [`https://example.org/${randomUUID()}`, urls[1]],
    });
    expect(clash.status).toBe(409);
    expect(clash.body.code).toBe("duplicate_monitor");
    expect(await count(c)).toBe(3);
    expect((await c.post(`/monitor/${randomUUID()}/copy`, { urls })).status).toBe(404);
  });

  it("makes a job for more than 10 addresses, which then needs an Idempotency-Key", async () => {
    const c = await sb.account();
    const source = await monitor(c);
    const urls = Array.from({ length: 11 }, () => `https://example.net/${randomUUID()}`);
    const noKey = await c.post(`/monitor/${source}/copy`, { urls });
    expect(noKey.status).toBe(400);
    expect(noKey.body.code).toBe("idempotency_key_required");
    const job = await runJob(c, `/monitor/${source}/copy`, { urls: [...urls, urls[0]] });
    expect(job.body).toMatchObject({
      kind: "monitor.copy",
      state: "partial",
      summary: { created: 11, failed: 1 },
    });
    expect(job.body.results[11]).toMatchObject({ itemRef: urls[0], status: "failed" });
    expect(job.body.results[11].error.errors[0].pointer).toBe("/urls/11");
    expect(await count(c)).toBe(12);
  });
});

describe("POST /monitor/{id}/reset-stats", () => {
  it("runs as a job, needs an Idempotency-Key, and answers 404 for an unknown monitor", async () => {
    const c = await sb.account();
    const id = await monitor(c);
    expect((await c.post(`/monitor/${id}/reset-stats`)).body.code).toBe("idempotency_key_required");
    expect((await c.post(`/monitor/${randomUUID()}/reset-stats`, undefined, key())).status).toBe(404);
    const job = await runJob(c, `/monitor/${id}/reset-stats`, undefined);
    expect(job.body).toMatchObject({ kind: "monitor.resetStats", state: "succeeded" });
    expect(job.body.results).toEqual([
      { index: 0, itemRef: id, status: "updated", entityId: id, result: { removed: 0 } },
    ]);
  });
});
