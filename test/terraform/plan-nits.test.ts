/**
 * What a Terraform plan shows must be what would change: an import of a monitor that matches its
 * configuration plans nothing, an update leaves unknown only what it can change, and a refused value says
 * what is allowed once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Unknown } from "../../src/terraform/cty.ts";
import { type Client, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";
import { attr, type Core, configuredCore } from "../helpers/terraform-core.ts";

let sb: TestSandbox;
let account: Client & { accountId: string };
let core: Core;

beforeAll(async () => {
  sb = await startTestSandbox();
  account = await sb.account({ plan: "enterprise" });
  core = await configuredCore({ VIGIL_ENDPOINT: sb.url, VIGIL_TOKEN: account.token });
});
afterAll(async () => sb?.close());

const unique = () => Math.random().toString(36).slice(2, 10);

describe("import", () => {
  it.each([
    ["http", { settings: { method: "G", timeout: 5000 } }],
    ["ping", {}],
    ["port", { url: "shop.example.com:443" }],
  ])("of a %s monitor that matches its configuration plans no change", async (type, extra) => {
    const members = {
      type,
      url: type === "http" ? `https://example.com/${unique()}` : `${unique()}.example.com`,
      name: "Shop",
      locations: { pools: ["allworld"] },
      ...extra,
    };
    const created = await account.post("/monitor", members);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const imported = await core.import("vigil_monitor", created.body.id);
    const config = core.config("vigil_monitor", members);
    const plan = await core.plan("vigil_monitor", imported, config);
    expect(plan.planned).toEqual(imported.state);
    expect(plan.action).toBe("no-op");
  });

  // The import's state is the object as a configuration describes it (the engine's configMembers), not the
  // live value: an empty live value equals an unset member whose default is empty, and a value the service
  // reads back in another form keeps the form a configuration writes.
  it.each([
    // templates read back [] (was planned `templates = [] -> null`).
    [
      "an http contact without templates",
      "vigil_contact",
      "/contact",
      { type: "http", address: "https://hooks.example.com/x" },
    ],
    // A bare domain reads back as http://<domain>/ (was planned `url = "http://.../" -> "..."`).
    [
      "a monitor of a bare domain",
      "vigil_monitor",
      "/monitor",
      { type: "http", url: "bare-import.example.com", locations: { pools: ["allworld"] } },
    ],
    // Its header values read back masked: the configuration leaves out what nobody can know (was a change of them).
    [
      "a webhook whose header values the API masks",
      "vigil_webhook",
      "/webhook",
      {
        url: "https://hooks.example.com/import",
        events: ["monitor.down"],
        scope: { all: true },
        headers: [{ header: "Authorization", value: "Bearer unknown-to-terraform" }],
      },
    ],
  ])("of %s plans no change for the configuration that describes it", async (_, typeName, path, members) => {
    const created = await account.post(path, members);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const imported = await core.import(typeName, created.body.id);
    const { headers: _headers, ...described } = members as Record<string, unknown>;
    const plan = await core.plan(typeName, imported, core.config(typeName, described));
    expect(plan.planned).toEqual(imported.state);
    expect(plan.action).toBe("no-op");
  });
});

describe("an update", () => {
  it("leaves unknown only the read-only attributes it can move", async () => {
    const members = {
      type: "http",
      url: `https://example.com/${unique()}`,
      locations: { pools: ["allworld"] },
    };
    const config = core.config("vigil_monitor", members);
    const created = await core.apply(
      "vigil_monitor",
      null,
      await core.plan("vigil_monitor", null, config),
      config,
    );
    const m = (await core.read("vigil_monitor", created!))!;
    const unknownAfter = async (change: Record<string, unknown>) => {
      const plan = await core.plan(
        "vigil_monitor",
        m,
        core.config("vigil_monitor", { ...members, ...change }),
      );
      expect(plan.action).toBe("update");
      const planned = plan.planned as Record<string, unknown>;
      return Object.keys(planned)
        .filter((k) => planned[k] instanceof Unknown)
        .sort();
    };
    // A rename moves `updated` only: `cert_not_before`, `state`, `effective_url` keep their values.
    expect(await unknownAfter({ name: "Renamed" })).toEqual(["updated"]);
    expect(attr(m, "cert_not_before")).toBeNull();
    // Enabling a monitor the plan's limit paused clears `overlimited`: it moves with `enabled`.
    expect(await unknownAfter({ enabled: false })).toEqual(["overlimited", "since", "state", "updated"]);
    expect(await unknownAfter({ url: `https://example.com/${unique()}` })).toEqual([
      "cert_not_before",
      "effective_url",
      "expiration_date",
      "updated",
    ]);
  });

  it("applies with the kept values, which the next read confirms", async () => {
    const members = {
      type: "http",
      url: `https://example.com/${unique()}`,
      locations: { pools: ["allworld"] },
    };
    const config = core.config("vigil_monitor", members);
    let m = await core.apply("vigil_monitor", null, await core.plan("vigil_monitor", null, config), config);
    m = await core.read("vigil_monitor", m!);
    const renamed = core.config("vigil_monitor", { ...members, name: "Renamed", tags: ["prod"] });
    const applied = await core.apply(
      "vigil_monitor",
      m,
      await core.plan("vigil_monitor", m, renamed),
      renamed,
    );
    const read = await core.read("vigil_monitor", applied!);
    expect(read!.state).toEqual(applied!.state);
    expect((await core.plan("vigil_monitor", read, renamed)).action).toBe("no-op");
  });
});

describe("a refused value", () => {
  it("names the allowed values once", async () => {
    const config = core.config("vigil_monitor", {
      type: "http",
      url: "https://example.com/",
      locations: { pools: ["allworld"], fallback: "nearest" },
    });
    const [diagnostic] = await core.validate("vigil_monitor", config);
    expect(diagnostic.summary).toBe("Invalid locations.fallback");
    for (const value of ["geo", "world", "starve"])
      expect(diagnostic.detail.split(JSON.stringify(value)).length - 1).toBe(1);
  });
});
