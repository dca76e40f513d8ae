/**
 * BatchedWrites against the sandbox: writes of one kind that arrive together go out as one bulk request, and
 * each caller gets its own answer; a lone write takes its single route; an update that does not fit the bulk
 * item takes its own; an object another state's batch (or a killed run's) made is never adopted: its
 * resource is refused as a duplicate naming it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "../../src/api/index.ts";
import {
  derivedKeys,
  diffResource,
  engineKind,
  type Members,
  type ObjectSession,
  openSession,
} from "../../src/engine/index.ts";
import { canonicalJson } from "../../src/engine/state/index.ts";
import { type Client, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const monitors = engineKind("monitor");
const contacts = engineKind("contact");
const alerts = engineKind("alertSubscription");
const unique = () => Math.random().toString(36).slice(2, 10);

/** A fresh account and a provider-like session on it (the calls counted from here). */
async function session(): Promise<{ account: Client; s: ObjectSession }> {
  const account = await sb.account({ plan: "enterprise" });
  const s = openSession(sb.url, account.token, { keyPrefix: "test" });
  return { account, s };
}

/** The API calls since the last look, by route (the sandbox's own routes and reads left out). */
async function writes(): Promise<Record<string, number>> {
  const stats = (await sb.admin.get("/_sandbox/stats")).body as { byRoute: Record<string, number> };
  await sb.admin.delete("/_sandbox/stats");
  return Object.fromEntries(
    Object.entries(stats.byRoute).filter(
      ([route]) => !route.includes("/_sandbox/") && !route.startsWith("GET "),
    ),
  );
}

const keysFor = (members: Members) => (body: Members, attempt: number) =>
  derivedKeys("test", ["create", canonicalJson(members)], [canonicalJson(body), attempt]);

const monitor = (url: string, extra: Members = {}): Members => ({
  type: "http",
  url,
  name: url,
  interval: 60,
  locations: { pools: ["allworld"] },
  ...extra,
});

describe("BatchedWrites", () => {
  it("sends creates arriving together as one job; an item that fails fails alone, at its own members", async () => {
    const { account, s } = await session();
    await writes();
    const base = `https://${unique()}.example.com`;
    const desired = [
      monitor(`${base}/a`),
      monitor(`${base}/b`, { locations: { pools: ["nowhere"] } }),
      monitor(`${base}/c`),
      monitor(`${base}/d`),
    ];
    const answers = await Promise.allSettled(desired.map((d) => s.writes.create(monitors, d, keysFor(d))));
    expect(answers.map((a) => a.status)).toEqual(["fulfilled", "rejected", "fulfilled", "fulfilled"]);
    expect(await writes()).toEqual({ "POST /monitor/bulk": 1 });

    const refused = (answers[1] as PromiseRejectedResult).reason;
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).memberErrors.map((e) => e.pointer)).toEqual(["/locations/pools/0"]);
    // Each caller has its own object, read back whole: a plan against it is empty.
    for (const [i, a] of answers.entries()) {
      if (a.status !== "fulfilled") continue;
      expect(a.value.url).toBe(desired[i]!.url);
      expect(
        diffResource({ kind: monitors, desired: desired[i]!, live: a.value, lineage: "t" }).changes,
      ).toEqual([]);
    }
    expect((await account.get("/monitor?limit=10")).body.data).toHaveLength(3);
  }, 60_000);

  it("a lone write takes its single route: no job, no polling", async () => {
    const { s } = await session();
    await writes();
    const d = monitor(`https://${unique()}.example.com/`);
    const row = await s.writes.create(monitors, d, keysFor(d));
    expect(await writes()).toEqual({ "POST /monitor": 1 });
    await s.writes.update(
      monitors,
      row,
      { ...d, interval: 120 },
      [{ op: "replace", path: "/interval", value: 120 }],
      keysFor(d)(d, 1),
    );
    await s.writes.remove(monitors, row, `delete-${row.id}`);
    expect(await writes()).toEqual({ "PATCH /monitor/{id}": 1, "DELETE /monitor/{id}": 1 });
  }, 60_000);

  it("updates that fit go as one job; one that moves a contact's address takes its own PATCH", async () => {
    const { account, s } = await session();
    const desired = [0, 1, 2].map((i) => ({
      type: "email",
      address: `c${i}-${unique()}@example.com`,
      name: `C${i}`,
    }));
    const rows = await Promise.all(desired.map((d) => s.writes.create(contacts, d, keysFor(d))));
    await writes();
    const moved = `moved-${unique()}@example.com`;
    const next = [
      { ...desired[0]!, name: "Renamed 0" },
      { ...desired[1]!, name: "Renamed 1" },
      { ...desired[2]!, address: moved },
    ];
    await Promise.all(
      next.map((d, i) => {
        const changes =
          d.address !== desired[i]!.address
            ? [{ op: "replace" as const, path: "/address", value: d.address }]
            : [{ op: "replace" as const, path: "/name", value: d.name }];
        return s.writes.update(contacts, rows[i]!, d, changes, derivedKeys("test", ["update", i], [changes]));
      }),
    );
    expect(await writes()).toEqual({ "POST /contact/bulk": 1, "PATCH /contact/{id}": 1 });
    const live = await Promise.all(rows.map(async (r) => (await account.get(`/contact/${r.id}`)).body));
    expect(live.map((c) => [c.name, c.address])).toEqual([
      ["Renamed 0", desired[0]!.address],
      ["Renamed 1", desired[1]!.address],
      ["C2", moved],
    ]);
  }, 60_000);

  it("subscriptions go as one transaction; a refused item fails alone and the rest are sent again", async () => {
    const { account, s } = await session();
    const base = `https://${unique()}.example.com`;
    const ms = await Promise.all(
      [0, 1, 2].map((i) => s.writes.create(monitors, monitor(`${base}/${i}`), keysFor({ i }))),
    );
    const c = await s.writes.create(
      contacts,
      { type: "email", address: `${unique()}@example.com` },
      keysFor({}),
    );
    await writes();
    const desired = ms.map((m, i) => ({
      monitorId: m.id,
      contactId: i === 1 ? "no-such-contact" : c.id,
      alertTypes: ["down"],
    }));
    const answers = await Promise.allSettled(desired.map((d) => s.writes.create(alerts, d, keysFor(d))));
    expect(answers.map((a) => a.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(
      (answers[1] as PromiseRejectedResult).reason.memberErrors.map((e: { pointer: string }) => e.pointer),
    ).toEqual(["/contactId"]);
    expect(await writes()).toEqual({ "POST /alert/bulk": 2 });

    // Deletes of three monitors: validate, then the delete with its count; the subscriptions go with them.
    await Promise.all(ms.map((m) => s.writes.remove(monitors, m, `delete-${m.id}`)));
    expect(await writes()).toEqual({
      "POST /monitor/bulk-delete-validate": 1,
      "POST /monitor/bulk-delete": 1,
    });
    expect((await account.get("/monitor?limit=10")).body.data).toHaveLength(0);
  }, 60_000);

  it("objects another state's batch made are never adopted, even identical: each create is refused, naming its object", async () => {
    const { account, s } = await session();
    const base = `https://${unique()}.example.com`;
    const desired = [0, 1, 2, 3, 4].map((i) => monitor(`${base}/${i}`));
    // Another state (or a run killed before it saved its state) made three of the five in its own batch.
    const earlier = await s.ops.monitor.bulkCreate(desired.slice(0, 3) as never, {
      idempotencyKey: `other-${unique()}`,
    });
    const theirs = earlier.rows.map((r) => String(r.entityId));
    // This state's run is a new process, whose batch holds all five, each exactly what an object describes.
    const again = openSession(sb.url, account.token, { keyPrefix: "test" });
    const answers = await Promise.allSettled(
      desired.map((d) => again.writes.create(monitors, d, keysFor(d))),
    );
    expect(answers.map((a) => a.status)).toEqual([
      "rejected",
      "rejected",
      "rejected",
      "fulfilled",
      "fulfilled",
    ]);
    for (const [i, id] of theirs.entries()) {
      const reason = (answers[i] as PromiseRejectedResult).reason as ApiError;
      expect(reason.code).toBe("duplicate_monitor");
      expect(JSON.stringify(reason.problem)).toContain(id);
    }
    expect((await account.get("/monitor?limit=20")).body.data).toHaveLength(5);
  }, 60_000);
});
