import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { Operations, TimeSource } from "../../src/api/index.ts";
import { applyChanges, type DesiredResource, MemoryStateStore, planChanges } from "../../src/engine/index.ts";
import { getAt, toPointer } from "../../src/engine/pointer.ts";
import { type ExportResult, exportAccount } from "../../src/gitops/export.ts";
import { namePattern } from "../../src/gitops/format.ts";
import { loadConfig } from "../../src/gitops/load.ts";
import { engineAccount, httpMonitor } from "../engine/e2e/helpers.ts";
import { everyKindFixture } from "../engine/fixtures/every-kind.ts";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

const tag = "export";
const fixture = everyKindFixture(tag);

/** Every credential value the fixture sends: none may reach an exported file. */
const credentialValues = [
  `pw-${tag}`,
  `api-pw-${tag}`,
  `db-pw-${tag}`,
  `postgres://app:s3cret@db-${tag}.internal/app`,
  `public-${tag}`,
  `auth-${tag}`,
  `priv-${tag}`,
  `Bearer hook-${tag}`,
  `Bearer ${tag}`,
  `fixture-secret-${tag}-0123456789`,
];

let sb: TestSandbox;
let ops: Operations;
let time: TimeSource;
/** Fixture address → live id. */
let ids: Map<string, string>;
let exported: ExportResult;
const dirs: string[] = [];

beforeAll(async () => {
  sb = await startTestSandbox();
  ({ ops, time } = await engineAccount(sb));
  const store = new MemoryStateStore();
  const applied = await applyChanges({ ops, store, desired: fixture, time });
  expect(applied.result.failures).toEqual([]);
  ids = new Map(Object.entries(store.saved!.resources).map(([address, r]) => [address, r.id!]));
  exported = await exportAccount(ops, { schemaRef: "../schemas/vigil.schema.json" });
});
afterAll(async () => {
  await sb.close();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function writeFiles(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "vigil-export-"));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

/** The export's address of a fixture resource, through its live id. */
function exportedAddress(fixtureAddress: string): string {
  const id = ids.get(fixtureAddress);
  const entry = exported.imports.find((i) => i.id === id);
  if (!entry) throw new Error(`${fixtureAddress} (${id}) was not exported`);
  return entry.to;
}

/** The value each placeholder stands for: what the fixture sent at that member of the same object. */
function fixtureEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const v of exported.variables) {
    const resource = fixture.find((r) => exportedAddress(r.address) === v.address)!;
    env[v.name] = String(getAt(resource.members, toPointer(v.member)));
  }
  return env;
}

const data = (file: string): Record<string, any> => parse(exported.files[file]!);
const placeholder = (name: string) => `\${env:${name}}`;

describe("vigil export", () => {
  it("writes one file per collection, each with the schema comment, and the imports", () => {
    expect(Object.keys(exported.files).sort()).toEqual([
      "contact-groups.yaml",
      "contacts.yaml",
      "imports.yaml",
      "maintenance.yaml",
      "monitors.yaml",
      "status-pages.yaml",
      "webhooks.yaml",
    ]);
    for (const text of Object.values(exported.files))
      expect(text.split("\n")[0]).toBe("# yaml-language-server: $schema=../schemas/vigil.schema.json");
    // Every object once: the fixture's resources, subscriptions included.
    expect(exported.imports.map((i) => i.id).sort()).toEqual([...ids.values()].sort());
    expect(data("imports.yaml").imports).toEqual(exported.imports);
  });

  it("names objects by their names, or their natural keys when the name is the service's default", () => {
    expect(Object.keys(data("monitors.yaml").monitors)).toEqual(
      expect.arrayContaining([
        "http-full-export",
        "api-export",
        // A ping monitor without a name: its name reads as its url, so the url's host names it.
        "ping-export-example-com",
        "probe-export-example-com",
        "db-export",
      ]),
    );
    expect(Object.keys(data("contacts.yaml").contacts).sort()).toEqual(
      [
        "alerts-export",
        "hook-export",
        "voice-export",
        "push-export-example-com",
        "reports-export-example-com",
      ]
        .concat(exportedAddress("contacts.sms").split(".")[1]!)
        .sort(),
    );
    expect(Object.keys(data("status-pages.yaml").statusPages)).toEqual(["status-export"]);
    for (const i of exported.imports) {
      for (const name of i.to.split(".").filter((_, n) => n % 2 === 1)) expect(name).toMatch(namePattern);
    }
  });

  it("writes members in the kind's order, without the service's defaults", () => {
    const ping = data("monitors.yaml").monitors["ping-export-example-com"];
    // Written as sent; its name (the url) and interval (180), tags ([]) and fallback are defaults.
    expect(ping).toEqual({
      type: "ping",
      url: `Ping-${tag}.Example.com`,
      locations: { pools: ["allworld"] },
      settings: {
        dns: ["8.8.8.8"],
        publicDns: 1,
        expectedDns: ["1.1.1.1"],
        expectedIps: ["203.0.113.5"],
        attached: { dnsbl: { enabled: true } },
      },
    });
    const http = data("monitors.yaml").monitors["http-full-export"];
    expect(Object.keys(http)).toEqual([
      "type",
      "url",
      "name",
      "interval",
      "tags",
      "locations",
      "recheck",
      "openStat",
      "fullLog",
      "slaTarget",
      "settings",
      "alerts",
      "reports",
    ]);
    expect(http.url).toBe(`example-${tag}.com`);
    // A preset builds the rest of the settings: written alone, as it must be sent.
    expect(data("monitors.yaml").monitors["preset-export-example-com"].settings).toEqual({ preset: "bl:ru" });
    // A fixed-cadence type's interval is the service's own.
    expect(data("monitors.yaml").monitors["dnsbl-export-example-com"]).toEqual({
      type: "dnsbl",
      url: `dnsbl-${tag}.example.com`,
    });
    expect(data("contacts.yaml").contacts["reports-export-example-com"]).toEqual({
      type: "email",
      address: `reports-${tag}@example.com`,
    });
  });

  it("nests subscriptions on their monitors, naming their contacts", () => {
    const monitors = data("monitors.yaml").monitors;
    expect(monitors["http-full-export"].alerts).toEqual([
      { contact: "alerts-export", alertTypes: ["up", "down"] },
      { contact: "hook-export", alertTypes: ["repeatedlyDown", "down", "up"] },
    ]);
    expect(monitors["http-full-export"].reports).toEqual([
      { contact: "alerts-export", frequencies: ["weekly", "daily"] },
    ]);
    expect(monitors["api-export"].reports).toEqual([
      { contact: "reports-export-example-com", frequencies: ["yearly", "monthly", "quarterly"] },
    ]);
    expect(exported.imports).toContainEqual({
      to: "monitors.http-full-export.alerts.hook-export",
      id: ids.get("alertSubscriptions.http-full-hook"),
    });
    expect(exported.imports).toContainEqual({
      to: "monitors.api-export.reports.reports-export-example-com",
      id: ids.get("reportSubscriptions.api-reports"),
    });
  });

  it("writes references as names and timestamps as ISO 8601", () => {
    expect(data("maintenance.yaml").maintenance["weekly-export"]).toMatchObject({
      from: "2030-01-06T02:00:00Z",
      to: "2030-01-06T04:00:00Z",
      monitors: ["http-full-export", "api-export", "ping-export-example-com"],
    });
    expect(data("status-pages.yaml").statusPages["status-export"].components).toEqual([
      { name: "Website", monitor: "http-full-export" },
      { name: "API", monitor: "api-export" },
      { name: "Support desk", manualState: "degraded" },
    ]);
    expect(data("webhooks.yaml").webhooks["events-export"].scope).toEqual({
      monitors: ["http-full-export", "api-export"],
    });
    expect(data("contact-groups.yaml").contactGroups[`oncall-${tag}`].members).toEqual([
      { contact: "alerts-export", events: ["weekly", "down", "up"] },
      { contact: "hook-export", events: ["repeatedlyDown", "down"] },
    ]);
    const text = Object.values(exported.files).join("\n");
    for (const id of ids.values()) {
      // Ids appear only in imports.yaml.
      const outside = Object.entries(exported.files).filter(
        ([f, t]) => f !== "imports.yaml" && t.includes(id),
      );
      expect(
        outside.map(([f]) => f),
        id,
      ).toEqual([]);
    }
    expect(text).not.toContain("monitorId");
    expect(text).not.toContain("contactId");
  });

  it("writes credentials as env placeholders, never their values, and lists the variables", () => {
    const text = Object.values(exported.files).join("\n");
    for (const secret of credentialValues) expect(text).not.toContain(secret);
    expect(JSON.stringify(exported)).not.toContain(`pw-${tag}`);
    expect(data("monitors.yaml").monitors["http-full-export"].settings.password).toBe(
      placeholder("VIGIL_MONITORS_HTTP_FULL_EXPORT_SETTINGS_PASSWORD"),
    );
    expect(data("webhooks.yaml").webhooks["events-export"]).toMatchObject({
      headers: [
        { header: "Authorization", value: placeholder("VIGIL_WEBHOOKS_EVENTS_EXPORT_HEADERS_0_VALUE") },
      ],
    });
    // Read back masked and a member of its own: nobody can know it, so it is left out (the webhook keeps it).
    expect(data("webhooks.yaml").webhooks["events-export"].secret).toBeUndefined();
    expect(exported.leftOut).toEqual([{ address: "webhooks.events-export", member: "secret" }]);
    // Every header value is a credential: a contact's, a monitor's and a webhook's alike.
    expect(data("contacts.yaml").contacts["hook-export"].httpHeaders).toEqual([
      { header: "Authorization", value: placeholder("VIGIL_CONTACTS_HOOK_EXPORT_HTTP_HEADERS_0_VALUE") },
      { header: "X-Source", value: placeholder("VIGIL_CONTACTS_HOOK_EXPORT_HTTP_HEADERS_1_VALUE") },
    ]);
    expect(data("monitors.yaml").monitors["http-full-export"].settings.headers).toEqual([
      { name: "X-Env", value: placeholder("VIGIL_MONITORS_HTTP_FULL_EXPORT_SETTINGS_HEADERS_0_VALUE") },
    ]);
    expect(exported.variables).toEqual([
      {
        name: "VIGIL_CONTACTS_HOOK_EXPORT_HTTP_HEADERS_0_VALUE",
        address: "contacts.hook-export",
        member: "httpHeaders.0.value",
      },
      {
        name: "VIGIL_CONTACTS_HOOK_EXPORT_HTTP_HEADERS_1_VALUE",
        address: "contacts.hook-export",
        member: "httpHeaders.1.value",
      },
      {
        name: "VIGIL_MONITORS_API_EXPORT_SETTINGS_PASSWORD",
        address: "monitors.api-export",
        member: "settings.password",
      },
      {
        name: "VIGIL_MONITORS_API_EXPORT_SETTINGS_HEADERS_0_VALUE",
        address: "monitors.api-export",
        member: "settings.headers.0.value",
      },
      {
        name: "VIGIL_MONITORS_DB_EXPORT_SETTINGS_CONNECTION_STRING",
        address: "monitors.db-export",
        member: "settings.connectionString",
      },
      {
        name: "VIGIL_MONITORS_DB_EXPORT_SETTINGS_PASSWORD",
        address: "monitors.db-export",
        member: "settings.password",
      },
      {
        name: "VIGIL_MONITORS_HTTP_FULL_EXPORT_SETTINGS_PASSWORD",
        address: "monitors.http-full-export",
        member: "settings.password",
      },
      {
        name: "VIGIL_MONITORS_HTTP_FULL_EXPORT_SETTINGS_HEADERS_0_VALUE",
        address: "monitors.http-full-export",
        member: "settings.headers.0.value",
      },
      {
        name: "VIGIL_MONITORS_SNMP_EXPORT_SETTINGS_COMMUNITY",
        address: "monitors.snmp-export",
        member: "settings.community",
      },
      {
        name: "VIGIL_MONITORS_SNMP_EXPORT_SETTINGS_AUTH_KEY",
        address: "monitors.snmp-export",
        member: "settings.authKey",
      },
      {
        name: "VIGIL_MONITORS_SNMP_EXPORT_SETTINGS_PRIV_KEY",
        address: "monitors.snmp-export",
        member: "settings.privKey",
      },
      {
        name: "VIGIL_WEBHOOKS_EVENTS_EXPORT_HEADERS_0_VALUE",
        address: "webhooks.events-export",
        member: "headers.0.value",
      },
    ]);
  });

  it("the same account exports the same files", async () => {
    expect(await exportAccount(ops, { schemaRef: "../schemas/vigil.schema.json" })).toEqual(exported);
  });

  it("round trip: a plan of the export with a fresh state imports every object and changes nothing", async () => {
    const dir = await writeFiles(exported.files);
    const loaded = await loadConfig([dir], { env: fixtureEnv() });
    expect(loaded.diagnostics).toEqual([]);
    expect(loaded.imports.length).toBe(ids.size);
    const { plan } = await planChanges({
      ops,
      store: new MemoryStateStore(),
      desired: loaded.resources,
      imports: loaded.imports,
      time,
    });
    expect(plan.actions.filter((a) => a.action !== "import" || a.changes.length > 0)).toEqual([]);
    expect(plan.summary.import).toBe(ids.size);
  });

  it("an import checks credentials read back in full; masked ones are taken from the config", async () => {
    const dir = await writeFiles(exported.files);
    const env = {
      ...fixtureEnv(),
      VIGIL_MONITORS_HTTP_FULL_EXPORT_SETTINGS_PASSWORD: "not-the-password",
      // The webhook's header values read back `{set: true}`: nothing can show this one differs.
      VIGIL_WEBHOOKS_EVENTS_EXPORT_HEADERS_0_VALUE: "Bearer another-token",
    };
    const loaded = await loadConfig([dir], { env });
    const { plan } = await planChanges({
      ops,
      store: new MemoryStateStore(),
      desired: loaded.resources,
      imports: loaded.imports,
      time,
    });
    expect(plan.warnings).toContainEqual(
      expect.stringMatching(/^webhooks\.events-export: the API does not read back headers\.0\.value;/),
    );
    const changed = plan.actions.filter((a) => a.changes.length > 0);
    expect(changed.map((a) => [a.address, a.action, a.changes])).toEqual([
      [
        "monitors.http-full-export",
        "import",
        [
          {
            op: "replace",
            path: "/settings/password",
            value: "(sensitive)",
            before: "(sensitive, differs)",
            sensitive: true,
          },
        ],
      ],
    ]);
  });
});

describe("vigil export, names and literals", () => {
  it("gives colliding names -2, -3 in a stable order, and escapes a literal placeholder", async () => {
    const account = await engineAccount(sb);
    const desired: DesiredResource[] = [
      httpMonitor("a", "https://a.example.com/", { name: "Checkout" }),
      httpMonitor("b", "https://b.example.com/", { name: "Checkout" }),
      httpMonitor("c", "https://c.example.com/", {
        name: "Checkout",
        settings: { method: "P", body: `{"user":"\${USER}"}` },
      }),
      // Its own name is what a suffix would give: the suffixes step over it.
      httpMonitor("d", "https://d.example.com/", { name: "Checkout 2" }),
    ];
    const store = new MemoryStateStore();
    await applyChanges({ ops: account.ops, store, desired, time: account.time });
    const first = await exportAccount(account.ops);
    const monitors = parse(first.files["monitors.yaml"]!).monitors as Record<string, any>;
    expect(Object.keys(monitors)).toEqual(["checkout", "checkout-2", "checkout-3", "checkout-4"]);
    expect(monitors["checkout-2"].url).toBe("https://d.example.com/");
    expect(first.files["monitors.yaml"]!.startsWith("monitors:")).toBe(true);
    expect(await exportAccount(account.ops)).toEqual(first);

    const c = Object.values(monitors).find((m) => m.url === "https://c.example.com/");
    expect(c.settings.body).toBe(`{"user":"$\${USER}"}`);
    const dir = await writeFiles(first.files);
    const loaded = await loadConfig([dir], { env: {} });
    expect(loaded.diagnostics).toEqual([]);
    const { plan } = await planChanges({
      ops: account.ops,
      store: new MemoryStateStore(),
      desired: loaded.resources,
      imports: loaded.imports,
      time: account.time,
    });
    expect(plan.actions.map((a) => [a.action, a.changes])).toEqual([
      ["import", []],
      ["import", []],
      ["import", []],
      ["import", []],
    ]);
  });

  it("fails clearly when an object references one the lists did not return", async () => {
    const account = await engineAccount(sb);
    const desired = fixture.filter((r) => r.kind === "contact" || r.address === "contactGroups.oncall");
    const store = new MemoryStateStore();
    await applyChanges({ ops: account.ops, store, desired, time: account.time });
    const hidden = store.saved!.resources["contacts.http"]!.id!;
    const contacts = account.ops.contact;
    const partial = {
      ...account.ops,
      contact: {
        ...contacts,
        sync: async (...args: Parameters<typeof contacts.sync>) => {
          const page = await contacts.sync(...args);
          return { ...page, rows: page.rows.filter((r) => r.id !== hidden) };
        },
      },
    } as Operations;
    await expect(exportAccount(partial)).rejects.toThrow(
      `contactGroups.oncall-${tag} members.1.contactId references contact ${hidden}, which the account's list did not return`,
    );
  });
});
