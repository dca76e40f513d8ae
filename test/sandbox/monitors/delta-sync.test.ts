import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { create, httpMonitor, refusal } from "./fixtures.ts";

/**
 * Delta polling of GET /monitor: `syncCursor` sent back as `updatedSince`
 * catches creations, up/down changes and plan-limit disabling; never edits
 * or deletions.
 */
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

type Account = Awaited<ReturnType<TestSandbox["account"]>>;

async function syncCursor(acct: Account) {
  const res = await acct.get("/monitor?limit=1");
  expect(res.status).toBe(200);
  return res.body.syncCursor as string;
}
async function since(acct: Account, cursor: string, extra = "") {
  const res = await acct.get(`/monitor?updatedSince=${encodeURIComponent(cursor)}&limit=500${extra}`);
  expect(res.status, res.text).toBe(200);
  return res.body as { data: Array<{ id: string; state: string }>; syncCursor: string };
}
const outcome = (id: string, state: "up" | "down") =>
  sb.admin.post(`/_sandbox/monitor/${id}/outcome`, { state });

describe("syncCursor", () => {
  it("comes with every page, filtered or not, and from the /q twin", async () => {
    const acct = await sb.account();
    for (let i = 0; i < 3; i++) await create(acct, httpMonitor());
    const first = await acct.get("/monitor?limit=2");
    const last = await acct.get(`/monitor?limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    const filtered = await acct.get("/monitor?type=ping");
    const twin = await acct.post("/monitor/q", {});
    for (const res of [first, last, filtered, twin]) expect(typeof res.body.syncCursor).toBe("string");
    expect(new Set([first, last, filtered, twin].map((r) => r.body.syncCursor)).size).toBe(1);
  });

  it("is issued to an account with no monitors yet", async () => {
    const acct = await sb.account();
    const cursor = await syncCursor(acct);
    expect((await since(acct, cursor)).data).toEqual([]);
  });
});

describe("updatedSince catches", () => {
  it("monitors created after the cursor", async () => {
    const acct = await sb.account();
    await create(acct, httpMonitor());
    const cursor = await syncCursor(acct);
    const fresh = await create(acct, httpMonitor());
    expect((await since(acct, cursor)).data.map((m) => m.id)).toEqual([fresh.id]);
  });

  it("up/down changes", async () => {
    const acct = await sb.account();
    const a = await create(acct, httpMonitor());
    const b = await create(acct, httpMonitor());
    const cursor = await syncCursor(acct);
    await outcome(a.id, "down");
    const down = await since(acct, cursor);
    expect(down.data.map((m) => [m.id, m.state])).toEqual([[a.id, "down"]]);
    await outcome(a.id, "up");
    await outcome(b.id, "down");
    const after = await since(acct, down.syncCursor);
    expect(after.data.map((m) => m.id).sort()).toEqual([a.id, b.id].sort());
    expect((await since(acct, after.syncCursor)).data).toEqual([]);
  });

  it("an outcome that changes nothing is not a change", async () => {
    const acct = await sb.account();
    const a = await create(acct, httpMonitor());
    const cursor = await syncCursor(acct);
    await outcome(a.id, "up");
    expect((await since(acct, cursor)).data).toEqual([]);
  });

  it("plan-limit disabling", async () => {
    const acct = await sb.account({ featureOverrides: { monitors: 1 } });
    await create(acct, httpMonitor());
    const cursor = await syncCursor(acct);
    const disabled = await create(acct, httpMonitor({ onOverlimit: "disable" }));
    const delta = await since(acct, cursor);
    expect(delta.data).toEqual([
      expect.objectContaining({ id: disabled.id, overlimited: true, state: "paused" }),
    ]);
  });

  it("plan-limit disabling after a plan change: the newest monitors beyond the limit", async () => {
    const acct = await sb.account();
    const oldest = await create(acct, httpMonitor());
    const middle = await create(acct, httpMonitor());
    const newest = await create(acct, httpMonitor());
    const cursor = await syncCursor(acct);
    const res = await sb.admin.patch(`/_sandbox/accounts/${acct.accountId}`, {
      featureOverrides: { monitors: 1 },
    });
    expect(res.status, res.text).toBe(200);
    const delta = await since(acct, cursor);
    expect(delta.data.map((m) => m.id).sort()).toEqual([middle.id, newest.id].sort());
    for (const m of delta.data) {
      expect(m).toMatchObject({ enabled: false, state: "paused", overlimited: true });
    }
    expect((await acct.get(`/monitor/${oldest.id}`)).body).toMatchObject({ enabled: true, state: "up" });
    expect((await since(acct, delta.syncCursor)).data).toEqual([]);
  });

  it("combines with filters", async () => {
    const acct = await sb.account();
    const cursor = await syncCursor(acct);
    const tagged = await create(acct, httpMonitor({ tags: ["watch"] }));
    await create(acct, httpMonitor());
    expect((await since(acct, cursor, "&tag=watch")).data.map((m) => m.id)).toEqual([tagged.id]);
  });
});

describe("updatedSince does not report", () => {
  it("edits, pausing included", async () => {
    const acct = await sb.account();
    const a = await create(acct, httpMonitor());
    const cursor = await syncCursor(acct);
    await acct.patch(`/monitor/${a.id}`, { name: "renamed", tags: ["x"], settings: { timeout: 1000 } });
    await acct.patch(`/monitor/${a.id}`, { enabled: false });
    const delta = await since(acct, cursor);
    expect(delta.data).toEqual([]);
    expect(delta.syncCursor).toBe(cursor);
  });

  it("deletions", async () => {
    const acct = await sb.account();
    const a = await create(acct, httpMonitor());
    const cursor = await syncCursor(acct);
    await outcome(a.id, "down");
    await acct.delete(`/monitor/${a.id}`);
    expect((await since(acct, cursor)).data).toEqual([]);
  });

  it("a dry run", async () => {
    const acct = await sb.account();
    const cursor = await syncCursor(acct);
    expect((await acct.post("/monitor?dryRun=true", httpMonitor())).status).toBe(200);
    expect(await syncCursor(acct)).toBe(cursor);
  });
});

describe("invalid_cursor", () => {
  it("refuses another account's syncCursor", async () => {
    const acct = await sb.account();
    const other = await sb.account();
    const res = await acct.get(`/monitor?updatedSince=${encodeURIComponent(await syncCursor(other))}`);
    expect(refusal(res)).toEqual({
      status: 422,
      code: "invalid_cursor",
      errors: [{ pointer: "/updatedSince", parameter: "updatedSince", reason: "foreign" }],
    });
  });

  it("refuses a tampered syncCursor", async () => {
    const acct = await sb.account();
    const [body, mac] = (await syncCursor(acct)).split(".");
    const payload = JSON.parse(Buffer.from(body!, "base64url").toString());
    const forged = Buffer.from(JSON.stringify({ ...payload, seq: payload.seq + 1 })).toString("base64url");
    for (const bad of [`${forged}.${mac}`, "garbage"]) {
      const res = await acct.get(`/monitor?updatedSince=${encodeURIComponent(bad)}`);
      expect(refusal(res)).toEqual({
        status: 422,
        code: "invalid_cursor",
        errors: [{ pointer: "/updatedSince", parameter: "updatedSince", reason: "invalid" }],
      });
    }
  });

  it("page cursors and sync cursors are not interchangeable", async () => {
    const acct = await sb.account();
    for (let i = 0; i < 2; i++) await create(acct, httpMonitor());
    const page = await acct.get("/monitor?limit=1");
    const asSince = await acct.get(`/monitor?updatedSince=${encodeURIComponent(page.body.nextCursor)}`);
    expect(refusal(asSince)).toMatchObject({ status: 422, code: "invalid_cursor" });
    const asCursor = await acct.get(`/monitor?limit=1&cursor=${encodeURIComponent(page.body.syncCursor)}`);
    expect(refusal(asCursor)).toMatchObject({ status: 422, code: "invalid_cursor" });
  });
});
