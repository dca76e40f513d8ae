import { readdirSync, readFileSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { Ajv2020, type ErrorObject } from "ajv/dist/2020.js";
import formats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { collectionOf, nestedIn, topLevelKinds } from "../../src/gitops/format.ts";
import { envPlaceholderSource } from "../../src/gitops/syntax.ts";
import { monitorTypeAliases } from "../../src/kinds/index.ts";
import { repositoryRoot } from "../../tools/generate.ts";

type Json = Record<string, any>;

/** The committed schema: the one editors read (test/generate.test.ts keeps it fresh). */
const schema = JSON.parse(readFileSync(join(repositoryRoot, "schemas/vigil.schema.json"), "utf8")) as Json;

function xKeywords(node: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const item of node) xKeywords(item, found);
  else if (node && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      if (key.startsWith("x-")) found.add(key);
      xKeywords(value, found);
    }
  }
  return found;
}

/** Strict ajv (unknown keywords, type mix-ups fail the compile); the `x-` trait keywords are declared. */
function compile(s: Json) {
  const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
  formats.default(ajv);
  ajv.addVocabulary([...xKeywords(s)]);
  return ajv.compile(s);
}

const validate = compile(schema);

/** The errors of a document, as `<instance path> <keyword> <detail>`. */
function errorsOf(doc: unknown): string[] {
  if (validate(doc)) return [];
  return (validate.errors as ErrorObject[]).map((e) => {
    const p = e.params as Record<string, unknown>;
    const detail = p.additionalProperty ?? p.missingProperty ?? p.pattern ?? p.allowedValues ?? p.type ?? "";
    return `${e.instancePath} ${e.keyword} ${Array.isArray(detail) ? detail.join(",") : detail}`.trim();
  });
}

/** `${env:<spec>}`, built so no string literal looks like a forgotten template. */
const env = (spec: string) => `\${env:${spec}}`;

const yamlFile = /\.ya?ml$/i;
const examplesRoot = join(repositoryRoot, "examples");
const exampleFiles = (readdirSync(examplesRoot, { recursive: true }) as string[])
  .filter((f) => yamlFile.test(f))
  .map((f) => join(examplesRoot, f))
  .sort();
/** vigil skips hidden directories; under examples/ the only ones hold GitHub workflows, checked below. */
const isHidden = (file: string) =>
  relative(examplesRoot, file)
    .split(/[\\/]/)
    .some((part) => part.startsWith("."));
/** Pulumi's project and stack files (examples/pulumi): Pulumi's format, not vigil's. */
const isPulumiProject = (file: string) => /^Pulumi(\.[\w-]+)?\.ya?ml$/.test(basename(file));
/** `vigil test`'s scenario files: their own format and schema (test/cli/scenarios/schema.test.ts). */
const isTestFile = (file: string) => /\.test\.ya?ml$/i.test(file);
const configFiles = exampleFiles.filter((f) => !isHidden(f) && !isPulumiProject(f) && !isTestFile(f));
const workflowFiles = exampleFiles.filter(isHidden);
const load = (file: string) => parse(readFileSync(file, "utf8")) as Json;

describe("the vigil JSON Schema", () => {
  it("is a draft 2020-12 schema that strict ajv compiles", () => {
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(schema.$id).toMatch(/vigil\.schema\.json$/);
    expect(schema.title).toContain("vigil/v1");
    expect(typeof validate).toBe("function");
  });

  it("accepts the example of the issue as written, env placeholder and imports included", () => {
    expect(errorsOf(load(join(import.meta.dirname, "fixtures/issue-example.yaml")))).toEqual([]);
  });

  it("lets any constrained string be an env placeholder, with or without a default", () => {
    const doc = {
      format: "vigil/v1",
      monitors: {
        web: {
          type: env("MONITOR_TYPE"),
          url: "https://example.com/",
          settings: { method: env("METHOD:-G"), password: env("WEB_PW") },
          alerts: [{ contact: env("ONCALL:-oncall"), alertTypes: [env("ALERT_TYPE")] }],
        },
      },
      maintenance: { w: { name: "W", from: env("FROM"), to: 1893902400, monitors: ["web"] } },
      statusPages: { s: { slug: env("SLUG"), title: "S" } },
      // Shorter than the 16 characters a secret needs: the expanded value is what the loader checks.
      webhooks: {
        h: { url: "https://hooks.example.com/x", events: ["monitor.up"], secret: env("SECRET") },
      },
      imports: [{ to: env("ADDRESS"), id: env("ID") }],
    };
    expect(errorsOf(doc)).toEqual([]);
  });

  it("takes timestamps as Unix seconds or ISO 8601 with a zone", () => {
    const window = (from: unknown) => ({ maintenance: { w: { name: "W", from, to: 1893902400 } } });
    for (const ok of [
      1893895200,
      "2030-01-06T02:00:00Z",
      "2030-01-06 02:00+01:00",
      "2030-01-06T02:00:00.5-0500",
    ])
      expect(errorsOf(window(ok)), String(ok)).toEqual([]);
    for (const bad of ["2030-01-06", "2030-01-06T02:00:00", "next sunday", -1, 1.5])
      expect(errorsOf(window(bad)), String(bad)).not.toEqual([]);
  });

  it("accepts an empty collection and nested subscriptions with lifecycle options", () => {
    const doc = {
      contacts: null,
      monitors: {
        m: {
          type: "ping",
          url: "edge.example.com",
          alerts: [{ contact: "c", alertTypes: ["down"], lifecycle: { retainOnDelete: true } }],
          reports: [{ contact: "c", frequencies: ["weekly"] }],
          lifecycle: { protect: true, ignoreChanges: ["settings.dns", "name"], replaceOnChanges: ["url"] },
        },
      },
    };
    expect(errorsOf(doc)).toEqual([]);
  });

  it("checks settings against the monitor's type, aliases included", () => {
    const monitor = (type: string, settings: Json) => ({
      monitors: { m: { type, url: "x.example.com", settings } },
    });
    expect(errorsOf(monitor("http", { keywords: "ok", keywordMode: "PresentAll" }))).toEqual([]);
    expect(errorsOf(monitor("ping", { keywords: "ok" }))).toContain(
      "/monitors/m/settings additionalProperties keywords",
    );
    expect(errorsOf(monitor("http", { steps: [] }))).toContain(
      "/monitors/m/settings additionalProperties steps",
    );
    const alias = Object.keys(monitorTypeAliases)[0]!;
    expect(errorsOf(monitor(alias, { onCpu: 90 }))).toEqual([]);
    expect(errorsOf(monitor(alias, { keywords: "ok" }))).toContain(
      "/monitors/m/settings additionalProperties keywords",
    );
    // Read-only settings are never written.
    expect(errorsOf(monitor("http", { assertsText: "status eq 200" }))).toContain(
      "/monitors/m/settings additionalProperties assertsText",
    );
    expect(errorsOf(monitor("http", { method: "GET" }))).toContain(
      "/monitors/m/settings/method enum H,G,P,U,D,A",
    );
  });

  it("rejects wrong documents, each at the member at fault", () => {
    const cases: [string, Json, string][] = [
      ["unknown top-level key", { monitor: {} }, "additionalProperties monitor"],
      ["wrong format", { format: "vigil/v2" }, "/format const"],
      [
        "name with capitals",
        { contacts: { OnCall: { type: "email", address: "a@example.com" } } },
        "/contacts propertyNames",
      ],
      [
        "unknown member",
        { contacts: { c: { type: "email", adress: "a@example.com" } } },
        "/contacts/c additionalProperties adress",
      ],
      [
        "API name of a reference",
        { contactGroups: { g: { name: "G", members: [{ contactId: "c", events: ["down"] }] } } },
        "/contactGroups/g/members/0 additionalProperties contactId",
      ],
      [
        "reference as an object",
        {
          statusPages: {
            p: { slug: "ps", title: "P", components: [{ name: "C", monitor: { $ref: "monitors.m" } }] },
          },
        },
        "/statusPages/p/components/0/monitor type string",
      ],
      [
        "reference list given one name",
        {
          webhooks: { h: { url: "https://h.example.com", events: ["monitor.up"], scope: { monitors: "m" } } },
        },
        "/webhooks/h/scope/monitors type array",
      ],
      [
        "reference that is not a name",
        { maintenance: { w: { name: "W", from: 1, to: 2, monitors: ["Checkout API"] } } },
        "/maintenance/w/monitors/0 pattern",
      ],
      ["unknown type", { monitors: { m: { type: "htp", url: "x" } } }, "/monitors/m/type enum"],
      ["discontinued type", { monitors: { m: { type: "keyword", url: "x" } } }, "/monitors/m/type enum"],
      [
        "inline subscriptions",
        { monitors: { m: { type: "http", url: "x", alertSubscriptions: [] } } },
        "/monitors/m additionalProperties alertSubscriptions",
      ],
      [
        "subscription without a contact",
        { monitors: { m: { type: "http", url: "x", alerts: [{ alertTypes: ["down"] }] } } },
        "/monitors/m/alerts/0 required contact",
      ],
      [
        "subscription naming its monitor",
        { monitors: { m: { type: "http", url: "x", alerts: [{ contact: "c", monitor: "m" }] } } },
        "/monitors/m/alerts/0 additionalProperties monitor",
      ],
      [
        "unknown lifecycle option",
        { monitors: { m: { type: "http", url: "x", lifecycle: { prevent_destroy: true } } } },
        "/monitors/m/lifecycle additionalProperties prevent_destroy",
      ],
      [
        "lifecycle flag as text",
        { contacts: { c: { type: "email", address: "a@example.com", lifecycle: { protect: "yes" } } } },
        "/contacts/c/lifecycle/protect type boolean",
      ],
      [
        "empty member path",
        {
          contacts: {
            c: { type: "email", address: "a@example.com", lifecycle: { ignoreChanges: ["name..x"] } },
          },
        },
        "/contacts/c/lifecycle/ignoreChanges/0 pattern",
      ],
      ["import to a bad address", { imports: [{ to: "monitor.m", id: "x" }] }, "/imports/0/to pattern"],
      ["import without an id", { imports: [{ to: "monitors.m" }] }, "/imports/0 required id"],
      [
        "import of a subscription under another member",
        { imports: [{ to: "monitors.m.subscriptions.c", id: "x" }] },
        "/imports/0/to pattern",
      ],
      [
        "a placeholder that is not one",
        { statusPages: { p: { slug: "$env:SLUG", title: "P" } } },
        "/statusPages/p/slug pattern",
      ],
    ];
    for (const [what, doc, expected] of cases) {
      const errors = errorsOf(doc);
      expect(
        errors.some((e) => e.startsWith(expected)),
        `${what}: expected "${expected}" among ${JSON.stringify(errors)}`,
      ).toBe(true);
    }
  });

  it("keeps the traits and descriptions editors show", () => {
    const secret = schema.$defs.webhook.properties.secret;
    expect(secret["x-credential"]).toBe(true);
    expect(secret.writeOnly).toBe(true);
    expect(secret.description).toMatch(/16-128/);
    expect(schema.$defs.httpSettings.properties.password["x-credential"]).toBe(true);
    expect(schema.$defs.monitor.properties.type["x-immutable"]).toBe(true);
    expect(schema.$defs.alertSubscription.properties.contact["x-immutable"]).toBe(true);
  });
});

describe("examples", () => {
  it("are found, and only workflows and Pulumi's project files are skipped", () => {
    expect(configFiles.length).toBeGreaterThanOrEqual(6);
    expect(exampleFiles.filter(isPulumiProject).map((f) => relative(examplesRoot, f))).toEqual([
      "pulumi/Pulumi.dev.yaml",
      "pulumi/Pulumi.yaml",
    ]);
    for (const file of workflowFiles)
      expect(relative(examplesRoot, file)).toMatch(/(^|\/)\.github\/workflows\//);
  });

  for (const file of configFiles) {
    const name = relative(repositoryRoot, file);
    it(`${name} validates and names its schema`, () => {
      const text = readFileSync(file, "utf8");
      const link = /^# yaml-language-server: \$schema=(\S+)\n/.exec(text);
      expect(link, "the first line links the schema for editors").not.toBeNull();
      expect(join(file, "..", link![1]!)).toBe(join(repositoryRoot, "schemas/vigil.schema.json"));
      expect(errorsOf(parse(text))).toEqual([]);
    });
  }

  const gitops = configFiles.filter((f) => relative(examplesRoot, f).startsWith("gitops"));
  const docs = gitops.map(load);

  it("gitops declares every kind, nested subscriptions and lifecycle options, and imports nothing", () => {
    const keys = new Set(docs.flatMap((d) => Object.keys(d)));
    for (const kind of topLevelKinds) expect(keys, kind).toContain(collectionOf(kind));
    expect(keys).not.toContain("imports");
    const monitors = docs.flatMap((d) => Object.values((d.monitors ?? {}) as Record<string, Json>));
    for (const { member } of nestedIn("monitor"))
      expect(
        monitors.some((m) => m[member]?.length > 0),
        member,
      ).toBe(true);
    expect(monitors.some((m) => m.lifecycle?.protect === true)).toBe(true);
    expect(monitors.some((m) => m.lifecycle?.ignoreChanges?.length > 0)).toBe(true);
    expect(new Set(monitors.map((m) => m.type)).size).toBeGreaterThanOrEqual(8);
  });

  it("gitops gives every env placeholder a default, so it runs with no environment set", () => {
    const texts = gitops.map((f) => readFileSync(f, "utf8")).join("\n");
    const placeholders = texts.match(new RegExp(envPlaceholderSource, "g")) ?? [];
    expect(placeholders.length).toBeGreaterThan(0);
    for (const p of placeholders) expect(p, "a default").toContain(":-");
  });

  it("the GitOps workflow plans and reviews pull requests, applies main one run at a time and commits the state", () => {
    const file = workflowFiles.find((f) => f.endsWith("monitoring.yml"));
    expect(file).toBeDefined();
    const workflow = load(file!);
    expect(Object.keys(workflow.on).sort()).toEqual(["pull_request", "push"]);
    expect(workflow.on.push.branches).toEqual(["main"]);
    expect(workflow.permissions).toEqual({});
    const runs = (job: Json) => job.steps.map((s: Json) => s.run ?? "").join("\n");

    const plan = workflow.jobs.plan;
    expect(plan.if).toContain("pull_request");
    expect(plan.permissions).toEqual({ contents: "read", "pull-requests": "write" });
    expect(runs(plan)).toMatch(/npx vigil plan .*--markdown.*--detailed-exitcode/);
    expect(runs(plan)).toContain('"$code" -eq 1');
    expect(plan.steps.some((s: Json) => String(s.uses).startsWith("actions/github-script"))).toBe(true);

    // Who gets paged: the routes diff against the base branch as a comment, the scenarios as a JUnit report.
    const review = workflow.jobs.review;
    expect(review.if).toContain("pull_request");
    expect(review.permissions).toEqual({ contents: "read", "pull-requests": "write" });
    expect(runs(review)).toMatch(/git worktree add .*"\$RUNNER_TEMP\/base"/);
    expect(runs(review)).toMatch(
      /npx vigil routes \. --base "\$RUNNER_TEMP\/base" --markdown --detailed-exitcode/,
    );
    expect(runs(review)).toContain('"$code" -eq 1');
    expect(runs(review)).toMatch(/npx vigil test \. --junit vigil-tests\.xml/);
    const uses = review.steps.map((s: Json) => String(s.uses));
    expect(uses.some((u: string) => u.startsWith("actions/github-script"))).toBe(true);
    expect(uses.some((u: string) => u.startsWith("actions/upload-artifact"))).toBe(true);

    const apply = workflow.jobs.apply;
    expect(apply.if).toContain("push");
    expect(apply.permissions).toEqual({ contents: "write" });
    expect(apply.concurrency["cancel-in-progress"]).toBe(false);
    expect(runs(apply)).toMatch(/npx vigil apply .*--auto-approve/);
    expect(runs(apply)).toContain("git add .vigil/state.json");
    expect(runs(apply)).toContain("[skip ci]");

    // Every variable the config reads is passed from a secret and checked before vigil runs.
    const names = new Set(
      gitops.flatMap((f) => [...readFileSync(f, "utf8").matchAll(/\$\{env:(\w+)/g)].map((m) => m[1]!)),
    );
    for (const name of [...names, "VIGIL_ENDPOINT", "VIGIL_TOKEN"]) {
      expect(workflow.env[name], name).toBe(`\${{ secrets.${name} }}`);
      expect(runs(plan), name).toContain(name);
      expect(runs(apply), name).toContain(name);
    }
  });
});
