/**
 * terraform-provider-vigil launched the way Terraform launches it (environment, handshake, mutual TLS with a
 * client certificate), driven over gRPC through plan, apply, read, import and delete against the sandbox.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchProvider } from "../helpers/plugin.ts";
import { type Client, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";
import { attr, Core } from "../helpers/terraform-core.ts";

let sb: TestSandbox;
let account: Client & { accountId: string };
let provider: Awaited<ReturnType<typeof launchProvider>>;
let core: Core;

beforeAll(async () => {
  sb = await startTestSandbox();
  account = await sb.account({ plan: "enterprise" });
  provider = await launchProvider({ VIGIL_ENDPOINT: sb.url, VIGIL_TOKEN: account.token });
  core = new Core((rpc, request) => provider.provider(rpc, request));
  await core.configure();
}, 30_000);

afterAll(async () => {
  provider?.close();
  provider?.child.kill();
  await provider?.exited;
  await sb?.close();
});

describe("the provider binary over gRPC", () => {
  it("plans, applies, reads, imports and deletes a monitor with an alert subscription", async () => {
    const url = `https://example.com/${Date.now()}`;
    const monitorConfig = core.config("vigil_monitor", {
      type: "http",
      url,
      name: "Binary",
      locations: { pools: ["allworld"] },
      settings: { timeout: 20_000, headers: [{ name: "Authorization", value: "Bearer s3cret" }] },
    });
    const planned = await core.plan("vigil_monitor", null, monitorConfig);
    expect(planned.action).toBe("create");
    const monitor = (await core.apply("vigil_monitor", null, planned, monitorConfig))!;
    const monitorId = String(attr(monitor, "id"));
    expect((await account.get(`/monitor/${monitorId}`)).body.name).toBe("Binary");

    const contactConfig = core.config("vigil_contact", {
      type: "email",
      address: `bin-${Date.now()}@example.com`,
    });
    const contact = (await core.converge("vigil_contact", null, contactConfig))!;
    const subscriptionConfig = core.config("vigil_alert_subscription", {
      monitorId,
      contactId: attr(contact, "id"),
      alertTypes: ["down", "up"],
    });
    const subscription = (await core.converge("vigil_alert_subscription", null, subscriptionConfig))!;

    // Refreshed and planned again: nothing to do, secrets included.
    const read = (await core.read("vigil_monitor", monitor))!;
    expect(read.state).toEqual(monitor.state);
    expect((await core.plan("vigil_monitor", read, monitorConfig)).action).toBe("no-op");
    expect((await core.plan("vigil_alert_subscription", subscription, subscriptionConfig)).action).toBe(
      "no-op",
    );

    // Import by id: the same state as the one apply wrote, but for what the service never reads back.
    const imported = await core.import("vigil_alert_subscription", String(attr(subscription, "id")));
    expect(imported.state).toEqual(subscription.state);

    // Delete: the subscription, then the monitor; reads find nothing.
    for (const [type, instance] of [
      ["vigil_alert_subscription", subscription],
      ["vigil_monitor", read],
      ["vigil_contact", contact],
    ] as const) {
      expect(await core.apply(type, instance, await core.plan(type, instance, null), null)).toBeNull();
      expect(await core.read(type, instance)).toBeNull();
    }
    expect((await account.get(`/monitor/${monitorId}`)).status).toBe(404);
  }, 30_000);
});
