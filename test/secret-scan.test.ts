/**
 * The secret scan: a distinctive secret in every credential of every kind, then every flow a user or a CI
 * job runs, and none of the secrets may appear in what they print or write (what a CI log keeps, or a user
 * commits). The credentials are found from the kinds' `writeOnly` trait, so a credential added to a kind is
 * scanned without touching this file; the fixture must hold an object that sets it, and the first test
 * says which one is missing.
 *
 * Flows: the CLI on a repository whose every credential comes from `${env:...}`, and a set member too (a
 * monitor's tags: a set is compared sorted, so its mask must follow the value; validate, plan, --json,
 * --markdown, --out, apply, a no-op plan, state list/show, export in every format, output); the Terraform provider's
 * handlers (validate, plan, apply, refresh; rendered as Terraform renders them, sensitive values masked);
 * the Pulumi provider's handlers (check, create, read, diff; what Pulumi would store outside its encrypted
 * secrets). Files: everything under the repository, state and plan files included. Refusals are scanned
 * in test/secret-scan-refusals.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import {
  applyChanges,
  type DesiredResource,
  engineKind,
  engineKinds,
  MemoryStateStore,
} from "../src/engine/index.ts";
import { getAt, setAt, toPointer } from "../src/engine/pointer.ts";
import { refsIn, resolveRefs } from "../src/engine/refs.ts";
import { type ExportResult, exportAccount } from "../src/gitops/export.ts";
import { credentialPatterns, credentialPointers, monitorTypeNames } from "../src/kinds/index.ts";
import { createHandlers as pulumiHandlers } from "../src/pulumi/provider/handlers.ts";
import { isSecret, type Props, secret } from "../src/pulumi/provider/values.ts";
import { resourceToken } from "../src/pulumi/tokens.ts";
import { type CtyValue, isObjectValue, Unknown } from "../src/terraform/cty.ts";
import type { Attributes } from "../src/terraform/resource-values.ts";
import { resourceType } from "../src/terraform/resources.ts";
import { resourceTypeName } from "../src/terraform/schema.ts";
import { project, shown } from "./cli/e2e/helpers.ts";
import type { VigilRun } from "./cli/vigil.ts";
import { engineAccount } from "./engine/e2e/helpers.ts";
import { everyKindFixture } from "./engine/fixtures/every-kind.ts";
import { startTestSandbox, type TestSandbox } from "./helpers/sandbox.ts";
import { filesUnder, printedBy, secretsIn } from "./helpers/secret-scan.ts";
import { attr, configuredCore } from "./helpers/terraform-core.ts";

const tag = "scan";

/** Every credential the kinds declare: kind, monitor type (settings differ by type), and its path. */
function declaredCredentials(): string[] {
  const out: string[] = [];
  for (const kind of engineKinds) {
    const types = kind.name === "monitor" ? monitorTypeNames : [undefined];
    for (const type of types)
      for (const pattern of credentialPatterns(kind.schemaFor(type ? { type } : {})))
        out.push(`${kind.name}${type ? `(${type})` : ""} ${pattern.join("/")}`);
  }
  return out;
}

const patternOf = (pointer: string) =>
  pointer
    .slice(1)
    .split("/")
    .map((t) => (/^\d+$/.test(t) ? "*" : t))
    .join("/");

/**
 * The every-kind fixture with a distinctive secret in each credential it sets, and which declared
 * credentials that covers. A secret is long and random, so finding it anywhere is no coincidence.
 */
function secretFixture() {
  const secrets: string[] = [];
  const covered = new Set<string>();
  const resources = everyKindFixture(tag).map((r): DesiredResource => {
    const kind = engineKind(r.kind);
    const members = structuredClone(r.members);
    for (const pointer of credentialPointers(kind.schemaFor(members), members)) {
      const value = `S3cr3t-${secrets.length}-${Math.random().toString(36).slice(2, 12)}-${tag}`;
      // A header value keeps its scheme word, as a real one would.
      setAt(members, pointer, pointer.endsWith("/value") ? `Bearer ${value}` : value);
      secrets.push(value);
      const type = r.kind === "monitor" ? `(${String(members.type)})` : "";
      covered.add(`${r.kind}${type} ${patternOf(pointer)}`);
    }
    return { ...r, members };
  });
  return { resources, secrets, covered };
}

const fixture = secretFixture();
/** A value from the environment in a set; it sorts before the literal beside it, so sorting moves it. */
const setSecret = `aaa-S3cr3t-set-${Math.random().toString(36).slice(2, 12)}-${tag}`;
/** The fixture's addresses that hold a credential. */
const holdingCredentials = fixture.resources
  .filter((r) => credentialPointers(engineKind(r.kind).schemaFor(r.members), r.members).length > 0)
  .map((r) => r.address);

let sb: TestSandbox;
let target: TestSandbox;
beforeAll(async () => {
  [sb, target] = await Promise.all([startTestSandbox(), startTestSandbox()]);
});
afterAll(async () => {
  await Promise.all([sb?.close(), target?.close()]);
});

function expectNoSecret(texts: Record<string, string>, values = [...fixture.secrets, setSecret]) {
  expect(secretsIn(texts, Object.fromEntries(values.map((v) => [v, v])))).toEqual([]);
}

describe("secret scan", { timeout: 180_000 }, () => {
  it("the fixture sets every credential the kinds declare", () => {
    const missing = declaredCredentials().filter((c) => !fixture.covered.has(c));
    expect(missing, "add an object setting these to test/engine/fixtures/every-kind.ts").toEqual([]);
    expect(fixture.secrets.length).toBeGreaterThanOrEqual(declaredCredentials().length);
  });

  it("the CLI: validate, routes, plan (human, --json, --markdown, --out), apply, state, export, output", {
    timeout: 300_000,
  }, async () => {
    // The account the repository is exported from: the fixture applied by the engine.
    const source = await engineAccount(sb);
    const store = new MemoryStateStore();
    const applied = await applyChanges({
      ops: source.ops,
      store,
      desired: fixture.resources,
      time: source.time,
    });
    expect(applied.result.failures).toEqual([]);
    const exported = await exportAccount(source.ops);
    const { files, env } = repository(exported, store.saved!.resources);

    // The repository a user commits: credentials only as ${env:...}, set in the job's environment. Another
    // service, so that names unique across accounts (a status page's slug) are free again.
    const p = await project(target, files, env);
    const runs: Record<string, VigilRun> = {};
    const run = async (name: string, args: string[], code = 0) => {
      const r = await p.run(args);
      runs[name] = r;
      expect(r.code, `${name}\n${shown(r)}`).toBe(code);
      return r;
    };
    await run("validate", ["validate"]);
    // Offline, so alongside one another: the routing matrix names contacts, never their addresses or headers.
    await Promise.all([run("routes", ["routes"]), run("routes --json", ["routes", "--json"])]);
    await run("plan", ["plan"]);
    await run("plan --json", ["plan", "--json"]);
    await run("plan --markdown", ["plan", "--markdown"]);
    await run("plan --out", ["plan", "--out", "plan.json"]);
    const apply = await run("apply --plan", ["apply", "--plan", "plan.json"]);
    expect(apply.stdout).toMatch(/Apply complete: \d+ created\./);
    await run("plan after apply", ["plan", "--detailed-exitcode"]);
    await run("state list", ["state", "list"]);
    // Every address whose state holds a credential's hash: what `state show` could leak.
    const state = JSON.parse(await p.read(".vigil/state.json")) as {
      resources: Record<string, { secrets?: object }>;
    };
    const holding = Object.keys(state.resources).filter((a) => state.resources[a]!.secrets);
    expect(holding.length).toBe(holdingCredentials.length);
    for (const address of holding) await run(`state show ${address}`, ["state", "show", address]);
    await run("export", ["export", "--out", "exported"]);
    // The other formats at once: each only reads the account.
    await Promise.all(
      ["hcl", "pulumi", "cdktf"].map((format) =>
        run(`export --format ${format}`, ["export", "--format", format, "--out", `exported-${format}`]),
      ),
    );
    await run("output", ["output"]);
    await run("output --json", ["output", "--json"]);

    const written = await filesUnder(p.dir);
    expect(Object.keys(written)).toEqual(expect.arrayContaining([".vigil/state.json", "plan.json"]));
    expect(Object.keys(written).filter((n) => n.startsWith("exported/")).length).toBeGreaterThan(5);
    for (const format of ["hcl", "pulumi", "cdktf"])
      expect(Object.keys(written).filter((n) => n.startsWith(`exported-${format}/`)).length).toBeGreaterThan(
        3,
      );
    const printed = printedBy(runs);
    // An export writes the account as it is, credentials as placeholders: a tag is no credential, and
    // export reads no configuration to know it came from an environment.
    const exportedFiles = Object.keys(written).filter((n) => /^exported(-\w+)?\//.test(n));
    const ownFiles = Object.fromEntries(Object.entries(written).filter(([n]) => !exportedFiles.includes(n)));
    expectNoSecret({ ...printed, ...ownFiles });
    expectNoSecret(
      {
        ...Object.fromEntries(exportedFiles.map((n) => [n, written[n]!])),
        "export of the source account": JSON.stringify(exported),
      },
      fixture.secrets,
    );

    // The secrets did reach the account: masking is vigil's, not an empty value.
    const contact = await p.account.get(
      `/contact/${await p.idOf(addressOf(exported, store, "contacts.http"))}`,
    );
    expect(fixture.secrets.some((s) => JSON.stringify(contact.body.httpHeaders).includes(s))).toBe(true);
  });

  it("the Terraform provider: plans and state as Terraform renders them mask every credential", async () => {
    const account = await sb.account({ plan: "enterprise" });
    const diagnostics: unknown[] = [];
    const core = await configuredCore({ VIGIL_ENDPOINT: sb.url, VIGIL_TOKEN: account.token }, diagnostics);
    const rendered: Record<string, string> = {};
    const ids = new Map<string, string>();
    for (const r of withTheirReferences(fixture.resources)) {
      const typeName = resourceTypeName(r.kind);
      const { attributes } = resourceType(typeName);
      const config = core.config(typeName, configMembers(r, ids));
      const plan = await core.plan(typeName, null, config);
      rendered[`plan ${r.address}`] = masked(plan.planned, attributes);
      const created = await core.apply(typeName, null, plan, config);
      rendered[`state ${r.address}`] = masked(created!.state, attributes);
      const read = await core.read(typeName, created!);
      rendered[`refresh ${r.address}`] = masked(read!.state, attributes);
      ids.set(r.address, String(attr(created, "id")));
    }
    for (const address of holdingCredentials) expect(ids.has(address), address).toBe(true);
    // A refused config names the credential's attribute, never its value.
    const webhook = fixture.resources.find((r) => r.kind === "webhook")!;
    const refused = await core.validate(
      "vigil_webhook",
      core.config("vigil_webhook", {
        ...configMembers(webhook, ids),
        secret: "short",
        headers: [{ header: "X-A", value: `${fixture.secrets[0]}\r\nX-B: 1` }],
      }),
    );
    expect(refused.map((d) => d.summary).sort()).toEqual(["Invalid headers[0].value", "Invalid secret"]);
    expectNoSecret({ ...rendered, diagnostics: JSON.stringify(diagnostics) });
  });

  it("the Pulumi provider: every credential is a secret in the inputs and outputs it answers", async () => {
    const account = await sb.account({ plan: "enterprise" });
    const p = pulumiHandlers({});
    p.Configure({ args: { endpoint: sb.url, token: secret(account.token) } });
    const stored: Record<string, string> = {};
    const ids = new Map<string, string>();
    for (const r of withTheirReferences(fixture.resources)) {
      const urn = `urn:pulumi:dev::scan::${resourceToken(r.kind)}::${r.address}`;
      // The program passes every value plainly, as one that forgets pulumi.secret() would.
      const news = configMembers(r, ids) as Props;
      const checked = await p.Check({ urn, news });
      expect(checked.failures).toEqual([]);
      const created = await p.Create({ urn, properties: checked.inputs });
      const read = await p.Read({
        urn,
        id: created.id,
        properties: created.properties,
        inputs: checked.inputs,
      });
      const diff = p.Diff({ urn, id: created.id, olds: created.properties, news, oldInputs: checked.inputs });
      stored[`diff ${r.address}`] = plainPart(diff);
      stored[`inputs ${r.address}`] = plainPart(checked.inputs);
      stored[`outputs ${r.address}`] = plainPart(created.properties);
      stored[`read ${r.address}`] = plainPart(read);
      ids.set(r.address, created.id);
    }
    for (const address of holdingCredentials) expect(ids.has(address), address).toBe(true);
    expectNoSecret(stored);
  });
});

// ---------------------------------------------------------------------------

/**
 * The exported files as a repository: imports dropped (a fresh account gets every object created), each
 * credential the export left out (a webhook's own secret) given a placeholder too, and the environment
 * that fills every placeholder with the fixture's secret at that member.
 */
function repository(exported: ExportResult, saved: Record<string, { id?: string }>) {
  const fixtureOf = new Map<string, DesiredResource>();
  for (const i of exported.imports) {
    const address = Object.entries(saved).find(([, r]) => r.id === i.id)?.[0];
    const resource = fixture.resources.find((r) => r.address === address);
    if (resource) fixtureOf.set(i.to, resource);
  }
  const valueAt = (address: string, member: string) => {
    const resource = fixtureOf.get(address)!;
    return String(getAt(engineKind(resource.kind).normalizeDesired(resource.members), toPointer(member)));
  };
  const env: Record<string, string> = {};
  for (const v of exported.variables) env[v.name] = valueAt(v.address, v.member);
  const files = Object.fromEntries(
    Object.entries(exported.files).filter(([name]) => name !== "imports.yaml"),
  );
  for (const [i, left] of exported.leftOut.entries()) {
    const [collection, name] = [
      left.address.slice(0, left.address.indexOf(".")),
      left.address.slice(left.address.indexOf(".") + 1),
    ];
    const file = Object.keys(files).find((f) => parse(files[f]!)?.[collection]?.[name]);
    const data = parse(files[file!]!);
    const variable = `VIGIL_SCAN_LEFT_OUT_${i}`;
    data[collection][name][left.member] = `\${env:${variable}}`;
    env[variable] = valueAt(left.address, left.member);
    files[file!] = stringify(data);
  }
  // A monitor's tags: a literal and a value from the environment.
  const monitorsFile = Object.keys(files).find((f) => parse(files[f]!)?.monitors)!;
  const data = parse(files[monitorsFile]!);
  const first = Object.values(data.monitors)[0] as Record<string, unknown>;
  const tagVariable = "VIGIL_SCAN_TAG";
  first.tags = ["zzz-scan-literal", `\${env:${tagVariable}}`];
  env[tagVariable] = setSecret;
  files[monitorsFile] = stringify(data);
  // Every secret the service keeps is now a placeholder the environment fills.
  const placed = new Set(Object.values(env));
  const kept = fixture.resources.flatMap((r) => {
    const members = engineKind(r.kind).normalizeDesired(r.members);
    return credentialPointers(engineKind(r.kind).schemaFor(members), members).map((p) =>
      String(getAt(members, p)),
    );
  });
  expect(kept.filter((s) => !placed.has(s))).toEqual([]);
  return { files, env };
}

/** A resource's members as a Terraform or Pulumi program writes them: ids for references, the stored forms. */
function configMembers(r: DesiredResource, ids: ReadonlyMap<string, string>): Record<string, unknown> {
  const members = resolveRefs(r.members, (a) => ids.get(a)) as Record<string, unknown>;
  return engineKind(r.kind).normalizeDesired(members);
}

/** The exported address of a fixture resource. */
function addressOf(exported: ExportResult, store: MemoryStateStore, fixtureAddress: string): string {
  const id = store.saved!.resources[fixtureAddress]!.id;
  return exported.imports.find((i) => i.id === id)!.to;
}

/** The fixture's resources that hold a credential, and what they reference, in dependency order. */
function withTheirReferences(resources: readonly DesiredResource[]): DesiredResource[] {
  const wanted = new Set<string>();
  const add = (address: string) => {
    if (wanted.has(address)) return;
    wanted.add(address);
    for (const target of refsIn(resources.find((r) => r.address === address)!.members)) add(target);
  };
  for (const r of resources) {
    const kind = engineKind(r.kind);
    if (credentialPointers(kind.schemaFor(r.members), r.members).length > 0) add(r.address);
  }
  return resources.filter((r) => wanted.has(r.address));
}

/** A value as Terraform prints it in a plan or `terraform show`: sensitive attributes hidden. */
function masked(value: CtyValue, attributes: Attributes): string {
  const walk = (v: CtyValue, attrs: Attributes): unknown => {
    if (!isObjectValue(v)) return v instanceof Unknown ? "(known after apply)" : v;
    return Object.fromEntries(
      Object.entries(attrs).map(([name, a]) => {
        const inner = v[name] ?? null;
        if (a.sensitive) return [name, "(sensitive value)"];
        const nested = a.nested_type;
        if (inner instanceof Unknown) return [name, "(known after apply)"];
        if (!nested || inner === null) return [name, inner];
        if (nested.nesting_mode === "single") return [name, walk(inner, nested.attributes)];
        const items = Array.isArray(inner) ? inner : Object.values(inner as Record<string, CtyValue>);
        return [name, items.map((item) => walk(item, nested.attributes))];
      }),
    );
  };
  return JSON.stringify(walk(value, attributes));
}

/** What Pulumi stores in plain text: everything but the values wrapped as secrets (it encrypts those). */
function plainPart(value: unknown): string {
  const walk = (v: unknown): unknown => {
    if (isSecret(v)) return "[secret]";
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v === "object" && v !== null)
      return Object.fromEntries(Object.entries(v).map(([k, item]) => [k, walk(item)]));
    return v;
  };
  return JSON.stringify(walk(value));
}
