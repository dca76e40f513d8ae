import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { longQueryLength, queryStringLength } from "../../src/api/lists.ts";
import { type Operations, operations } from "../../src/api/operations.ts";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";
import { accountCaller, quickTime, type RecordingCaller } from "./caller.ts";

let sb: TestSandbox;
let caller: RecordingCaller;
let ops: Operations;
const total = 1200;
const url = (i: number) => `https://example.com/page/${String(i).padStart(4, "0")}`;

beforeAll(async () => {
  sb = await startTestSandbox();
  // Enterprise: 1,200 items fit one bulk job.
  caller = await accountCaller(sb, { plan: "enterprise" });
  ops = operations(caller);
  const outcome = await ops.monitor.bulkCreate(
    Array.from({ length: total }, (_, i) => ({
      type: "http" as const,
      url: url(i),
      locations: { pools: ["allworld"] },
      tags: [i % 3 === 0 ? "fizz" : "plain"],
    })),
    { time: quickTime() },
  );
  expect(outcome.ok).toHaveLength(total);
}, 60_000);
afterAll(async () => {
  await sb.close();
});

describe("lists", () => {
  it("pages 1,200 monitors at limit 500 as an async iterator", async () => {
    caller.specs.length = 0;
    const pages = [];
    for await (const page of ops.monitor.rows({ limit: 500, sort: "url:asc" })) pages.push(page);
    expect(pages).toHaveLength(total);
    expect(pages.map((m) => m.url)).toEqual(Array.from({ length: total }, (_, i) => url(i)));
    expect(new Set(pages.map((m) => m.id)).size).toBe(total);
    expect(caller.specs.map((s) => [s.route, s.quotaClass, s.query?.limit])).toEqual([
      ["GET /monitor", "read", 500],
      ["GET /monitor", "read", 500],
      ["GET /monitor", "read", 500],
    ]);
    expect(caller.specs[1]?.query?.cursor).toEqual(expect.any(String));
  });

  it("defaults to 500 rows a page, and stops at the last page", async () => {
    const page = await ops.monitor.page();
    expect(page.data).toHaveLength(500);
    expect(page.hasMore).toBe(true);
  });

  it("filters, expands and keeps fields", async () => {
    const fizz = await ops.monitor.all({ filters: { tag: ["fizz"] }, expand: ["count"] });
    expect(fizz).toHaveLength(total / 3);
    expect(fizz.every((m) => m.tags?.includes("fizz"))).toBe(true);

    const page = await ops.monitor.page({
      filters: { tag: ["fizz"] },
      expand: ["count"],
      fields: ["url"],
      limit: 5,
    });
    expect(page.count).toEqual({ total, matched: total / 3 });
    expect(page.data).toHaveLength(5);
    for (const row of page.data) expect(Object.keys(row).sort()).toEqual(["id", "url"]);

    expect(() => ops.monitor.page({ filters: { colour: "red" } })).toThrow(/no filter colour/);
  });

  it("sends a long filter through POST /monitor/q, paging there too", async () => {
    const urls = Array.from({ length: 600 }, (_, i) => url(i * 2));
    expect(queryStringLength({ url: urls })).toBeGreaterThan(longQueryLength);
    caller.specs.length = 0;
    const rows = await ops.monitor.all({ filters: { url: urls }, sort: "url:asc" });
    expect(rows.map((m) => m.url)).toEqual(urls);
    expect(caller.specs.map((s) => [s.route, s.quotaClass])).toEqual([
      ["POST /monitor/q", "read"],
      ["POST /monitor/q", "read"],
    ]);
    expect((caller.specs[1]?.body as { cursor?: string } | undefined)?.cursor).toEqual(expect.any(String));

    // On request, a short filter goes the same way.
    caller.specs.length = 0;
    const short = await ops.monitor.all({ filters: { url: [url(1)] }, queryRoute: true });
    expect(short.map((m) => m.url)).toEqual([url(1)]);
    expect(caller.routes()).toEqual(["POST /monitor/q"]);
  });

  it("delta-syncs: rows since the cursor, then an empty delta", async () => {
    const first = await ops.monitor.sync();
    expect(first.rows).toHaveLength(total);
    const created = await ops.monitor.create({
      type: "http",
      url: `https://example.com/${randomUUID()}`,
      locations: { pools: ["allworld"] },
    });
    const delta = await ops.monitor.sync(first.cursor);
    expect(delta.rows.map((m) => m.id)).toEqual([created.id]);
    expect(caller.specs.at(-1)?.query?.updatedSince).toBe(first.cursor);
    const none = await ops.monitor.sync(delta.cursor);
    expect(none.rows).toEqual([]);
  });

  it("delta-syncs contacts, maintenance and webhooks too", async () => {
    const contacts = await ops.contact.sync();
    const contact = await ops.contact.create({
      type: "http",
      address: `https://example.com/hook/${randomUUID()}`,
    });
    expect((await ops.contact.sync(contacts.cursor)).rows.map((c) => c.id)).toEqual([contact.id]);

    const windows = await ops.maintenance.sync();
    const window = await ops.maintenance.create({ name: "w", from: 2_000_000_000, to: 2_000_003_600 });
    expect((await ops.maintenance.sync(windows.cursor)).rows.map((w) => w.id)).toEqual([window.id]);

    const hooks = await ops.webhook.sync();
    expect(hooks.cursor).toEqual(expect.any(String));
  });
});
