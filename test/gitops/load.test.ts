import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { displayName } from "../../src/gitops/files.ts";
import {
  formatDiagnostic,
  importProblems,
  type LoadOptions,
  loadConfig,
  referenceProblems,
} from "../../src/gitops/load.ts";
import type { Draft } from "../../src/gitops/load-draft.ts";

/** The GitOps loader on its own: YAML files in, the engine's desired state (or diagnostics) out. */
const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function repo(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "vigil-load-"));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  return dir;
}

async function load(files: Record<string, string>, options: LoadOptions = { env: {} }) {
  const dir = await repo(files);
  const config = await loadConfig([dir], options);
  const file = (name: string) => displayName(join(dir, name));
  const byAddress = new Map(config.resources.map((r) => [r.address, r]));
  return { dir, config, file, resource: (address: string) => byAddress.get(address) };
}

const contacts = `contacts:
  oncall: { type: http, address: https://hooks.example.com/pager }
  team-email: { type: email, address: team@example.com }
`;
const monitor = `monitors:
  checkout-api:
    type: http
    url: https://shop.example.com/health
    locations: { pools: [westeurope] }
`;

describe("references", () => {
  it("become {$ref} to <collection>.<name> under the API's member names, everywhere a kind references", async () => {
    const { config, resource } = await load({
      "monitoring.yaml": `${contacts}${monitor}contactGroups:
  sre: { name: SRE, members: [{ contact: oncall, events: [down, up] }] }
maintenance:
  deploy: { name: Deploy, from: 1796090400, to: 1796094000, monitors: [checkout-api] }
statusPages:
  public:
    slug: acme-status
    title: Acme Status
    components: [{ name: Checkout, monitor: checkout-api }, { name: Billing, manualState: operational }]
webhooks:
  ops: { url: https://hooks.example.com/vigil, events: [monitor.down], scope: { monitors: [checkout-api] } }
`,
    });
    expect(config.diagnostics).toEqual([]);
    const checkout = { $ref: "monitors.checkout-api" };
    expect(resource("contactGroups.sre")?.members).toEqual({
      name: "SRE",
      members: [{ contactId: { $ref: "contacts.oncall" }, events: ["down", "up"] }],
    });
    expect(resource("maintenance.deploy")?.members.monitorIds).toEqual([checkout]);
    expect(resource("statusPages.public")?.members.components).toEqual([
      { name: "Checkout", monitorId: checkout },
      { name: "Billing", manualState: "operational" },
    ]);
    expect(resource("webhooks.ops")?.members.scope).toEqual({ monitorIds: [checkout] });
  });

  it("may point into another file", async () => {
    const { config, resource } = await load({
      "contacts.yaml": contacts,
      "groups.yaml":
        "contactGroups:\n  sre: { name: SRE, members: [{ contact: team-email, events: [weekly] }] }\n",
    });
    expect(config.diagnostics).toEqual([]);
    expect(resource("contactGroups.sre")?.members.members).toEqual([
      { contactId: { $ref: "contacts.team-email" }, events: ["weekly"] },
    ]);
  });
});

describe("alerts and reports", () => {
  it("are resources of their own, at monitors.<m>.alerts.<contact> and monitors.<m>.reports.<contact>", async () => {
    const { config, resource } = await load({
      "monitoring.yaml": `${contacts}${monitor}    alerts:
      - { contact: oncall, alertTypes: [down, up] }
      - { contact: team-email, alertTypes: [down], lifecycle: { ignoreChanges: [alertTypes] } }
    reports: [{ contact: team-email, frequencies: [weekly] }]
`,
    });
    expect(config.diagnostics).toEqual([]);
    const checkout = { $ref: "monitors.checkout-api" };
    expect(resource("monitors.checkout-api")?.members).toEqual({
      type: "http",
      url: "https://shop.example.com/health",
      locations: { pools: ["westeurope"] },
    });
    expect(resource("monitors.checkout-api.alerts.oncall")).toMatchObject({
      kind: "alertSubscription",
      members: { monitorId: checkout, contactId: { $ref: "contacts.oncall" }, alertTypes: ["down", "up"] },
    });
    expect(resource("monitors.checkout-api.alerts.team-email")).toMatchObject({
      kind: "alertSubscription",
      lifecycle: { ignoreChanges: ["/alertTypes"] },
    });
    expect(resource("monitors.checkout-api.reports.team-email")).toMatchObject({
      kind: "reportSubscription",
      members: { monitorId: checkout, contactId: { $ref: "contacts.team-email" }, frequencies: ["weekly"] },
    });
    expect(config.resources.map((r) => r.address)).toHaveLength(6);
  });
});

describe("timestamps", () => {
  it("take ISO 8601 with a zone (Z or an offset) or Unix seconds, and become Unix seconds", async () => {
    const { config, resource } = await load({
      "maintenance.yaml": `maintenance:
  iso: { name: ISO, from: 2026-12-01T02:00:00Z, to: "2026-12-01T04:30:00+01:00" }
  unix: { name: Unix, from: 1796090400, to: 1796094000 }
  fraction: { name: Fraction, from: 2026-12-01T02:00:00.750Z, to: 2026-12-01 03:00Z }
`,
    });
    expect(config.diagnostics).toEqual([]);
    expect(resource("maintenance.iso")?.members).toMatchObject({ from: 1796090400, to: 1796095800 });
    expect(resource("maintenance.unix")?.members).toMatchObject({ from: 1796090400, to: 1796094000 });
    expect(resource("maintenance.fraction")?.members).toMatchObject({ from: 1796090400, to: 1796094000 });
  });

  it("without a zone is an error at the value", async () => {
    const { config, file } = await load({
      "maintenance.yaml": "maintenance:\n  w: { name: W, from: 2026-12-01T02:00:00, to: 1796094000 }\n",
    });
    expect(config.diagnostics).toEqual([
      {
        at: { file: file("maintenance.yaml"), line: 2, column: 23 },
        address: "maintenance.w",
        path: "from",
        message:
          '"2026-12-01T02:00:00" is not a time; write ISO 8601 with a zone (2026-12-01T02:00:00Z) or Unix seconds',
      },
    ]);
  });
});

describe(`\${env:NAME}`, () => {
  const config = (name: string) =>
    `monitors:\n  web:\n    type: http\n    url: https://shop.example.com\n    locations: { pools: [westeurope] }\n    name: "${name}"\n    settings: { username: probe, password: "\${env:PW}" }\n`;

  it("substitutes variables from the given environment, anywhere in a string", async () => {
    const { config: loaded, resource } = await load(
      { "m.yaml": config(`Checkout (\${env:STAGE})`) },
      { env: { STAGE: "prod", PW: "s3cret" } },
    );
    expect(loaded.diagnostics).toEqual([]);
    expect(resource("monitors.web")?.members).toMatchObject({
      name: "Checkout (prod)",
      settings: { username: "probe", password: "s3cret" },
    });
  });

  it("takes the default after :- when the variable is unset or empty, and $${ writes a literal ${", async () => {
    const unset = await load({ "m.yaml": config(`\${env:STAGE:-staging} $\${HOME}`) }, { env: { PW: "x" } });
    expect(unset.resource("monitors.web")?.members.name).toBe(`staging \${HOME}`);
    const empty = await load({ "m.yaml": config(`\${env:STAGE:-staging}`) }, { env: { STAGE: "", PW: "x" } });
    expect(empty.resource("monitors.web")?.members.name).toBe("staging");
    const set = await load(
      { "m.yaml": config(`\${env:STAGE:-staging}`) },
      { env: { STAGE: "prod", PW: "x" } },
    );
    expect(set.resource("monitors.web")?.members.name).toBe("prod");
  });

  it("reads only the environment it is given", async () => {
    process.env.VIGIL_LOAD_TEST_PW = "from-process";
    try {
      const { config: loaded, file } = await load({
        "m.yaml": config("Checkout").replace("env:PW", "env:VIGIL_LOAD_TEST_PW"),
      });
      expect(loaded.diagnostics.map(formatDiagnostic)).toEqual([
        `${file("m.yaml")}:7:44: monitors.web settings.password: the environment variable VIGIL_LOAD_TEST_PW is not set (\${env:VIGIL_LOAD_TEST_PW})`,
      ]);
    } finally {
      delete process.env.VIGIL_LOAD_TEST_PW;
    }
  });

  it("unset, or malformed, is an error at the string", async () => {
    const { config: loaded, file } = await load({ "m.yaml": config(`\${STAGE}`) });
    expect(loaded.diagnostics.map(formatDiagnostic)).toEqual([
      `${file("m.yaml")}:6:11: monitors.web name: "\${STAGE}" is not a placeholder vigil knows; write \${env:NAME} or \${env:NAME:-default} (or $\${ for a literal \${)`,
      `${file("m.yaml")}:7:44: monitors.web settings.password: the environment variable PW is not set (\${env:PW})`,
    ]);
  });
});

describe("lifecycle", () => {
  it("takes paths in the config's names and hands the engine JSON pointers in the API's", async () => {
    const { config, resource } = await load({
      "monitoring.yaml": `${contacts}${monitor}    lifecycle: { protect: true, ignoreChanges: [settings.timeout, locations.pools], replaceOnChanges: [url] }
contactGroups:
  sre:
    name: SRE
    members: [{ contact: oncall, events: [down] }]
    lifecycle: { ignoreChanges: [members.0.contact], retainOnDelete: true }
webhooks:
  ops:
    url: https://hooks.example.com/vigil
    events: [monitor.down]
    scope: { monitors: [checkout-api] }
    lifecycle: { ignoreChanges: [scope.monitors] }
`,
    });
    expect(config.diagnostics).toEqual([]);
    expect(resource("monitors.checkout-api")?.lifecycle).toEqual({
      protect: true,
      ignoreChanges: ["/settings/timeout", "/locations/pools"],
      replaceOnChanges: ["/url"],
    });
    expect(resource("contactGroups.sre")?.lifecycle).toEqual({
      ignoreChanges: ["/members/0/contactId"],
      retainOnDelete: true,
    });
    expect(resource("webhooks.ops")?.lifecycle).toEqual({ ignoreChanges: ["/scope/monitorIds"] });
    // The lifecycle is not a member the API sees.
    expect(resource("webhooks.ops")?.members).not.toHaveProperty("lifecycle");
  });

  it("refuses a path that names no member, with the members there and a guess", async () => {
    const { config } = await load({
      "m.yaml": `${monitor}    lifecycle: { ignoreChanges: [settings.timout] }\n`,
    });
    expect(config.diagnostics).toHaveLength(1);
    expect(config.diagnostics[0]).toMatchObject({
      at: { line: 6, column: 34 },
      address: "monitors.checkout-api",
      path: "lifecycle.ignoreChanges[0]",
    });
    expect(config.diagnostics[0]!.message).toMatch(
      /^"settings\.timout" is not a member path: unknown member "timout" in settings; allowed members: method, timeout, .*; did you mean "timeout"\?$/,
    );
  });
});

describe("files", () => {
  it("are every *.yaml and *.yml under the paths, merged, hidden directories skipped", async () => {
    const { config, file } = await load({
      "contacts.yml": contacts,
      "services/shop/monitors.yaml": monitor,
      "services/notes.txt": "monitors: [not, yaml, config]\n",
      ".github/workflows/monitoring.yml": "on: push\n",
      "node_modules/x/config.yaml": "not: vigil\n",
      "imports.yaml":
        "imports:\n  - { to: monitors.checkout-api, id: 0f8b6c1e-0000-4000-8000-000000000000 }\n",
    });
    expect(config.diagnostics).toEqual([]);
    expect(config.files).toEqual([
      file("contacts.yml"),
      file("imports.yaml"),
      file("services/shop/monitors.yaml"),
    ]);
    expect(config.resources.map((r) => r.address)).toEqual([
      "contacts.oncall",
      "contacts.team-email",
      "monitors.checkout-api",
    ]);
    expect(config.imports).toEqual([
      { address: "monitors.checkout-api", id: "0f8b6c1e-0000-4000-8000-000000000000" },
    ]);
  });

  it("record where each resource is declared: the name's key", async () => {
    const { resource, file } = await load({ "contacts.yaml": contacts, "monitors.yaml": `\n\n${monitor}` });
    expect(resource("contacts.team-email")?.source).toEqual({
      file: file("contacts.yaml"),
      line: 3,
      column: 3,
    });
    expect(resource("monitors.checkout-api")?.source).toEqual({
      file: file("monitors.yaml"),
      line: 4,
      column: 3,
    });
  });

  it("with only comments, or an empty collection, hold nothing and are fine", async () => {
    const { config } = await load({ "a.yaml": "# nothing yet\n", "b.yaml": "monitors:\ncontacts: {}\n" });
    expect(config).toMatchObject({ diagnostics: [], resources: [], imports: [] });
    expect(config.files).toHaveLength(2);
  });

  it("leave out vigil test's scenario files (*.test.yaml), found or named, and the files asked to skip", async () => {
    const dir = await repo({
      "monitors.yaml": monitor,
      "contacts.yaml": contacts,
      // Not configuration: read as such, each would be an unknown top-level key.
      "tests/checkout.test.yaml": "scenarios: []\n",
      "alerting.Test.YML": "rules: {}\n",
      "scenarios/extra.yaml": "scenarios: []\n",
    });
    const skipFiles = new Set([await realpath(join(dir, "scenarios/extra.yaml"))]);
    const config = await loadConfig([dir, join(dir, "tests/checkout.test.yaml")], { env: {}, skipFiles });
    expect(config.diagnostics).toEqual([]);
    expect(config.files.map((f) => f.slice(displayName(dir).length + 1)).sort()).toEqual([
      "contacts.yaml",
      "monitors.yaml",
    ]);
  });

  it("that do not exist, or hold no YAML, are diagnostics without a position", async () => {
    const dir = await repo({ "README.md": "# not a config\n" });
    expect((await loadConfig([dir], { env: {} })).diagnostics).toEqual([
      {
        message: `no *.yaml or *.yml files under ${dir} (test files, *.test.yaml, are not configuration: vigil test reads them)`,
      },
    ]);
    const missing = join(dir, "nope");
    expect((await loadConfig([missing], { env: {} })).diagnostics).toEqual([
      { message: `${missing}: no such file or directory` },
    ]);
  });
});

describe("diagnostics", () => {
  it("point at the value, or at the key of an unknown member, with the member path in the config's names", async () => {
    const { config, file } = await load({
      "m.yaml": `${contacts}${monitor}    intervl: 60
    settings: { timeout: 10 }
    alerts: [{ contact: oncal, alertTypes: [down] }]
`,
    });
    const f = file("m.yaml");
    expect(config.diagnostics.map(({ at, address, path }) => ({ at, address, path }))).toEqual([
      { at: { file: f, line: 9, column: 5 }, address: "monitors.checkout-api", path: "intervl" },
      { at: { file: f, line: 10, column: 26 }, address: "monitors.checkout-api", path: "settings.timeout" },
      {
        at: { file: f, line: 11, column: 25 },
        address: "monitors.checkout-api.alerts.oncal",
        path: "contact",
      },
    ]);
    expect(config.diagnostics.slice(1).map((d) => d.message)).toEqual([
      "must be at least 50",
      'contacts.oncal is not declared; declared contacts: oncall, team-email; did you mean "oncall"?',
    ]);
  });

  it("come all together, sorted by file, line and column", async () => {
    const { config, file } = await load({
      "b.yaml": "contacts:\n  late: { type: email, address: b@example.com, alertDelay: soon }\n",
      "a.yaml": "contacts:\n  z: { type: emial, address: z@example.com }\n  a: { type: email }\n",
    });
    expect(config.diagnostics.map(formatDiagnostic)).toEqual([
      `${file("a.yaml")}:2:14: contacts.z type: must be one of "email", "sms", "voiceCall", "http", "webPush", "telegram", "slack", "teams", "discord"; did you mean "email"?`,
      `${file("a.yaml")}:3:3: contacts.a address: address is required`,
      `${file("b.yaml")}:2:60: contacts.late alertDelay: expected number, got string "soon"`,
    ]);
  });

  it("never show a credential, even one written as a number", async () => {
    const { config, file } = await load({
      "m.yaml": `${monitor}    settings: { username: probe, password: 918273 }\n`,
    });
    expect(config.diagnostics.map(formatDiagnostic)).toEqual([
      `${file("m.yaml")}:6:44: monitors.checkout-api settings.password: expected string, got integer`,
    ]);
  });

  it("report a member that is missing or wrong once, though the engine judges it too", async () => {
    const { config, file } = await load({
      "m.yaml":
        "maintenance:\n  deploy: { name: D, from: soon, monitors: [] }\nmonitors:\n  web: { type: http, uri: https://x.example.com }\n",
    });
    expect(config.diagnostics.map(formatDiagnostic)).toEqual([
      `${file("m.yaml")}:2:3: maintenance.deploy to: to is required`,
      `${file("m.yaml")}:2:28: maintenance.deploy from: "soon" is not a time; write ISO 8601 with a zone (2026-12-01T02:00:00Z) or Unix seconds`,
      `${file("m.yaml")}:4:3: monitors.web url: url is required: http monitors need one`,
      // A problem of its own beside the misspelt member, said in the same run.
      `${file("m.yaml")}:4:3: monitors.web locations.pools: 422 validation_failed: locations.pools is required: http monitors run from at least one pool (allworld: every location)`,
      `${file("m.yaml")}:4:22: monitors.web uri: unknown member "uri"; allowed members: type, url, name, interval, cronSchedule, enabled, tags, locations, recheck, attached, openStat, fullLog, slaTarget, onOverlimit, settings, alerts, reports, lifecycle; did you mean "url"?`,
    ]);
  });

  it("name where a duplicate was first declared, in the same file or in another", async () => {
    const { config, file } = await load({
      "a.yaml": `${contacts}  oncall: { type: email, address: x@example.com }\n`,
      "b.yaml": "contacts:\n  team-email: { type: email, address: y@example.com }\n",
    });
    expect(config.diagnostics.map(formatDiagnostic)).toEqual([
      `${file("a.yaml")}:4:3: contacts.oncall: the key "oncall" appears twice in this map (first at line 2, column 3); keys must be unique`,
      `${file("b.yaml")}:2:3: contacts.team-email is declared twice (first at ${file("a.yaml")}:3); names are unique per collection across all files`,
    ]);
  });
});

describe("the loader's checks once every file is read", () => {
  const at = (line: number) => ({ file: "a.yaml", line, column: 3 });
  /** A resource with references, in a file that places each value on line 7. */
  const draft = (address: string, refs: Draft["refs"]): Draft => ({
    resource: { address, kind: "alertSubscription", members: {} },
    file: { file: "a.yaml", positions: { value: () => at(7), key: () => at(7), has: () => true } },
    base: address.split("."),
    paths: new Map(),
    refs,
    refused: [],
  });
  const declared = new Map([
    ["contacts", new Map([["oncall", at(2)]])],
    ["monitors", new Map()],
  ]);

  it("refuse a reference to an undeclared name, with the declared ones and the closest", () => {
    const refs: Draft["refs"] = [
      { path: ["contact"], collection: "contacts", name: "oncall" },
      { path: ["contact"], collection: "contacts", name: "oncal" },
      { path: ["monitor"], collection: "monitors", name: "web" },
      { path: ["monitor"], collection: "monitors", name: 7 },
    ];
    expect(referenceProblems([draft("alertSubscriptions.x", refs)], declared, 0)).toEqual([
      {
        address: "alertSubscriptions.x",
        path: "contact",
        at: at(7),
        message: 'contacts.oncal is not declared; declared contacts: oncall; did you mean "oncall"?',
      },
      {
        address: "alertSubscriptions.x",
        path: "monitor",
        at: at(7),
        message: "monitors.web is not declared; no monitors are declared",
      },
      {
        address: "alertSubscriptions.x",
        path: "monitor",
        at: at(7),
        message: "expected the name of one of the monitors, got number 7; no monitors are declared",
      },
    ]);
  });

  it("judge no name when a file could not be read (it may declare any), but still a name that is no string", () => {
    const refs: Draft["refs"] = [
      { path: ["contact"], collection: "contacts", name: "elsewhere" },
      { path: ["monitor"], collection: "monitors", name: null },
    ];
    expect(
      referenceProblems([draft("alertSubscriptions.x", refs)], declared, 1).map((d) => d.message),
    ).toEqual(["expected the name of one of the monitors, got nothing; no monitors are declared"]);
  });

  it("refuse an import of an undeclared address, and one imported twice", () => {
    const addresses = new Map([["contacts.oncall", undefined]]);
    const imports = [
      { address: "contacts.oncal", id: "c1", at: at(10), path: "imports[0]" },
      { address: "contacts.oncall", id: "c2", at: at(11), path: "imports[1]" },
      { address: "contacts.oncall", id: "c3", at: undefined, path: "imports[2]" },
    ];
    expect(importProblems(imports, addresses, 0)).toEqual([
      {
        at: at(10),
        path: "imports[0]",
        message:
          'contacts.oncal is not declared in the config; an import adopts an object as a resource the config declares; did you mean "contacts.oncall"?',
      },
      {
        path: "imports[2]",
        message: "contacts.oncall is imported twice (first at a.yaml:11); import each address once",
      },
    ]);
    expect(importProblems(imports.slice(0, 1), addresses, 1)).toEqual([]);
  });
});
