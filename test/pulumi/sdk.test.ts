import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import * as vigil from "../../src/pulumi/sdk/index.ts";
import { functionTokens, providerToken, resourceToken } from "../../src/pulumi/tokens.ts";

/** The value of an output, once the mock has answered. */
const value = <T>(output: pulumi.Output<T>) => new Promise<T>((resolve) => output.apply(resolve));

/** Pulumi's marker of a secret in a serialized property value. */
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
const SIG_KEY = "4dabf18193072939515e22adb298388d";
const secretOf = (v: unknown) => ({ [SIG_KEY]: SECRET_SIG, value: v });

interface Registration {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
  provider?: string;
  id?: string;
  /** As sent to the monitor: secrets carry their signature. */
  raw: Record<string, unknown>;
  additionalSecretOutputs: string[];
  replaceOnChanges: string[];
  version: string;
  read: boolean;
}

const registrations: Registration[] = [];
const calls: { token: string; inputs: unknown }[] = [];
const pending = new Map<string, Partial<Registration>>();

const registered = async (resource: pulumi.CustomResource) => {
  const urn = await value(resource.urn);
  const name = urn.slice(urn.lastIndexOf("::") + 2);
  const found = registrations.find((r) => r.name === name);
  if (!found) throw new Error(`${name} was not registered`);
  return found;
};

/** What the service would fill in, per type. */
const serviceState: Record<string, Record<string, unknown>> = {
  [resourceToken("monitor")]: {
    state: "up",
    since: 1_700_000_000,
    effectiveUrl: "https://example.com/health",
    interval: 300,
    enabled: true,
  },
  [resourceToken("contact")]: { confirmed: false, alertDelay: 0 },
  [resourceToken("maintenance")]: {
    state: "scheduled",
    occurrence: { from: 1_800_000_000, to: 1_800_003_600 },
  },
  [resourceToken("statusPage")]: { publicUrl: "https://status.example.com/acme", theme: "light" },
  [resourceToken("webhook")]: { enabled: true, consecutiveFailures: 0 },
};

const account = {
  id: "acc_1",
  login: "ops@example.com",
  name: "Acme",
  company: null,
  timezone: "Europe/Paris",
  plan: "business",
  features: { cron: "true", maxMonitors: "50" },
};

beforeAll(async () => {
  await pulumi.runtime.setMocks(
    {
      newResource(args) {
        const request = pending.get(args.name) ?? {};
        pending.delete(args.name);
        registrations.push({
          ...(request as Registration),
          type: args.type,
          name: args.name,
          inputs: args.inputs,
          provider: args.provider,
          id: args.id,
        });
        const id = args.id || `${args.name}_id`;
        const state = args.id
          ? { ...serviceState[args.type], type: "http", url: "https://read.example.com" }
          : { ...args.inputs, ...serviceState[args.type], created: 1_700_000_000, updated: 1_700_000_000 };
        return { id, state };
      },
      call(args) {
        calls.push({ token: args.token, inputs: args.inputs });
        if (args.token === functionTokens.getAccount) return account;
        if (args.token === functionTokens.getAgentPools)
          return {
            pools: [{ id: "eu", name: "Europe" }],
            minAgents: 3,
            minIntervals: { http: 60 },
            defaults: [],
          };
        if (args.token === functionTokens.getMonitorTypes)
          return { types: [{ type: "http", label: "HTTP(S)", accountLimits: { minInterval: 60 } }] };
        throw new Error(`unexpected call ${args.token}`);
      },
    },
    "vigil-sdk",
    "test",
  );
  // Keep what the SDK sends beside the deserialized inputs the mock sees: secrets, options, version.
  // The mock monitor's gRPC requests are untyped.
  const monitor = pulumi.runtime.getMonitor() as any;
  for (const method of ["registerResource", "readResource"] as const) {
    const original = monitor[method].bind(monitor);
    monitor[method] = (req: any, callback: unknown) => {
      const read = method === "readResource";
      pending.set(req.getName(), {
        raw: (read ? req.getProperties() : req.getObject())?.toJavaScript() ?? {},
        additionalSecretOutputs: read ? [] : req.getAdditionalsecretoutputsList(),
        replaceOnChanges: read ? [] : req.getReplaceonchangesList(),
        version: req.getVersion(),
        read,
      });
      return original(req, callback);
    };
  }
});

describe("the generated Pulumi SDK", () => {
  it("creates a monitor: its token, inputs, replacements, version, and the outputs the provider answers", async () => {
    const args = {
      type: "http",
      url: "https://example.com/health",
      name: "API health",
      interval: 60,
      tags: ["prod", "api"],
      locations: { pools: ["eu", "us"], fallback: "world" },
      settings: { method: "G", password: "hunter22", headers: [{ name: "X-Probe", value: "1" }] },
    } satisfies vigil.MonitorArgs;
    const monitor = new vigil.Monitor("api-health", args);
    const r = await registered(monitor);
    expect(r.type).toBe("vigil:index:Monitor");
    expect(r.read).toBe(false);
    expect(r.inputs).toEqual(args);
    expect(r.replaceOnChanges).toEqual(["type"]);
    expect(r.version).toBe(vigil.version);
    expect(await value(monitor.id)).toBe("api-health_id");
    expect(await value(monitor.state)).toBe("up");
    expect(await value(monitor.effectiveUrl)).toBe("https://example.com/health");
    expect(await value(monitor.created)).toBe(1_700_000_000);
    expect(await value(monitor.locations)).toEqual({ pools: ["eu", "us"], fallback: "world" });
    expect(await value(monitor.settings)).toMatchObject({ method: "G" });
    expect(vigil.Monitor.isInstance(monitor)).toBe(true);
    expect(vigil.Contact.isInstance(monitor)).toBe(false);
    expect(vigil.Monitor.isInstance({})).toBe(false);
    expect(vigil.Monitor.isInstance(undefined)).toBe(false);
  });

  it("wraps secret inputs and asks for their outputs to be kept secret", async () => {
    const webhook = new vigil.Webhook("alerts-hook", {
      url: "https://hooks.example.com/vigil",
      events: ["monitor.down", "monitor.up"],
      scope: { tags: ["prod"] },
      secret: "whsec_0123456789abcdef",
      headers: [{ header: "X-Team", value: "ops" }],
    });
    const r = await registered(webhook);
    expect(r.type).toBe("vigil:index:Webhook");
    expect(r.raw.secret).toEqual(secretOf("whsec_0123456789abcdef"));
    expect(r.raw.url).toBe("https://hooks.example.com/vigil");
    // The mock sees the secret marked as such too.
    expect(r.inputs.secret).toEqual(secretOf("whsec_0123456789abcdef"));
    expect(r.additionalSecretOutputs).toEqual(["generatedSecret", "secret"]);
    expect(r.replaceOnChanges).toEqual([]);
    expect(await pulumi.isSecret(webhook.secret)).toBe(true);
    expect(await value(webhook.secret)).toBe("whsec_0123456789abcdef");
    expect(await value(webhook.enabled)).toBe(true);
    expect(await value(webhook.scope)).toEqual({ tags: ["prod"] });
  });

  it("constructs every resource class under its token", async () => {
    const contact = new vigil.Contact("oncall", { type: "email", address: "oncall@example.com" });
    const group = new vigil.ContactGroup("ops", {
      name: "Ops",
      members: [{ contactId: contact.id, events: ["down", "up"] }],
    });
    const monitor = new vigil.Monitor("site", { type: "http", url: "https://example.com" });
    const alerts = new vigil.AlertSubscription("site-oncall", {
      monitorId: monitor.id,
      contactId: contact.id,
      alertTypes: ["down", "up"],
    });
    const reports = new vigil.ReportSubscription("site-weekly", {
      monitorId: monitor.id,
      contactId: contact.id,
      frequencies: ["weekly"],
    });
    const window = new vigil.MaintenanceWindow("deploy", {
      name: "Deploy",
      from: 1_800_000_000,
      to: 1_800_003_600,
      monitorIds: [monitor.id],
      repeat: "weekly",
    });
    const page = new vigil.StatusPage("public", {
      slug: "acme",
      title: "Acme status",
      components: [{ name: "Website", monitorId: monitor.id }],
    });
    const expected: [pulumi.CustomResource, string][] = [
      [contact, resourceToken("contact")],
      [group, resourceToken("contactGroup")],
      [monitor, resourceToken("monitor")],
      [alerts, resourceToken("alertSubscription")],
      [reports, resourceToken("reportSubscription")],
      [window, resourceToken("maintenance")],
      [page, resourceToken("statusPage")],
    ];
    for (const [resource, token] of expected) expect((await registered(resource)).type).toBe(token);

    // References resolve to the ids the mock gave.
    expect((await registered(alerts)).inputs).toEqual({
      monitorId: "site_id",
      contactId: "oncall_id",
      alertTypes: ["down", "up"],
    });
    expect((await registered(alerts)).replaceOnChanges.sort()).toEqual(["contactId", "monitorId"]);
    expect((await registered(reports)).replaceOnChanges.sort()).toEqual(["contactId", "monitorId"]);
    expect((await registered(page)).replaceOnChanges).toEqual(["slug"]);
    expect((await registered(contact)).replaceOnChanges).toEqual(["type"]);
    expect((await registered(group)).inputs.members).toEqual([
      { contactId: "oncall_id", events: ["down", "up"] },
    ]);
    expect((await registered(window)).inputs.monitorIds).toEqual(["site_id"]);
    expect(await value(window.state)).toBe("scheduled");
    expect(await value(window.occurrence)).toEqual({ from: 1_800_000_000, to: 1_800_003_600 });
    expect(await value(page.publicUrl)).toBe("https://status.example.com/acme");
    expect(await value(contact.confirmed)).toBe(false);
    expect(await value(alerts.updated)).toBe(1_700_000_000);
    expect(vigil.MaintenanceWindow.isInstance(window)).toBe(true);
  });

  it("reads an existing resource by id with get", async () => {
    const monitor = vigil.Monitor.get("existing", "mon_123");
    const r = await registered(monitor);
    expect(r.read).toBe(true);
    expect(r.type).toBe("vigil:index:Monitor");
    expect(r.id).toBe("mon_123");
    expect(r.version).toBe(vigil.version);
    expect(await value(monitor.id)).toBe("mon_123");
    expect(await value(monitor.url)).toBe("https://read.example.com");
    expect(await value(monitor.state)).toBe("up");
    expect(vigil.Monitor.isInstance(monitor)).toBe(true);
  });

  it("exports the input and output types under types", async () => {
    const settings: vigil.types.input.MonitorSettings = { method: "H", timeout: 10 };
    const monitor = new vigil.Monitor("typed", { type: "http", url: "https://example.com", settings });
    const read: vigil.types.output.MonitorSettings = await value(monitor.settings);
    expect(read).toEqual({ method: "H", timeout: 10 });
    const row: vigil.types.output.GetMonitorTypesType | undefined = (await vigil.getMonitorTypes()).types[0];
    expect(row?.type).toBe("http");
  });

  it("refuses a resource without its required inputs", () => {
    expect(() => new vigil.Monitor("no-type", {} as vigil.MonitorArgs)).toThrow(
      "Missing required property 'type'",
    );
    expect(
      () =>
        new vigil.Webhook("no-scope", {
          url: "https://hooks.example.com",
          events: ["monitor.down"],
        } as vigil.WebhookArgs),
    ).toThrow("Missing required property 'scope'");
    expect(
      () =>
        new vigil.AlertSubscription("half", {
          monitorId: "m",
          alertTypes: ["down"],
        } as vigil.AlertSubscriptionArgs),
    ).toThrow("Missing required property 'contactId'");
    expect(() => new vigil.StatusPage("untitled", { slug: "x" } as vigil.StatusPageArgs)).toThrow(
      "Missing required property 'title'",
    );
  });

  it("configures a provider, its token secret, and passes it to resources", async () => {
    const provider = new vigil.Provider("sandbox", {
      endpoint: "http://127.0.0.1:8080/v2",
      token: "tok_secret",
    });
    const r = await registered(provider);
    expect(r.type).toBe(providerToken);
    expect(r.raw.token).toEqual(secretOf("tok_secret"));
    expect(r.raw.endpoint).toBe("http://127.0.0.1:8080/v2");
    expect(r.additionalSecretOutputs).toEqual(["token"]);
    expect(vigil.Provider.isInstance(provider)).toBe(true);
    expect(vigil.Monitor.isInstance(provider)).toBe(false);

    const contact = new vigil.Contact(
      "via-provider",
      { type: "email", address: "a@example.com" },
      { provider },
    );
    const urn = await value(provider.urn);
    expect((await registered(contact)).provider).toBe(`${urn}::sandbox_id`);
  });

  it("defaults the provider's members to VIGIL_ENDPOINT and VIGIL_TOKEN", async () => {
    const saved = { endpoint: process.env.VIGIL_ENDPOINT, token: process.env.VIGIL_TOKEN };
    process.env.VIGIL_ENDPOINT = "https://api.example.com/v2";
    process.env.VIGIL_TOKEN = "tok_from_env";
    try {
      const provider = new vigil.Provider("from-env");
      const r = await registered(provider);
      expect(r.raw.endpoint).toBe("https://api.example.com/v2");
      expect(r.raw.token).toEqual(secretOf("tok_from_env"));
    } finally {
      for (const [name, v] of [
        ["VIGIL_ENDPOINT", saved.endpoint],
        ["VIGIL_TOKEN", saved.token],
      ] as const)
        if (v === undefined) delete process.env[name];
        else process.env[name] = v;
    }
  });

  it("calls the three functions through Invoke, as promises and as outputs", async () => {
    const got = await vigil.getAccount();
    expect(got.id).toBe("acc_1");
    expect(got.features).toEqual({ cron: "true", maxMonitors: "50" });
    expect(calls.at(-1)).toEqual({ token: "vigil:index:getAccount", inputs: {} });

    const pools = await vigil.getAgentPools();
    expect(pools.pools[0]?.id).toBe("eu");
    expect(pools.minIntervals).toEqual({ http: 60 });

    const types = await value(vigil.getMonitorTypesOutput());
    expect(types.types.map((t) => t.type)).toEqual(["http"]);
    expect(types.types[0]?.accountLimits.minInterval).toBe(60);
    expect(calls.at(-1)?.token).toBe("vigil:index:getMonitorTypes");

    const login = vigil.getAccountOutput().apply((a) => a.login);
    expect(await value(login)).toBe("ops@example.com");
    expect(calls.map((c) => c.token)).toEqual(
      expect.arrayContaining([
        functionTokens.getAccount,
        functionTokens.getAgentPools,
        functionTokens.getMonitorTypes,
      ]),
    );
  });
});
