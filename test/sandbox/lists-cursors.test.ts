import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";
import { monitorBody as jobMonitorBody, runJob } from "./jobs/helpers.ts";

/**
 * Cursors belong to the list that issued them (its GET and `/q` twin, with
 * the same path parameters); lists without a sort page by id, by keyset.
 */
let sb: TestSandbox;
let c: Client & { accountId: string };
/** Monitors and email contacts, each sorted by id; every monitor is subscribed to every contact. */
let monitors: string[];
let contacts: string[];
beforeAll(async () => {
  sb = await startTestSandbox();
  c = await sb.account();
  monitors = [];
  for (let i = 0; i < 3; i++) {
    const res = await c.post("/monitor", {
      type: "http",
      url: `https://example.com/${randomUUID()}`,
      locations: { pools: ["allworld"] },
    });
    expect(res.status, res.text).toBe(201);
    monitors.push(res.body.id);
  }
  contacts = [];
  for (let i = 0; i < 3; i++) {
    const res = await c.post(
      "/contact",
      { type: "email", address: `lists-${i}@example.com` },
      { headers: { "idempotency-key": randomUUID() } },
    );
    expect(res.status, res.text).toBe(201);
    contacts.push(res.body.id);
  }
  monitors.sort();
  contacts.sort();
  for (const m of monitors) {
    for (const k of contacts) {
      expect((await c.put(`/monitor/${m}/alert/${k}`, { alertTypes: ["down"] })).status).toBe(201);
      expect((await c.put(`/monitor/${m}/report/${k}`, { frequencies: ["weekly"] })).status).toBe(201);
    }
  }
});
afterAll(() => sb.close());

const foreign = {
  status: 422,
  code: "invalid_cursor",
  errors: [{ pointer: "/cursor", parameter: "cursor", reason: "foreign" }],
};
const refusal = (res: { status: number; body: { code: string; errors: unknown[] } }) => ({
  status: res.status,
  code: res.body.code,
  errors: res.body.errors,
});
const cursorOf = async (path: string) => {
  const res = await c.get(path);
  expect(res.status, res.text).toBe(200);
  expect(res.body.nextCursor).toEqual(expect.any(String));
  return encodeURIComponent(res.body.nextCursor);
};

describe("page cursors are bound to their list", () => {
  it("a /monitor cursor does not page /contact, though both default to created order", async () => {
    const cursor = await cursorOf("/monitor?limit=1");
    expect(refusal(await c.get(`/contact?limit=1&cursor=${cursor}`))).toEqual(foreign);
    expect((await c.get(`/monitor?limit=1&cursor=${cursor}`)).status).toBe(200);
  });

  it("a /monitor/A/alert cursor does not page /monitor/B/alert, but pages A's /q twin", async () => {
    const [a, b] = monitors as [string, string];
    const cursor = await cursorOf(`/monitor/${a}/alert?limit=1`);
    expect(refusal(await c.get(`/monitor/${b}/alert?limit=1&cursor=${cursor}`))).toEqual(foreign);
    const twin = await c.post(`/monitor/${a}/alert/q`, { limit: 1, cursor: decodeURIComponent(cursor) });
    expect(twin.status, twin.text).toBe(200);
    expect(twin.body.data).toHaveLength(1);
  });

  it("an /alert cursor does not page /report", async () => {
    const cursor = await cursorOf("/alert?limit=1");
    expect(refusal(await c.get(`/report?limit=1&cursor=${cursor}`))).toEqual(foreign);
    const grouped = await cursorOf("/alert/by-monitor?limit=1");
    expect(refusal(await c.get(`/report/by-monitor?limit=1&cursor=${grouped}`))).toEqual(foreign);
    expect(refusal(await c.get(`/alert/by-contact?limit=1&cursor=${grouped}`))).toEqual(foreign);
  });
});

describe("sync cursors are bound to their list", () => {
  it("a /monitor syncCursor is refused by /contact, and accepted by /monitor and its twin", async () => {
    const sync = (await c.get("/monitor")).body.syncCursor as string;
    const res = await c.get(`/contact?updatedSince=${encodeURIComponent(sync)}`);
    expect(refusal(res)).toEqual({
      status: 422,
      code: "invalid_cursor",
      errors: [{ pointer: "/updatedSince", parameter: "updatedSince", reason: "foreign" }],
    });
    expect((await c.get(`/monitor?updatedSince=${encodeURIComponent(sync)}`)).status).toBe(200);
    expect((await c.post("/monitor/q", { updatedSince: sync })).status).toBe(200);
  });
});

describe("lists without a sort page by id", () => {
  it("continue after the last row sent even when that row is gone", async () => {
    const path = "/alert/by-monitor";
    const first = await c.get(`${path}?limit=2`);
    expect(first.body.data.map((r: { monitorId: string }) => r.monitorId)).toEqual(monitors.slice(0, 2));
    // The page's last row (the second monitor's group) disappears before the next page is asked for.
    for (const k of contacts) {
      expect((await c.delete(`/monitor/${monitors[1]}/alert/${k}`)).status).toBeLessThan(300);
    }
    const next = await c.get(`${path}?limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    expect(next.status, next.text).toBe(200);
    expect(next.body.data.map((r: { monitorId: string }) => r.monitorId)).toEqual([monitors[2]]);
    expect(next.body.hasMore).toBe(false);
  });
});

describe("a cursor is exactly what the API issued", () => {
  const invalid = (parameter: string) => ({
    status: 422,
    code: "invalid_cursor",
    errors: [{ pointer: `/${parameter}`, parameter, reason: "invalid" }],
  });
  // A well-signed cursor with segments appended is malformed, as a token with them is (auth-tokens.test.ts).
  const suffixes = [".x", ".x.y.z", ".", ".."];

  it("refuses a page cursor with anything appended, in a GET and its /q twin", async () => {
    const cursor = decodeURIComponent(await cursorOf("/monitor?limit=1"));
    for (const suffix of suffixes) {
      const tampered = `${cursor}${suffix}`;
      expect(refusal(await c.get(`/monitor?limit=1&cursor=${encodeURIComponent(tampered)}`))).toEqual(
        invalid("cursor"),
      );
      expect(refusal(await c.post("/monitor/q", { limit: 1, cursor: tampered }))).toEqual(invalid("cursor"));
    }
    expect((await c.get(`/monitor?limit=1&cursor=${encodeURIComponent(cursor)}`)).status).toBe(200);
  });

  it("refuses a sync cursor with anything appended", async () => {
    const sync = (await c.get("/monitor")).body.syncCursor as string;
    for (const suffix of suffixes) {
      const res = await c.get(`/monitor?updatedSince=${encodeURIComponent(`${sync}${suffix}`)}`);
      expect(refusal(res)).toEqual(invalid("updatedSince"));
    }
    expect((await c.get(`/monitor?updatedSince=${encodeURIComponent(sync)}`)).status).toBe(200);
  });

  it("refuses a job's results cursor with anything appended", async () => {
    const job = await runJob(c, "/monitor/bulk", { items: [jobMonitorBody(), jobMonitorBody()] });
    const page = await c.get(`/job/${job.body.id}?limit=1`);
    const cursor = page.body.resultsNextCursor as string;
    expect(cursor).toEqual(expect.any(String));
    const pageAfter = (suffix: string) =>
      c.get(`/job/${job.body.id}?limit=1&cursor=${encodeURIComponent(`${cursor}${suffix}`)}`);
    for (const suffix of suffixes) expect(refusal(await pageAfter(suffix))).toEqual(invalid("cursor"));
    expect((await pageAfter("")).status).toBe(200);
  });
});
