import { randomUUID } from "node:crypto";
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Store } from "../../src/sandbox/core/store.ts";
import { startSandbox } from "../../src/sandbox/index.ts";
import { contact, monitor } from "../helpers/fixtures.ts";
import { Client, startTestSandbox } from "../helpers/sandbox.ts";
import { key, monitorBody, settle } from "./jobs/helpers.ts";

/** `startSandbox({snapshotFile})`: state kept as a JSON snapshot, written on `save()` and `close()`. */
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "vigil-snapshot-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fileMode = (file: string) => statSync(file).mode & 0o777;

describe("Store snapshots", () => {
  it("carry every document and meta value into a new in-memory store", () => {
    const store = new Store();
    store.put("things", { id: "t1", accountId: "a1", name: "one" });
    store.put("things", { id: "t2", accountId: "a2", name: "two" });
    store.put("others", { id: "o1", accountId: "a1" });
    store.remove("others", "o1");
    store.setMeta("counter", { at: 5 });
    const copy = Store.fromSnapshot(JSON.parse(JSON.stringify(store.snapshot())));
    expect(copy.all("things", "a1")).toEqual([{ id: "t1", accountId: "a1", name: "one" }]);
    expect(copy.owned("things", "a2", "t2")).toEqual({ id: "t2", accountId: "a2", name: "two" });
    expect(copy.scan("others")).toEqual([]);
    expect(copy.meta("counter")).toEqual({ at: 5 });
    expect(copy.snapshot()).toEqual({ docs: { things: store.scan("things") }, meta: { counter: { at: 5 } } });
  });

  it("are refused inside a transaction, whose writes may still be undone", () => {
    const store = new Store();
    expect(() => store.transaction(() => store.snapshot())).toThrow(/inside a transaction/);
  });
});

describe("restart from the snapshot file", () => {
  it("keeps the default account, every object, cursors, the clock and idempotency records", async () => {
    const snapshotFile = join(dir, "objects.json");
    const first = await startTestSandbox({ snapshotFile });
    const c = first.client;
    const now = await first.advance(3600);
    const pager = await contact(c, { type: "http", address: "https://hooks.example.com/pager" });
    const email = await contact(c, { type: "email", address: "team@example.com" });
    const monitors = [await monitor(c), await monitor(c), await monitor(c)];
    const replayKey = { headers: { "idempotency-key": "snapshot-replay" } };
    const keyedBody = monitorBody({ name: "Keyed" });
    const keyed = await c.post("/monitor", keyedBody, replayKey);
    expect(keyed.status, keyed.text).toBe(201);
    monitors.push(keyed.body.id);
    const webhook = await c.post("/webhook", {
      url: "https://hooks.example.com/vigil",
      events: ["monitor.down"],
      scope: { monitorIds: [monitors[0]] },
    });
    expect(webhook.status, webhook.text).toBe(201);
    const window = await c.post("/maintenance", {
      name: "Deploy",
      from: now + 3600,
      to: now + 7200,
      monitorIds: [monitors[0]],
    });
    expect(window.status, window.text).toBe(201);
    const page = await c.post("/statuspage", { slug: `p-${randomUUID().slice(0, 8)}`, title: "Acme" });
    expect(page.status, page.text).toBe(201);
    const components = await c.put(`/statuspage/${page.body.id}/component`, {
      components: [{ name: "API", monitorId: monitors[1] }],
    });
    expect(components.status, components.text).toBeLessThan(300);

    const paths = [
      `/contact/${pager}`,
      `/contact/${email}`,
      ...monitors.map((id) => `/monitor/${id}`),
      `/webhook/${webhook.body.id}`,
      `/maintenance/${window.body.id}`,
      `/statuspage/${page.body.id}`,
      `/statuspage/${page.body.id}/component`,
    ];
    // Byte for byte, but for the sandbox's own origin (a status page's publicUrl): each start picks a free port.
    const read = async (client: Client, path: string) =>
      (await client.get(path)).text.replaceAll(client.url, "<origin>");
    const before = new Map<string, string>();
    for (const path of paths) before.set(path, await read(c, path));
    const firstPage = await c.get("/monitor?limit=2&sort=created");
    const cursor = encodeURIComponent(firstPage.body.nextCursor);
    const secondPage = await c.get(`/monitor?limit=2&sort=created&cursor=${cursor}`);
    const sync = encodeURIComponent(firstPage.body.syncCursor);
    await first.close();
    expect(fileMode(snapshotFile)).toBe(0o600);
    expect(JSON.parse(readFileSync(snapshotFile, "utf8")).format_version).toBe(1);

    const second = await startTestSandbox({ snapshotFile });
    try {
      expect(second.accountId).toBe(first.accountId);
      expect(second.adminToken).toBe(first.adminToken);
      // A fresh owner token is minted per start; the earlier one still verifies (the signing key is kept).
      const earlier = new Client(second.url, first.token);
      expect((await second.client.get("/account")).body.id).toBe(first.accountId);
      for (const path of paths) expect(await read(earlier, path), path).toBe(before.get(path));
      // The clock offset: the sandbox is still an hour ahead.
      const clock = (await second.admin.post("/_sandbox/clock", {})).body.now as number;
      expect(clock - now).toBeGreaterThanOrEqual(0);
      expect(clock - now).toBeLessThanOrEqual(5);
      // A page cursor of the earlier run continues where it left off.
      const next = await earlier.get(`/monitor?limit=2&sort=created&cursor=${cursor}`);
      expect(next.status, next.text).toBe(200);
      expect(next.text).toBe(secondPage.text);
      // The change sequence went on from where it was: a sync cursor sees exactly the new monitor.
      expect((await earlier.get(`/monitor?updatedSince=${sync}`)).body.data).toEqual([]);
      const added = await monitor(earlier);
      const changed = await earlier.get(`/monitor?updatedSince=${sync}`);
      expect(changed.body.data.map((m: { id: string }) => m.id)).toEqual([added]);
      // The idempotency record replays byte for byte; another body under the key conflicts.
      const replay = await earlier.post("/monitor", keyedBody, replayKey);
      expect(replay.headers["idempotency-replayed"]).toBe("true");
      expect(replay.text).toBe(keyed.text);
      expect((await earlier.post("/monitor", monitorBody(), replayKey)).status).toBe(409);
    } finally {
      await second.close();
    }
  });

  it("brings a job that was running at close back interrupted; resumed, it finishes", async () => {
    const snapshotFile = join(dir, "job.json");
    const first = await startTestSandbox({ snapshotFile });
    const acct = await first.account({ plan: "enterprise", featureOverrides: { monitors: 10_000 } });
    // In memory the runner does a few thousand items a second: far more than can finish before the close.
    const total = 5000;
    const items = Array.from({ length: total }, () => monitorBody());
    const created = await acct.post("/monitor/bulk", { items }, key());
    expect(created.status, created.text).toBe(202);
    const jobId: string = created.body.jobId;
    for (let i = 0; (await acct.get(`/job/${jobId}`)).body.progress.done === 0; i++) {
      if (i > 400) throw new Error("the job did not start");
      await new Promise((r) => setTimeout(r, 5));
    }
    await first.close();
    const saved = JSON.parse(readFileSync(snapshotFile, "utf8"));
    expect(saved.docs.job.find((j: { id: string }) => j.id === jobId).state).toBe("running");

    const second = await startTestSandbox({ snapshotFile });
    try {
      const c = new Client(second.url, acct.token);
      const interrupted = await c.get(`/job/${jobId}`);
      expect(interrupted.body.state).toBe("interrupted");
      const done = interrupted.body.progress.done as number;
      expect(done).toBeGreaterThan(0);
      expect(done).toBeLessThan(total);
      const resumed = await c.post(`/job/${jobId}/resume`, undefined, key());
      expect(resumed.body).toEqual({ jobId, accepted: total - done });
      const finished = await settle(c, jobId);
      expect(finished.body).toMatchObject({ state: "succeeded", progress: { done: total, total } });
      expect((await c.get("/monitor?expand=count&limit=1")).body.count.total).toBe(total);
    } finally {
      await second.close();
    }
  });

  it("save() writes a checkpoint while running, replacing the file whole", async () => {
    const folder = join(dir, "checkpoint");
    mkdirSync(folder);
    const snapshotFile = join(folder, "sandbox.json");
    const sb = await startTestSandbox({ snapshotFile });
    const copy = join(dir, "checkpoint-copy.json");
    try {
      const id = await monitor(sb.client);
      // Two saves at once run one after the other, each through its own temporary file.
      await Promise.all([sb.save(), sb.save()]);
      expect(readdirSync(folder)).toEqual(["sandbox.json"]);
      expect(fileMode(snapshotFile)).toBe(0o600);
      // What a kill after the checkpoint would leave: the monitor is in it.
      copyFileSync(snapshotFile, copy);
      const revived = await startTestSandbox({ snapshotFile: copy });
      try {
        expect((await new Client(revived.url, sb.token).get(`/monitor/${id}`)).status).toBe(200);
      } finally {
        await revived.close();
      }
    } finally {
      await sb.close();
    }
  });

  it("refuses a damaged or foreign file with an error naming it, and leaves the file as it was", async () => {
    const cases: [string, RegExp][] = [
      ["{not json", /is not valid JSON/],
      ['{"docs": {}, "meta": {}}', /has no format_version: it is not a vigil sandbox snapshot/],
      ['{"format_version": 2, "docs": {}, "meta": {}}', /has format_version 2; this vigil reads version 1/],
      [
        '{"format_version": 1, "docs": {"monitor": [{"id": 7}]}, "meta": {}}',
        /is damaged at docs\.monitor\.0\.id/,
      ],
      ['{"format_version": 1, "docs": {}}', /is damaged at meta/],
    ];
    for (const [i, [text, message]] of cases.entries()) {
      const snapshotFile = join(dir, `bad-${i}.json`);
      writeFileSync(snapshotFile, text);
      const start = startSandbox({ snapshotFile });
      await expect(start).rejects.toThrow(message);
      await expect(start).rejects.toThrow(`The sandbox snapshot ${snapshotFile} `);
      await expect(start).rejects.toMatchObject({ code: "VIGIL_SNAPSHOT_INVALID" });
      expect(readFileSync(snapshotFile, "utf8")).toBe(text);
    }
  });

  it("names the file when it cannot be read at all", async () => {
    const snapshotFile = join(dir, "a-directory.json");
    mkdirSync(snapshotFile);
    await expect(startSandbox({ snapshotFile })).rejects.toThrow(
      `The sandbox snapshot ${snapshotFile} cannot be read: EISDIR`,
    );
  });

  it("refuses dataFile and snapshotFile together", async () => {
    await expect(
      startSandbox({ dataFile: join(dir, "both.db"), snapshotFile: join(dir, "both.json") }),
    ).rejects.toThrow(/dataFile or snapshotFile, not both/);
  });
});
