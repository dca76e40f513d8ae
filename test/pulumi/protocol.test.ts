/**
 * pulumi-resource-vigil as Pulumi runs it: its own process, the port on stdout, gRPC from the stubs
 * @pulumi/pulumi ships. The harness plays the engine through what `pulumi up`, `refresh`, `import` and
 * `destroy` send, against the sandbox, for resources of every kind with references between them.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engineKinds } from "../../src/engine/index.ts";
import { isSecret, type Props, secret, unknownValue } from "../../src/pulumi/provider/values.ts";
import { functionTokens, resourceToken } from "../../src/pulumi/tokens.ts";
import { type Client, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";
import { Engine, ProviderProcess, type ResourceDecl } from "./harness.ts";

const require = createRequire(import.meta.url);

let sb: TestSandbox;
let account: Client & { accountId: string };
let provider: ProviderProcess;

beforeAll(async () => {
  sb = await startTestSandbox();
  account = await sb.account({ plan: "enterprise" });
  provider = await ProviderProcess.launch();
}, 30_000);
afterAll(async () => {
  await provider?.close();
  await sb?.close();
});

const unique = Math.random().toString(36).slice(2, 10);
const future = Math.floor(Date.now() / 1000) + 30 * 86_400;

/** A program with every kind, the subscriptions and the rest pointing at a monitor and a contact. */
function program(monitorType = "http", interval = 60): ResourceDecl[] {
  const url = `https://shop-${unique}.example.com/`;
  return [
    {
      name: "shop",
      type: resourceToken("monitor"),
      inputs: () => ({
        type: monitorType,
        url,
        name: "Shop",
        ...(monitorType === "http" && {
          interval,
          locations: { pools: ["allworld"] },
          settings: { username: "probe", password: secret("hunter2") },
        }),
      }),
    },
    {
      name: "oncall",
      type: resourceToken("contact"),
      inputs: () => ({ type: "email", address: `oncall-${unique}@example.com` }),
    },
    {
      name: "team",
      type: resourceToken("contactGroup"),
      inputs: (ref) => ({
        name: `Team ${unique}`,
        members: [{ contactId: ref("oncall"), events: ["down"] }],
      }),
    },
    {
      name: "alerts",
      type: resourceToken("alertSubscription"),
      inputs: (ref) => ({ monitorId: ref("shop"), contactId: ref("oncall"), alertTypes: ["down", "up"] }),
    },
    {
      name: "reports",
      type: resourceToken("reportSubscription"),
      inputs: (ref) => ({ monitorId: ref("shop"), contactId: ref("oncall"), frequencies: ["weekly"] }),
    },
    {
      name: "deploy",
      type: resourceToken("maintenance"),
      inputs: (ref) => ({ name: "Deploy", from: future, to: future + 3600, monitorIds: [ref("shop")] }),
    },
    {
      name: "status",
      type: resourceToken("statusPage"),
      inputs: (ref) => ({
        slug: `status-${unique}`,
        title: "Status",
        components: [{ name: "Shop", monitorId: ref("shop") }],
      }),
    },
    {
      name: "hook",
      type: resourceToken("webhook"),
      inputs: (ref) => ({
        url: `https://hooks.example.com/${unique}`,
        events: ["monitor.down"],
        scope: { monitorIds: [ref("shop")] },
        secret: "sandbox-webhook-secret-0123456789",
      }),
    },
  ];
}

describe("pulumi-resource-vigil over gRPC", () => {
  it("starts, prints only its port, serves the schema and plugin info, and refuses what it does not serve", async () => {
    expect(provider.port).toBeGreaterThan(0);
    expect(await provider.getPluginInfo()).toMatch(/^\d+\.\d+\.\d+/);
    if (existsSync(new URL("../../schemas/pulumi-schema.json", import.meta.url))) {
      const schema = JSON.parse(await provider.getSchema()) as { name: string; resources: Props };
      expect(schema.name).toBe("vigil");
      expect(Object.keys(schema.resources)).toContain(resourceToken("monitor"));
    }
    const { ConstructRequest } = await import("@pulumi/pulumi/proto/provider_pb.js");
    await expect(provider.call("construct", new ConstructRequest())).rejects.toMatchObject({ code: 12 });
    // Before Configure, resource calls say so.
    await expect(provider.read("urn:pulumi:dev::p::vigil:index:Monitor::m", "x", {}, {})).rejects.toThrow(
      /before Pulumi configured it/,
    );
  });

  it("up, no-op, drift and update, refresh, import, replace, destroy", async () => {
    expect((await provider.checkConfig({ endpoint: "example.com" })).failures[0]?.property).toBe("endpoint");
    expect((await provider.checkConfig({ endpoint: sb.url })).failures).toEqual([]);
    expect(await provider.configure({ endpoint: sb.url, token: account.token })).toEqual({
      acceptSecrets: true,
      supportsPreview: true,
    });
    const engine = new Engine(provider);

    // Preview: references to resources not yet created are unknown, and so is what the service decides.
    const preview = await engine.up(program(), { preview: true });
    expect(preview.every((s) => s.step === "create")).toBe(true);
    const alertsPreview = preview.find((s) => s.name === "alerts")!.preview!;
    expect(alertsPreview.monitorId).toBe(unknownValue);
    expect(alertsPreview.created).toBe(unknownValue);
    expect(preview.find((s) => s.name === "shop")!.preview!.state).toBe(unknownValue);

    // Up.
    const up = await engine.up(program());
    expect(up.every((s) => s.step === "create")).toBe(true);
    const shop = engine.state.get("shop")!;
    const alerts = engine.state.get("alerts")!;
    expect(alerts.outputs.monitorId).toBe(shop.id);
    expect(alerts.outputs.contactId).toBe(engine.state.get("oncall")!.id);
    expect(isSecret((shop.outputs.settings as Props).password)).toBe(true);
    expect(engine.state.get("hook")!.outputs.secret).toEqual(secret("sandbox-webhook-secret-0123456789"));
    expect((await account.get(`/monitor/${shop.id}/alert/${engine.state.get("oncall")!.id}`)).status).toBe(
      200,
    );

    // A second up: nothing to do.
    const again = await engine.up(program());
    expect(again.filter((s) => s.step !== "same")).toEqual([]);

    // Changed outside Pulumi: refresh shows it, the diff names it, the update restores it.
    expect((await account.patch(`/monitor/${shop.id}`, { interval: 300 })).status).toBe(200);
    expect(await engine.refresh()).toEqual(["shop"]);
    expect(engine.state.get("shop")!.outputs.interval).toBe(300);
    const restore = await engine.up(program());
    const shopStep = restore.find((s) => s.name === "shop")!;
    expect(shopStep.step).toBe("update");
    expect(shopStep.diff!.detailedDiff).toEqual({ interval: { kind: "UPDATE", inputDiff: true } });
    expect(shopStep.diff!.replaces).toEqual([]);
    expect((await account.get(`/monitor/${shop.id}`)).body.interval).toBe(60);
    expect(restore.filter((s) => s.step !== "same").map((s) => s.name)).toEqual(["shop"]);

    // Import: read by id alone; the inputs it answers diff empty against its properties.
    for (const name of ["shop", "oncall", "alerts", "status", "hook"]) {
      const r = engine.state.get(name)!;
      const imported = await engine.import(`${name}-imported`, r.type, r.id);
      expect(imported.checked.failures).toEqual([]);
      expect(imported.diff.changes, name).toBe("DIFF_NONE");
    }

    // Another monitor type: the monitor is replaced (created first: the natural key differs), and what
    // references it follows with the new id.
    const replaced = await engine.up(program("sslExp"), { preview: true });
    const shopReplace = replaced.find((s) => s.name === "shop")!;
    expect(shopReplace.step).toBe("replace");
    expect(shopReplace.diff!.replaces).toContain("type");
    expect(shopReplace.diff!.detailedDiff.type).toEqual({ kind: "UPDATE_REPLACE", inputDiff: true });
    expect(shopReplace.diff!.deleteBeforeReplace).toBe(false);
    const alertsReplace = replaced.find((s) => s.name === "alerts")!;
    expect(alertsReplace.step).toBe("replace");
    expect(alertsReplace.diff!.detailedDiff.monitorId!.kind).toBe("UPDATE_REPLACE");
    await engine.up(program("sslExp"));
    const newShop = engine.state.get("shop")!;
    expect(newShop.id).not.toBe(shop.id);
    expect(engine.state.get("alerts")!.outputs.monitorId).toBe(newShop.id);
    expect((await account.get(`/monitor/${shop.id}`)).status).toBe(404);
    expect((await engine.up(program("sslExp"))).filter((s) => s.step !== "same")).toEqual([]);

    // Functions.
    const acct = await provider.invoke(functionTokens.getAccount);
    expect(acct.id).toBe(account.accountId);

    // Destroy: every object gone.
    await engine.destroy(program("sslExp"));
    expect(engine.state.size).toBe(0);
    // Kinds listed only under a parent (a page's templates) go with it: the parents' lists are checked.
    for (const kind of engineKinds.filter((k) => !k.definition.paths.collection.includes("{"))) {
      const res = await account.get(kind.definition.paths.collection);
      expect(res.status, res.text).toBe(200);
      expect(res.body.data, kind.name).toEqual([]);
    }
    expect(provider.extraStdout).toEqual([]);
  }, 60_000);

  it("hands a created but unfinished object to the engine (ErrorResourceInitFailed), and the update finishes it", async () => {
    const urn = "urn:pulumi:dev::vigil-harness::vigil:index:StatusPage::partial";
    const inputs = (monitorId: string) => ({
      slug: `partial-${unique}`,
      title: "Partial",
      components: [{ name: "Shop", monitorId }],
    });
    // The page is created; its components (a call of their own) name a monitor that does not exist.
    const missing = "00000000-0000-4000-8000-000000000000";
    const failure = await provider.create(urn, inputs(missing), false).then(
      () => undefined,
      (error: unknown) => error,
    );
    const initFailed = initFailureOf(failure);
    expect(initFailed, String(failure)).toBeDefined();
    const { id, properties, reasons } = initFailed!;
    expect((await account.get(`/statuspage/${id}`)).status).toBe(200);
    expect(properties).toMatchObject({ slug: `partial-${unique}`, title: "Partial" });
    expect(reasons.join(" ")).toMatch(/components|monitor/i);

    // The engine keeps it, so the next up updates it with what the program says now.
    const monitor = await account.post("/monitor", { type: "sslExp", url: `partial-${unique}.example.com` });
    expect(monitor.status, monitor.text).toBe(201);
    const diff = await provider.diff(urn, id, properties, inputs(monitor.body.id), inputs(missing));
    expect(diff.changes).toBe("DIFF_SOME");
    expect(diff.diffs).toContain("components");
    const updated = await provider.update(
      urn,
      id,
      properties,
      inputs(monitor.body.id),
      inputs(missing),
      false,
    );
    expect(updated.components).toEqual([
      expect.objectContaining({ name: "Shop", monitorId: monitor.body.id }),
    ]);
    await provider.delete(urn, id, updated);
    await account.delete(`/monitor/${monitor.body.id}`);
  });
});

/** pulumirpc.ErrorResourceInitFailed from a gRPC error's `grpc-status-details-bin`, as the engine reads it. */
function initFailureOf(error: unknown): { id: string; properties: Props; reasons: string[] } | undefined {
  const metadata = (error as { metadata?: { get(key: string): (string | Buffer)[] } }).metadata;
  const bytes = metadata?.get("grpc-status-details-bin")[0];
  if (!(bytes instanceof Buffer)) return undefined;
  const { Status } = require("@pulumi/pulumi/proto/status_pb.js");
  const { ErrorResourceInitFailed } = require("@pulumi/pulumi/proto/provider_pb.js");
  for (const any of Status.deserializeBinary(bytes).getDetailsList()) {
    if (any.getTypeName() !== "pulumirpc.ErrorResourceInitFailed") continue;
    const detail = any.unpack(ErrorResourceInitFailed.deserializeBinary, "pulumirpc.ErrorResourceInitFailed");
    return {
      id: detail.getId(),
      properties: detail.getProperties().toJavaScript(),
      reasons: detail.getReasonsList(),
    };
  }
  return undefined;
}
