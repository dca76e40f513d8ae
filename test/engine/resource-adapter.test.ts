/**
 * The resource adapter Terraform and Pulumi share, against the real sandbox: its checks, its diff input, its
 * writes with their idempotency keys, and the refusals it hands the frontend to lay out.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "../../src/api/index.ts";
import { engineKind, type ObjectSession, openSession, type Row, writeNonce } from "../../src/engine/index.ts";
import {
  type AdapterFrontend,
  ResourceAdapter,
  type ServiceRefusal,
} from "../../src/engine/resource-adapter.ts";
import { type Client, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

/** A frontend that keeps what it is handed, so the test sees the refusal as every frontend gets it. */
class Refused extends Error {
  readonly refusal: ServiceRefusal;
  constructor(refusal: ServiceRefusal) {
    super(refusal.summary);
    this.refusal = refusal;
  }
}
class Shared extends Error {}
/** What a frontend keeps of a create whose object exists though a later write failed. */
class Unfinished extends Error {
  readonly created: Row;
  readonly refusal: unknown;
  constructor(created: Row, refusal: unknown) {
    super(`unfinished ${String(created.id)}`);
    this.created = created;
    this.refusal = refusal;
  }
}
const frontend: AdapterFrontend = {
  name: "test_monitor",
  keyPrefix: "ts",
  lineage: "test",
  refused: (refusal) => new Refused(refusal),
  shared: (id) => new Shared(id),
};

const unique = () => Math.random().toString(36).slice(2, 10);
const monitor = (members: Record<string, unknown> = {}): Record<string, unknown> => ({
  type: "http",
  url: `https://${unique()}.example.com/health`,
  locations: { pools: ["allworld"] },
  ...members,
});

let sb: TestSandbox;
let account: Client;
let session: ObjectSession;
const monitors = new ResourceAdapter(engineKind("monitor"), frontend);

beforeAll(async () => {
  sb = await startTestSandbox();
  account = await sb.account({ plan: "business" });
  session = openSession(sb.url, account.token, { keyPrefix: "ts" });
});
afterAll(async () => sb?.close());

describe("validate", () => {
  const members = monitor({ settings: { method: "PUT", body: 5 } });

  it("gives the engine's checks at members, never one of the resource as a whole (its address is made up)", () => {
    expect(monitors.validate(members, []).map((d) => d.pointer)).toEqual([
      "/settings/method",
      "/settings/body",
    ]);
  });

  it("leaves unjudged what is at, under or above a member still unknown", () => {
    expect(monitors.validate(members, ["/settings/body"]).map((d) => d.pointer)).toEqual([
      "/settings/method",
    ]);
    expect(monitors.validate(members, ["/settings/body/0"]).map((d) => d.pointer)).toEqual([
      "/settings/method",
    ]);
    expect(monitors.validate(members, ["/settings"])).toEqual([]);
  });
});

describe("judge", () => {
  it("judges a create against the account, and an update against the object as last read", async () => {
    const refused = await monitors.judge(session, monitor({ interval: 45 }));
    expect(refused.errors.map((d) => [d.pointer, d.code])).toEqual([["/interval", "invalid_interval"]]);
    const live = monitor({ interval: 60 });
    expect((await monitors.judge(session, { ...live, interval: 120 }, live)).errors).toEqual([]);
  });
});

describe("changes", () => {
  const desired = monitor({ interval: 120, name: "Shop" });
  const live = { ...desired, id: "m1" };
  const { interval: _, ...dropped } = desired;

  it("resets a member the config set at the last write and no longer sets", () => {
    const configured = ["/type", "/url", "/locations/pools", "/interval", "/name"];
    expect(monitors.changes(dropped, live, configured).map((c) => c.path)).toEqual(["/interval"]);
  });

  it("without a record of what was configured, adopts the object: what the config leaves out is not managed", () => {
    expect(monitors.changes(dropped, live)).toEqual([]);
    expect(monitors.changes({ ...dropped, name: "Shop 2" }, live).map((c) => c.path)).toEqual(["/name"]);
  });
});

describe("writes", () => {
  it("creates, updates, reads back and removes; a removed object reads as gone", async () => {
    const desired = monitor({ name: `adapter-${unique()}` });
    const created = await monitors.create(session, desired, writeNonce(), () => {
      throw new Error("the create finished");
    });
    const renamed = { ...desired, name: `${desired.name} (renamed)` };
    await monitors.update(session, created, renamed, monitors.changes(renamed, created), writeNonce());
    const after = await monitors.readBack(session, created, () => new Error("gone"));
    expect(after).toMatchObject({ id: created.id, name: renamed.name });
    await monitors.remove(session, after);
    expect(await monitors.read(session, after)).toBeUndefined();
    await expect(monitors.readBack(session, after, () => new Error(`${after.id} is gone`))).rejects.toThrow(
      `${after.id} is gone`,
    );
    // Removing what is gone is done already.
    await monitors.remove(session, after);
  });

  it("a write replayed for a second resource of the process gets the frontend's shared error, naming the object", async () => {
    const desired = monitor();
    const nonce = writeNonce();
    const first = await monitors.create(session, desired, nonce, () => {
      throw new Error("the create finished");
    });
    const second = monitors.create(session, desired, nonce, () => {
      throw new Error("the create finished");
    });
    await expect(second).rejects.toBeInstanceOf(Shared);
    await expect(second).rejects.toThrow(String(first.id));
  });
});

describe("keys: one per intended write", () => {
  const finished = () => {
    throw new Error("the create finished");
  };
  const windows = new ResourceAdapter(engineKind("maintenance"), { ...frontend, name: "test_maintenance" });
  const window = () => ({ name: `Deploy ${unique()}`, from: 1798941600, to: 1798945200 });
  const named = async (name: unknown) =>
    ((await account.get("/maintenance?limit=100")).body.data as { name: string }[]).filter(
      (w) => w.name === name,
    );

  it("a retry of one write (its nonce), even from a new process, replays it: one object", async () => {
    const desired = window();
    const nonce = writeNonce();
    const first = await windows.create(session, desired, nonce, finished);
    const retried = await windows.create(
      openSession(sb.url, account.token, { keyPrefix: "ts" }),
      desired,
      nonce,
      finished,
    );
    expect(retried.id).toBe(first.id);
    expect(await named(desired.name)).toHaveLength(1);
  });

  it("the same members written by another state (another nonce) are another write: never its object", async () => {
    const desired = window();
    const ours = await windows.create(session, desired, writeNonce(), finished);
    const theirs = await windows.create(
      openSession(sb.url, account.token, { keyPrefix: "ts" }),
      desired,
      writeNonce(),
      finished,
    );
    expect(theirs.id).not.toBe(ours.id);
    expect(await named(desired.name)).toHaveLength(2);
    // A monitor holds its address alone: the other state's create is refused, naming the object.
    const url = monitor();
    const mine = await monitors.create(session, url, writeNonce(), finished);
    const refused = await monitors
      .create(openSession(sb.url, account.token, { keyPrefix: "ts" }), url, writeNonce(), finished)
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Refused);
    expect((refused as Refused).refusal.error.code).toBe("duplicate_monitor");
    expect((refused as Refused).refusal.existing).toBe(mine.id);
  });

  it("the client's retry of a create whose answer was lost carries the same key: replayed, one object", async () => {
    const desired = window();
    // Every POST /maintenance commits, then loses its answer, until the first such loss is seen.
    await sb.admin.post("/_sandbox/faults", {
      rate: 1,
      when: "after",
      statuses: [502],
      routes: ["POST /maintenance"],
    });
    await sb.admin.delete("/_sandbox/stats");
    const created = windows.create(session, desired, writeNonce(), finished);
    for (let i = 0; ; i++) {
      const faults = (await sb.admin.get("/_sandbox/faults")).body as { injected: { after: number } };
      if (faults.injected.after > 0) break;
      if (i > 2000) throw new Error("the create was never sent");
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await sb.admin.delete("/_sandbox/faults");
    const row = await created;
    const stats = (await sb.admin.get("/_sandbox/stats")).body as { byRoute: Record<string, number> };
    expect(stats.byRoute["POST /maintenance"]).toBeGreaterThanOrEqual(2);
    expect(await named(desired.name)).toEqual([expect.objectContaining({ id: row.id })]);
  });
});

describe("writes: what a create answers", () => {
  it("hands an object created whose later writes failed to `unfinished`, with the refusal said", async () => {
    const pages = new ResourceAdapter(engineKind("statusPage"), { ...frontend, name: "test_page" });
    // The page is created; its components (a call of their own) name a monitor that does not exist.
    const desired = {
      slug: `partial-${unique()}`,
      title: "Partial",
      components: [{ name: "Shop", monitorId: "00000000-0000-4000-8000-000000000000" }],
    };
    const kept = (await pages
      .create(session, desired, writeNonce(), (created, refusal) => {
        throw new Unfinished(created, refusal);
      })
      .catch((e: unknown) => e)) as Unfinished;
    expect(kept).toBeInstanceOf(Unfinished);
    expect((await account.get(`/statuspage/${String(kept.created.id)}`)).status).toBe(200);
    expect(kept.refusal).toBeInstanceOf(Refused);
    expect((kept.refusal as Refused).refusal.summary).toBe("Could not create test_page");
  });

  it("reveals the credential a create's answer alone shows, under its output", async () => {
    const webhooks = new ResourceAdapter(engineKind("webhook"), { ...frontend, name: "test_webhook" });
    expect([...webhooks.generated]).toEqual([["secret", "generatedSecret"]]);
    expect(webhooks.isGeneratedOutput("generatedSecret")).toBe(true);
    expect(webhooks.isGeneratedOutput("secret")).toBe(false);
    const desired = {
      url: `https://hooks.example.com/${unique()}`,
      events: ["monitor.down"],
      scope: { all: true },
    };
    const row = await webhooks.create(session, desired, writeNonce(), () => {
      throw new Error("the create finished");
    });
    expect(webhooks.revealed(row, desired).generatedSecret).toMatch(/^whsec_/);
    // A secret the config set is no generated one.
    expect(
      webhooks.revealed(row, { ...desired, secret: "set-by-the-config-0123" }).generatedSecret,
    ).toBeUndefined();
  });
});

describe("refusal", () => {
  it("hands the frontend each member the service names, with the route and the problem's headline", async () => {
    const error = await monitors
      .create(session, monitor({ settings: { method: "X" } }), writeNonce(), () => {
        throw new Error("the create finished");
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Refused);
    const { refusal } = error as Refused;
    expect(refusal.summary).toBe("Could not create test_monitor");
    expect(refusal.error).toBeInstanceOf(ApiError);
    expect(refusal.head).toMatch(/^POST \/monitor: 422/);
    expect(refusal.members.map((m) => m.pointer)).toEqual(["/settings/method"]);
    expect(refusal.existing).toBeUndefined();
  });

  it("names the object a duplicate refusal points at, to import instead of creating", async () => {
    const desired = monitor();
    const first = await monitors.create(session, desired, writeNonce(), () => {
      throw new Error("the create finished");
    });
    // Another frontend (its own keys) creating a monitor of the same address is refused as a duplicate.
    const other = new ResourceAdapter(engineKind("monitor"), { ...frontend, keyPrefix: "other", name: "x" });
    const error = await other
      .create(openSession(sb.url, account.token, { keyPrefix: "other" }), desired, writeNonce(), () => {
        throw new Error("the create finished");
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Refused);
    expect((error as Refused).refusal).toMatchObject({ existing: first.id, summary: "Could not create x" });
  });

  it("returns what is no refusal of the service as it is", () => {
    const error = new TypeError("not the service's");
    expect(monitors.refusal("update", error)).toBe(error);
  });
});
