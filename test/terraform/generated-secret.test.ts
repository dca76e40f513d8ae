/**
 * A webhook created without `secret` gets one the service generates and shows once: the provider keeps it
 * in the sensitive computed attribute `generated_secret`, through refreshes, updates and no-op plans.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Unknown } from "../../src/terraform/cty.ts";
import { resourceSchema } from "../../src/terraform/schema.ts";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";
import { attr, type Core, configuredCore } from "../helpers/terraform-core.ts";

let sb: TestSandbox;
let core: Core;
beforeAll(async () => {
  sb = await startTestSandbox();
  const account = await sb.account({ plan: "enterprise" });
  core = await configuredCore({ VIGIL_ENDPOINT: sb.url, VIGIL_TOKEN: account.token });
});
afterAll(async () => sb?.close());

const webhook = (path: string, members: Record<string, unknown> = {}) => ({
  url: `https://hooks.example.com/${path}`,
  events: ["monitor.down"],
  scope: { all: true },
  ...members,
});

describe("vigil_webhook generated_secret", () => {
  it("is a sensitive computed attribute", () => {
    expect(resourceSchema("vigil_webhook").block.attributes.generated_secret).toMatchObject({
      type: "string",
      computed: true,
      sensitive: true,
    });
  });

  it("holds the secret the create answered, kept through refresh, update and no-op plans", async () => {
    const config = core.config("vigil_webhook", webhook("generated"));
    const plan = await core.plan("vigil_webhook", null, config);
    expect(plan.planned && (plan.planned as Record<string, unknown>).generated_secret).toBeInstanceOf(
      Unknown,
    );
    let w = (await core.apply("vigil_webhook", null, plan, config))!;
    const secret = attr(w, "generated_secret");
    expect(secret).toMatch(/^whsec_/);
    // The service shows it masked from now on; the state keeps what the create saw.
    w = (await core.read("vigil_webhook", w))!;
    expect(attr(w, "generated_secret")).toBe(secret);
    expect((await core.plan("vigil_webhook", w, config)).action).toBe("no-op");
    const renamed = core.config("vigil_webhook", webhook("generated", { name: "Renamed" }));
    const update = await core.plan("vigil_webhook", w, renamed);
    expect(update.action).toBe("update");
    w = (await core.apply("vigil_webhook", w, update, renamed))!;
    expect(attr(w, "generated_secret")).toBe(secret);
  });

  it("is null when the configuration sets the secret, and after an import", async () => {
    const config = core.config("vigil_webhook", webhook("own", { secret: "own-secret-0123456789" }));
    const w = (await core.apply(
      "vigil_webhook",
      null,
      await core.plan("vigil_webhook", null, config),
      config,
    ))!;
    expect(attr(w, "generated_secret")).toBeNull();
    const imported = await core.import("vigil_webhook", String(attr(w, "id")));
    expect(attr(imported, "generated_secret")).toBeNull();
  });
});
