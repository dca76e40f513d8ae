import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { create, everywhere, httpMonitor, refusal, uniqueUrl } from "./fixtures.ts";

/** PATCH /monitor/{id}: partial writes, settings merge, tags, type, pausing, url changes, isolation. */
let sb: TestSandbox;
let acct: Awaited<ReturnType<TestSandbox["account"]>>;
beforeAll(async () => {
  sb = await startTestSandbox();
  acct = await sb.account();
});
afterAll(() => sb.close());

const updateMembers = [
  "type",
  "url",
  "name",
  "interval",
  "cronSchedule",
  "enabled",
  "tags",
  "addTags",
  "removeTags",
  "locations",
  "recheck",
  "attached",
  "openStat",
  "fullLog",
  "slaTarget",
  "onOverlimit",
  "settings",
];

async function patch(id: string, body: Record<string, unknown>) {
  const res = await acct.patch(`/monitor/${id}`, body);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

describe("partial writes", () => {
  it("changes only the sent members and moves updated", async () => {
    const before = await create(acct, httpMonitor({ name: "Before", tags: ["a"], interval: 300 }));
    const later = await sb.advance(30);
    const after = await patch(before.id, { name: "After" });
    expect(after).toEqual({ ...before, name: "After", updated: later });
    expect((await acct.get(`/monitor/${before.id}`)).body).toEqual(after);
  });

  it("an empty body changes nothing, updated included", async () => {
    const before = await create(acct, httpMonitor());
    await sb.advance(5);
    expect(await patch(before.id, {})).toEqual(before);
    expect((await acct.get(`/monitor/${before.id}`)).body).toEqual(before);
  });

  it("sending the stored values again changes nothing, updated included", async () => {
    const before = await create(
      acct,
      httpMonitor({
        name: "Same",
        tags: ["a", "b"],
        interval: 300,
        recheck: { strategy: "" },
        attached: { dnsbl: false },
        settings: { timeout: 1000 },
      }),
    );
    await sb.advance(5);
    const same = await patch(before.id, {
      name: "Same",
      url: before.url,
      tags: ["b", "a"],
      interval: 300,
      enabled: true,
      locations: { pools: ["AllWorld"] },
      recheck: { strategy: "" },
      settings: { timeout: 1000 },
      attached: { dnsbl: false },
    });
    expect(same).toEqual(before);
  });

  it("null clears a nullable member; non-nullable members refuse null", async () => {
    const body = await create(acct, httpMonitor({ slaTarget: 99.5 }));
    expect((await patch(body.id, { slaTarget: null })).slaTarget).toBeNull();
    const res = await acct.patch(`/monitor/${body.id}`, { enabled: null });
    expect(refusal(res)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [{ pointer: "/enabled", reason: "wrong_type", value: null, expected: "boolean" }],
    });
  });

  it("refuses create-only members, listing what an update accepts", async () => {
    const body = await create(acct, httpMonitor());
    const res = await acct.patch(`/monitor/${body.id}`, { contacts: [], alertSubscriptions: [] });
    expect(refusal(res)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [
        { pointer: "/contacts", reason: "unknown_member", allowed: updateMembers },
        { pointer: "/alertSubscriptions", reason: "unknown_member", allowed: updateMembers },
      ],
    });
  });

  it("re-validates the result: an interval the plan lacks is refused", async () => {
    const body = await create(acct, httpMonitor());
    const res = await acct.patch(`/monitor/${body.id}`, { interval: 10 });
    expect(refusal(res)).toMatchObject({ status: 422, code: "invalid_interval" });
  });

  it("merges recheck members; a null minNumDown clears it", async () => {
    const body = await create(acct, httpMonitor({ recheck: { strategy: "minNumDown", minNumDown: 3 } }));
    expect((await patch(body.id, { recheck: { minNumDown: 5 } })).recheck).toEqual({
      strategy: "minNumDown",
      minNumDown: 5,
    });
    const needed = await acct.patch(`/monitor/${body.id}`, { recheck: { minNumDown: null } });
    expect(refusal(needed)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [{ pointer: "/recheck/minNumDown", reason: "required" }],
    });
    expect(
      (await patch(body.id, { recheck: { strategy: "fullAgreement", minNumDown: null } })).recheck,
    ).toEqual({
      strategy: "fullAgreement",
    });
  });

  it("merges locations members into the stored ones", async () => {
    const body = await create(acct, httpMonitor({ locations: { pools: ["westeurope", "easteurope"] } }));
    const after = await patch(body.id, { locations: { fallback: "world" } });
    expect(after.locations).toEqual({
      pools: ["westeurope", "easteurope"],
      fallback: "world",
      excludedAgents: [],
    });
    const fewer = await acct.patch(`/monitor/${body.id}`, { locations: { pools: ["africa"] } });
    expect(refusal(fewer)).toMatchObject({ status: 422, code: "insufficient_agents", matched: 3 });
  });
});

describe("settings merge", () => {
  it("merges sent members into the stored settings", async () => {
    const body = await create(
      acct,
      httpMonitor({ settings: { timeout: 1000, keywords: "ok", method: "P" } }),
    );
    const after = await patch(body.id, { settings: { timeout: 2000 } });
    expect(after.settings).toMatchObject({ timeout: 2000, keywords: "ok", method: "P" });
  });

  it("replaces arrays whole", async () => {
    const body = await create(
      acct,
      httpMonitor({
        settings: {
          headers: [
            { name: "A", value: "1" },
            { name: "B", value: "2" },
          ],
          errorStatuses: [500, 502],
        },
      }),
    );
    const after = await patch(body.id, {
      settings: { headers: [{ name: "C", value: "3" }], errorStatuses: [503] },
    });
    expect(after.settings.headers).toEqual([{ name: "C", value: "3" }]);
    expect(after.settings.errorStatuses).toEqual([503]);
  });

  it("null clears a settings member back to its default", async () => {
    const body = await create(acct, httpMonitor({ settings: { timeout: 1000, keywords: "ok" } }));
    const after = await patch(body.id, { settings: { timeout: null, keywords: null } });
    expect(after.settings.timeout).toBe(40000);
    expect(after.settings).not.toHaveProperty("keywords");
  });

  it("checks rules on the merged result: turning assertMode on needs the excluded members cleared", async () => {
    const body = await create(acct, httpMonitor({ settings: { keywords: "ok" } }));
    const res = await acct.patch(`/monitor/${body.id}`, { settings: { assertMode: true } });
    expect(refusal(res)).toEqual({
      status: 422,
      code: "invalid_settings",
      errors: [{ pointer: "/settings/keywords", reason: "excluded_by_assert_mode", value: "ok" }],
    });
    const after = await patch(body.id, { settings: { assertMode: true, keywords: null } });
    expect(after.settings.assertMode).toBe(true);
  });

  it("the attached alias merges per kind", async () => {
    const body = await create(acct, httpMonitor({ attached: { dnsbl: true } }));
    const after = await patch(body.id, { attached: { sslExp: true } });
    expect(after.settings.attached).toMatchObject({ dnsbl: { enabled: true }, sslExp: { enabled: true } });
    const off = await patch(body.id, { settings: { attached: { dnsbl: false } } });
    expect(off.settings.attached).toMatchObject({ dnsbl: { enabled: false }, sslExp: { enabled: true } });
    const cleared = await patch(body.id, { settings: { attached: null } });
    expect(Object.values(cleared.settings.attached)).toEqual(Array(4).fill({ enabled: false }));
  });

  it("a required settings member cannot be cleared", async () => {
    const enterprise = await sb.account({ plan: "enterprise" });
    const counter = await create(enterprise, {
      type: "counter",
      settings: { probeUrl: "https://probe.internal/" },
    });
    const res = await enterprise.patch(`/monitor/${counter.id}`, { settings: { probeUrl: null } });
    expect(refusal(res)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [{ pointer: "/settings/probeUrl", reason: "required" }],
    });
    const flow = await create(acct, {
      type: "cntCheck",
      url: uniqueUrl(),
      locations: everywhere,
      settings: { keyword: "Welcome" },
    });
    const keyword = await acct.patch(`/monitor/${flow.id}`, { settings: { keyword: null } });
    expect(refusal(keyword)).toEqual({
      status: 422,
      code: "invalid_settings",
      errors: [{ pointer: "/settings/keyword", reason: "required" }],
    });
  });
});

describe("tags", () => {
  it("tags replaces the whole set", async () => {
    const body = await create(acct, httpMonitor({ tags: ["a", "b"] }));
    expect((await patch(body.id, { tags: ["c"] })).tags).toEqual(["c"]);
    expect((await patch(body.id, { tags: [] })).tags).toEqual([]);
  });

  it("addTags and removeTags edit the set", async () => {
    const body = await create(acct, httpMonitor({ tags: ["a", "b"] }));
    expect((await patch(body.id, { addTags: ["c", "a"] })).tags).toEqual(["a", "b", "c"]);
    expect((await patch(body.id, { removeTags: ["b", "zz"] })).tags).toEqual(["a", "c"]);
    expect((await patch(body.id, { addTags: ["d"], removeTags: ["a"] })).tags).toEqual(["c", "d"]);
  });

  it("tags never goes with addTags or removeTags", async () => {
    const body = await create(acct, httpMonitor({ tags: ["a"] }));
    for (const edit of [{ addTags: ["b"] }, { removeTags: ["a"] }]) {
      const res = await acct.patch(`/monitor/${body.id}`, { tags: ["x"], ...edit });
      expect(refusal(res)).toEqual({
        status: 422,
        code: "validation_failed",
        errors: [{ pointer: "/tags", reason: "mutually_exclusive" }],
      });
    }
    expect((await acct.get(`/monitor/${body.id}`)).body.tags).toEqual(["a"]);
  });
});

describe("type", () => {
  it("the same type (or its alias) is accepted", async () => {
    const body = await create(acct, httpMonitor());
    expect((await patch(body.id, { type: "http" })).type).toBe("http");
    const waterfall = await create(acct, { type: "waterfall", url: uniqueUrl(), locations: everywhere });
    expect((await patch(waterfall.id, { type: "pageSpeed" })).type).toBe("waterfall");
  });

  it("another type answers 422 type_immutable", async () => {
    const body = await create(acct, httpMonitor());
    const res = await acct.patch(`/monitor/${body.id}`, { type: "api" });
    expect(refusal(res)).toEqual({
      status: 422,
      code: "type_immutable",
      errors: [{ pointer: "/type", value: "api", allowed: ["http"] }],
    });
  });
});

describe("enabled", () => {
  it("false pauses the monitor; true resumes checking", async () => {
    const body = await create(acct, httpMonitor());
    const pausedAt = await sb.advance(10);
    const paused = await patch(body.id, { enabled: false });
    expect(paused).toMatchObject({ enabled: false, state: "paused", since: pausedAt });
    const resumedAt = await sb.advance(10);
    const resumed = await patch(body.id, { enabled: true });
    expect(resumed).toMatchObject({ enabled: true, state: "up", since: resumedAt });
  });

  it("repeating the current value keeps the state and its start", async () => {
    const body = await create(acct, httpMonitor());
    await sb.advance(10);
    expect(await patch(body.id, { enabled: true })).toMatchObject({ state: "up", since: body.since });
  });
});

describe("url", () => {
  it("a new url re-checks uniqueness by effective address", async () => {
    const first = await create(acct, httpMonitor({ url: "https://first.example.com/" }));
    const second = await create(acct, httpMonitor());
    const res = await acct.patch(`/monitor/${second.id}`, { url: "HTTPS://FIRST.example.com" });
    expect(refusal(res)).toEqual({
      status: 409,
      code: "duplicate_monitor",
      existingId: first.id,
      errors: [{ pointer: "/url", value: "https://first.example.com/", existingId: first.id }],
    });
  });

  it("a monitor may keep its own address, and moves effectiveUrl with a new one", async () => {
    const body = await create(acct, httpMonitor({ url: "https://own.example.com/" }));
    expect((await patch(body.id, { url: "https://own.example.com/" })).url).toBe("https://own.example.com/");
    const moved = await patch(body.id, { url: "moved.example.com" });
    expect(moved).toMatchObject({ url: "moved.example.com", effectiveUrl: "http://moved.example.com/" });
  });

  it("a new url follows the type's rules", async () => {
    const body = await create(acct, httpMonitor());
    const res = await acct.patch(`/monitor/${body.id}`, { url: "ftp://x.example.com/" });
    expect(refusal(res)).toMatchObject({ status: 422, code: "invalid_url" });
    const blocked = await acct.patch(`/monitor/${body.id}`, { url: "https://a.blocked.test/" });
    expect(refusal(blocked)).toMatchObject({ status: 403, code: "url_blacklisted" });
  });
});

describe("not found", () => {
  it("answers 404 for a missing id and for another account's monitor alike", async () => {
    const missing = "00000000-0000-4000-8000-000000000000";
    const res = await acct.patch(`/monitor/${missing}`, { name: "x" });
    expect(refusal(res)).toEqual({ status: 404, code: "not_found" });
    const body = await create(acct, httpMonitor());
    const other = await sb.account();
    const foreign = await other.patch(`/monitor/${body.id}`, { name: "taken" });
    expect(refusal(foreign)).toEqual({ status: 404, code: "not_found" });
    expect((await acct.get(`/monitor/${body.id}`)).body.name).toBe(body.name);
  });
});
