/**
 * Nested attributes the config leaves unset and the service fills in with members that are not computed (a
 * ping monitor's settings.attached.dnsbl.enabled): Terraform proposes null for them, and the plan must still
 * keep what the service set, or every plan after apply would show them going away.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { resourceType } from "../../src/terraform/resources.ts";
import { type Client, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";
import { attr, type Core, configuredCore, proposedNew } from "../helpers/terraform-core.ts";

let sb: TestSandbox;
let account: Client;
let core: Core;

beforeAll(async () => {
  sb = await startTestSandbox();
  account = await sb.account({ plan: "enterprise" });
  core = await configuredCore({ VIGIL_ENDPOINT: sb.url, VIGIL_TOKEN: account.token });
});
afterAll(async () => sb?.close());

const ping = { type: "ping", url: "edge.example.com", name: "Edge", locations: { pools: ["allworld"] } };

it("Terraform proposes null for a nested attribute whose prior value holds members that are not computed", () => {
  const { attributes } = resourceType("vigil_monitor");
  const prior = core.config("vigil_monitor", {
    ...ping,
    settings: { attached: { dnsbl: { enabled: false } } },
  });
  const proposed = proposedNew(prior, core.config("vigil_monitor", ping), attributes) as Record<
    string,
    unknown
  >;
  expect(proposed.settings).toBeNull();
});

it("a ping monitor without settings: the service's settings stay, and the plan after apply is empty", async () => {
  const config = core.config("vigil_monitor", ping);
  const created = (await core.converge("vigil_monitor", null, config))!;
  const read = (await core.read("vigil_monitor", created))!;
  expect(attr(read, "settings")).toMatchObject({ attached: { dnsbl: { enabled: false } } });
  const plan = await core.plan("vigil_monitor", read, config);
  expect(plan.action).toBe("no-op");
  expect((plan.planned as Record<string, unknown>).settings).toEqual(attr(read, "settings"));
});

it("settings removed from the config still plan the reset of what the config had set", async () => {
  const withSettings = core.config("vigil_monitor", {
    ...ping,
    url: "core.example.com",
    settings: { publicDns: 1 },
  });
  let m = (await core.converge("vigil_monitor", null, withSettings))!;
  m = (await core.read("vigil_monitor", m))!;
  const id = String(attr(m, "id"));
  const without = core.config("vigil_monitor", { ...ping, url: "core.example.com" });
  const plan = await core.plan("vigil_monitor", m, without);
  expect(plan.action).toBe("update");
  m = (await core.apply("vigil_monitor", m, plan, without))!;
  expect((await account.get(`/monitor/${id}`)).body.settings.publicDns).toBe(0);
  m = (await core.read("vigil_monitor", m))!;
  expect((await core.plan("vigil_monitor", m, without)).action).toBe("no-op");
});
