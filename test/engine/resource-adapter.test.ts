/**
 * The resource adapter Terraform and Pulumi share, against the real sandbox: its checks, its diff input, its
 * writes with their idempotency keys, and the refusals it hands the frontend to lay out.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "../../src/api/index.ts";
import { engineKind, type ObjectSession, openSession, type Row } from "../../src/engine/index.ts";
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
    const created = await monitors.create(session, desired, () => {
      throw new Error("the create finished");
    });
    const renamed = { ...desired, name: `${desired.name} (renamed)` };
    await monitors.update(session, created, renamed, monitors.changes(renamed, created));
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

  it("a second resource describing the same object gets the frontend's shared error, naming the object", async () => {
    const desired = monitor();
    const first = await monitors.create(session, desired, () => {
      throw new Error("the create finished");
    });
    const second = monitors.create(session, desired, () => {
      throw new Error("the create finished");
    });
    await expect(second).rejects.toBeInstanceOf(Shared);
    await expect(second).rejects.toThrow(String(first.id));
  });

  it("a retried run (a new process) replays its create: the keys come from what the write is about", async () => {
    const desired = monitor();
    const first = await monitors.create(session, desired, () => {
      throw new Error("the create finished");
    });
    const retried = openSession(sb.url, account.token, { keyPrefix: "ts" });
    const again = await monitors.create(retried, desired, () => {
      throw new Error("the create finished");
    });
    expect(again.id).toBe(first.id);
    expect(
      (await account.get(`/monitor?limit=100`)).body.data.filter(
        (m: { url: string }) => m.url === desired.url,
      ),
    ).toHaveLength(1);
  });

  it("hands an object created whose later writes failed to `unfinished`, with the refusal said", async () => {
    const pages = new ResourceAdapter(engineKind("statusPage"), { ...frontend, name: "test_page" });
    // The page is created; its components (a call of their own) name a monitor that does not exist.
    const desired = {
      slug: `partial-${unique()}`,
      title: "Partial",
      components: [{ name: "Shop", monitorId: "00000000-0000-4000-8000-000000000000" }],
    };
    const kept = (await pages
      .create(session, desired, (created, refusal) => {
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
    const row = await webhooks.create(session, desired, () => {
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
      .create(session, monitor({ settings: { method: "X" } }), () => {
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
    const first = await monitors.create(session, desired, () => {
      throw new Error("the create finished");
    });
    // Another frontend (its own keys) creating a monitor of the same address, described otherwise (so it
    // cannot be adopted), is refused as a duplicate.
    const other = new ResourceAdapter(engineKind("monitor"), { ...frontend, keyPrefix: "other", name: "x" });
    const error = await other
      .create(
        openSession(sb.url, account.token, { keyPrefix: "other" }),
        { ...desired, name: "Other" },
        () => {
          throw new Error("the create finished");
        },
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Refused);
    expect((error as Refused).refusal).toMatchObject({ existing: first.id, summary: "Could not create x" });
  });

  it("returns what is no refusal of the service as it is", () => {
    const error = new TypeError("not the service's");
    expect(monitors.refusal("update", error)).toBe(error);
  });
});
