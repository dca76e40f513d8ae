/**
 * BatchedReads against the sandbox: reads of one kind that arrive together cost one listing, a lone read its
 * own GET, a gone object answers undefined, a kind that takes several pages to list is listed only for
 * more reads than it has pages, and reads that come in waves wait for the whole wave.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BatchedReads, engineKind } from "../../src/engine/index.ts";
import { type Client, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";
import { engineAccount } from "./e2e/helpers.ts";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const contacts = engineKind("contact");

/** The API calls since the last look, by route (the sandbox's own routes left out). */
async function calls(): Promise<Record<string, number>> {
  const stats = (await sb.admin.get("/_sandbox/stats")).body as { byRoute: Record<string, number> };
  await sb.admin.delete("/_sandbox/stats");
  return Object.fromEntries(Object.entries(stats.byRoute).filter(([route]) => !route.includes("/_sandbox/")));
}

/** `n` email contacts, made through the API 50 at a time; answers their ids. */
async function newContacts(account: Client, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i += 50) {
    const made = await Promise.all(
      Array.from({ length: Math.min(50, n - i) }, (_, j) =>
        account.post(
          "/contact",
          { type: "email", address: `c${i + j}-${randomUUID()}@example.com` },
          {
            headers: { "idempotency-key": randomUUID() },
          },
        ),
      ),
    );
    for (const res of made) {
      expect(res.status, res.text).toBe(201);
      ids.push(res.body.id);
    }
  }
  return ids;
}

describe("BatchedReads", () => {
  it("answers reads arriving together with one listing, and a lone read with its own GET", async () => {
    const { account, ops } = await engineAccount(sb);
    const ids = await newContacts(account, 6);
    await account.delete(`/contact/${ids[5]}`);
    const reads = new BatchedReads(ops);
    await calls();

    expect(new Set(ids).size).toBe(6);
    const rows = await Promise.all(ids.map((id) => reads.read(contacts, { id })));
    expect(rows.slice(0, 5).map((r) => r?.id)).toEqual(ids.slice(0, 5));
    expect(rows[5]).toBeUndefined();
    expect(await calls()).toEqual({ "GET /contact": 1 });

    const one = await reads.read(contacts, { id: ids[0]! });
    expect(one).toEqual(rows[0]);
    expect(await calls()).toEqual({ "GET /contact/{id}": 1 });
    expect(await reads.read(contacts, { id: ids[5]! })).toBeUndefined();
  });

  it("a kind of several pages is listed only for more reads than its pages", async () => {
    const { account, ops } = await engineAccount(sb);
    const ids = await newContacts(account, 510);
    const reads = new BatchedReads(ops);
    await calls();

    // The first batch finds out the size: two pages.
    const first = await Promise.all(ids.slice(0, 3).map((id) => reads.read(contacts, { id })));
    expect(first.map((r) => r?.id)).toEqual(ids.slice(0, 3));
    expect(await calls()).toEqual({ "GET /contact": 2 });

    // Two reads cost two GETs, no more than the listing would; three take the listing again.
    await Promise.all(ids.slice(3, 5).map((id) => reads.read(contacts, { id })));
    expect(await calls()).toEqual({ "GET /contact/{id}": 2 });
    await Promise.all(ids.slice(5, 8).map((id) => reads.read(contacts, { id })));
    expect(await calls()).toEqual({ "GET /contact": 2 });
  }, 60_000);

  it("reads a host sends as each answer comes back join one wave: a listing per round of its parallelism", async () => {
    const { account, ops } = await engineAccount(sb);
    const ids = await newContacts(account, 10);
    const reads = new BatchedReads(ops);
    await calls();
    // A host of parallelism 10, five rounds: each worker sends its next read 5 to 77 ms after its answer,
    // spread wider than the shortest quiet window (25 ms), as a busy host's calls are.
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    await Promise.all(
      ids.map(async (id, i) => {
        for (let round = 0; round < 5; round++) {
          expect((await reads.read(contacts, { id }))?.id).toBe(id);
          await sleep(5 + i * 8);
        }
      }),
    );
    const made = await calls();
    expect(made["GET /contact/{id}"]).toBeUndefined();
    // One listing per round (the first learns the parallelism), where a fixed window split each round in three.
    expect(made["GET /contact"]).toBeLessThanOrEqual(6);
  }, 60_000);

  it("a refused listing fails every read that waited for it", async () => {
    const { account, ops } = await engineAccount(sb);
    const ids = await newContacts(account, 3);
    await sb.admin.post("/_sandbox/faults", { rate: 1, statuses: [503], routes: ["GET /contact"] });
    try {
      const reads = new BatchedReads(ops);
      const answers = await Promise.allSettled(ids.map((id) => reads.read(contacts, { id })));
      expect(answers.map((a) => a.status)).toEqual(["rejected", "rejected", "rejected"]);
    } finally {
      await sb.admin.delete("/_sandbox/faults");
    }
  }, 60_000);
});
