/**
 * The Pulumi provider's handlers in process, against the sandbox: every kind through Check, Diff, Create,
 * Read, Update and Delete as the Pulumi engine sequences them, with secrets, preview unknowns, detailed
 * diffs, replacements, import and the package's functions.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kinds } from "../../src/kinds/index.ts";
import { createHandlers, type ProviderHandlers } from "../../src/pulumi/provider/handlers.ts";
import {
  isSecret,
  type Props,
  secret,
  specialSecretSig,
  specialSigKey,
  unknownValue,
} from "../../src/pulumi/provider/values.ts";
import { functionTokens, resourceToken } from "../../src/pulumi/tokens.ts";
import { kindCases } from "../helpers/kind-cases.ts";
import { type Client, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";
import type { ResourceState } from "./harness.ts";

let sb: TestSandbox;
let account: Client & { accountId: string };
let p: ProviderHandlers;

beforeAll(async () => {
  sb = await startTestSandbox();
  account = await sb.account({ plan: "enterprise" });
  p = createHandlers({});
  p.Configure({ args: { endpoint: sb.url, token: secret(account.token) } });
});
afterAll(async () => sb?.close());

const unique = () => Math.random().toString(36).slice(2, 10);
const urnOf = (type: string) => `urn:pulumi:dev::proj::${type}::r${unique()}`;

/** A resource as the engine keeps it (the harness's record). */
type State = ResourceState;

/** What `pulumi up` does for a new resource: check, preview, create; then a diff against it is empty. */
async function up(type: string, inputs: Props): Promise<State> {
  const urn = urnOf(type);
  const checked = await p.Check({ urn, news: inputs });
  expect(checked.failures).toEqual([]);
  const preview = await p.Create({ urn, properties: checked.inputs, preview: true });
  expect(preview.id).toBe("");
  const created = await p.Create({ urn, properties: checked.inputs });
  expect(created.id).toMatch(/./);
  const state = { type, urn, id: created.id, inputs: checked.inputs, outputs: created.properties };
  expect(diff(state, inputs).changes).toBe("DIFF_NONE");
  return state;
}

function diff(state: State, news: Props) {
  return p.Diff({ urn: state.urn, id: state.id, olds: state.outputs, news, oldInputs: state.inputs });
}

/** What `pulumi up` does for a changed resource: check, diff, preview, update. */
async function update(state: State, news: Props): Promise<State> {
  const checked = await p.Check({ urn: state.urn, olds: state.inputs, news });
  expect(checked.failures).toEqual([]);
  const d = diff(state, checked.inputs);
  expect(d.changes).toBe("DIFF_SOME");
  expect(d.replaces).toEqual([]);
  const request = {
    urn: state.urn,
    id: state.id,
    olds: state.outputs,
    news: checked.inputs,
    oldInputs: state.inputs,
  };
  const preview = await p.Update({ ...request, preview: true });
  expect(preview.properties.updated).toBe(unknownValue);
  const updated = await p.Update(request);
  const next = { ...state, inputs: checked.inputs, outputs: updated.properties };
  expect(diff(next, checked.inputs).changes).toBe("DIFF_NONE");
  return next;
}

/**
 * What `pulumi up` does for a change that replaces: check, a diff naming the members that replace, then the
 * new object and the old one's delete, in the order the diff asks for.
 */
async function replace(state: State, news: Props, replaces: readonly string[]): Promise<State> {
  const checked = await p.Check({ urn: state.urn, olds: state.inputs, news });
  expect(checked.failures).toEqual([]);
  const d = diff(state, checked.inputs);
  expect(d.changes).toBe("DIFF_SOME");
  expect(d.replaces).toEqual(replaces);
  if (d.deleteBeforeReplace) await remove(state);
  const next = await up(state.type, news);
  if (!d.deleteBeforeReplace) await remove(state);
  return next;
}

async function read(state: State) {
  return p.Read({ urn: state.urn, id: state.id, properties: state.outputs, inputs: state.inputs });
}

/** What `pulumi import` does: Read with only an id; the inputs it answers diff empty against the properties. */
async function importAndDiff(type: string, id: string, news?: Props) {
  const urn = urnOf(type);
  const read = await p.Read({ urn, id });
  expect(read.id).toBe(id);
  const checked = await p.Check({ urn, news: read.inputs! });
  expect(checked.failures).toEqual([]);
  const d = p.Diff({ urn, id, olds: read.properties!, news: news ?? checked.inputs, oldInputs: read.inputs });
  return { read, diff: d };
}

async function remove(state: State) {
  await p.Delete({ urn: state.urn, id: state.id, properties: state.outputs });
  expect((await read(state)).id).toBe("");
}

const monitorType = resourceToken("monitor");
const contactType = resourceToken("contact");

async function targets() {
  const monitor = await up(monitorType, {
    type: "http",
    url: `https://example.com/${unique()}`,
    locations: { pools: ["allworld"] },
  });
  const contact = await up(contactType, { type: "email", address: `${unique()}@example.com` });
  const page = await up(resourceToken("statusPage"), { slug: `cases-${unique()}`, title: "Cases" });
  return { monitorId: monitor.id, contactId: contact.id, pageId: page.id };
}

describe("monitor", () => {
  it("create with a secret, update in place, drift, refresh, import, replace, delete", async () => {
    const url = `https://example.com/${unique()}`;
    const inputs = {
      type: "http",
      url,
      name: "Shop",
      interval: 60,
      locations: { pools: ["allworld"] },
      settings: { username: "probe", password: secret("hunter2") },
    };
    const urn = urnOf(monitorType);
    const preview = await p.Create({ urn, properties: inputs, preview: true });
    // A preview: what the service decides is unknown, what the program set is as set.
    expect(preview.properties.created).toBe(unknownValue);
    expect(preview.properties.state).toBe(unknownValue);
    expect(preview.properties.enabled).toBe(unknownValue);
    expect(preview.properties.interval).toBe(60);

    let m = await up(monitorType, inputs);
    // The password is read back masked: the output keeps the input's, as a secret.
    const settings = m.outputs.settings as Props;
    expect(settings.password).toEqual({ [specialSigKey]: specialSecretSig, value: "hunter2" });
    expect(settings.username).toBe("probe");
    expect(m.outputs.enabled).toBe(true);
    expect(m.outputs.id).toBeUndefined();

    // A new password is a change, in the detailed diff at its path.
    const newPassword = { ...inputs, settings: { username: "probe", password: secret("hunter3") } };
    const d = diff(m, newPassword);
    expect(d.changes).toBe("DIFF_SOME");
    expect(d.detailedDiff).toEqual({ "settings.password": { kind: "UPDATE", inputDiff: true } });
    expect(d.deleteBeforeReplace).toBe(true);

    // Update in place.
    const updated = { ...inputs, interval: 120, tags: ["prod"] };
    m = await update(m, updated);
    expect(m.outputs.interval).toBe(120);
    expect(m.outputs.tags).toEqual(["prod"]);

    // Drift: changed outside Pulumi, refresh shows it, the diff restores it.
    expect((await account.patch(`/monitor/${m.id}`, { interval: 300 })).status).toBe(200);
    const refreshed = await read(m);
    expect(refreshed.properties!.interval).toBe(300);
    expect(refreshed.inputs).toEqual(m.inputs);
    expect((refreshed.properties!.settings as Props).password).toEqual(secret("hunter2"));
    m = await update({ ...m, outputs: refreshed.properties! }, updated);
    expect((await account.get(`/monitor/${m.id}`)).body.interval).toBe(120);

    // Import by id: the inputs it answers diff empty; the owner's token reads the password in full, a secret.
    const imported = await importAndDiff(monitorType, m.id);
    expect(imported.diff.changes).toBe("DIFF_NONE");
    expect(imported.read.inputs).toMatchObject({ type: "http", url, name: "Shop", interval: 120 });
    expect(imported.read.inputs).not.toHaveProperty("created");
    expect(imported.read.inputs).not.toHaveProperty("enabled");
    expect((imported.read.inputs!.settings as Props).password).toEqual(secret("hunter2"));

    // A member dropped from the inputs goes back to the service's default.
    const fewer = { ...updated, tags: undefined };
    delete fewer.tags;
    m = await update(m, fewer);
    expect(m.outputs.tags).toEqual([]);

    // Another type: a replacement, created before the old one goes (the natural key differs).
    const other = { type: "sslExp", url, name: "Shop" };
    const replace = diff(m, other);
    expect(replace.replaces).toEqual(["type"]);
    expect(replace.detailedDiff.type).toEqual({ kind: "UPDATE_REPLACE", inputDiff: true });
    expect(replace.deleteBeforeReplace).toBe(false);
    const replacement = await up(monitorType, other);
    await remove(m);
    await remove(replacement);
    // Deleting what is gone succeeds.
    await p.Delete({ urn: m.urn, id: m.id, properties: m.outputs });
  });

  it("unknowns: a preview diff names them; check leaves them unjudged", async () => {
    const { monitorId, contactId } = await targets();
    const type = resourceToken("alertSubscription");
    const s = await up(type, { monitorId, contactId, alertTypes: ["down"] });
    expect(
      (await p.Check({ urn: s.urn, news: { monitorId: unknownValue, contactId, alertTypes: ["down"] } }))
        .failures,
    ).toEqual([]);
    // The monitor is being replaced: its new id is unknown, so the subscription is replaced too.
    const d = diff(s, { monitorId: unknownValue, contactId, alertTypes: ["down"] });
    expect(d.changes).toBe("DIFF_SOME");
    expect(d.replaces).toEqual(["monitorId"]);
    expect(d.detailedDiff.monitorId!.kind).toBe("UPDATE_REPLACE");
    await remove(s);
  });

  it("validation failures name Pulumi property paths", async () => {
    const urn = urnOf(monitorType);
    const { failures } = await p.Check({
      urn,
      news: {
        type: "http",
        url: "https://example.com/",
        interval: 7,
        locations: { pools: [17] },
        settings: { timeout: -1 },
      },
    });
    const properties = failures.map((f) => f.property);
    expect(properties).toContain("settings.timeout");
    expect(properties).toContain("locations.pools[0]");
    expect(failures.every((f) => f.reason.length > 0)).toBe(true);
  });

  it("a duplicate says which id to import", async () => {
    const inputs = {
      type: "http",
      url: `https://example.com/${unique()}`,
      locations: { pools: ["allworld"] },
    };
    const first = await up(monitorType, inputs);
    await expect(
      p.Create({ urn: urnOf(monitorType), properties: { ...inputs, name: "Again" } }),
    ).rejects.toThrow(new RegExp(`pulumi import ${monitorType} <name> ${first.id}`));
    await remove(first);
  });
});

describe("refusals", () => {
  it("Check refuses what the account would, at the property; the service's refusal names it too", async () => {
    const inputs = {
      type: "http",
      url: `https://example.com/${unique()}`,
      locations: { pools: ["nowhere"] },
    };
    expect((await p.Check({ urn: urnOf(monitorType), news: inputs })).failures).toEqual([
      {
        property: "locations.pools[0]",
        reason: expect.stringMatching(
          /^422 unknown_pool: "nowhere" is not a location pool; allowed: allworld, /,
        ),
      },
    ]);
    // A program that skips Check (or an account changed since) still gets the service's own refusal.
    await expect(p.Create({ urn: urnOf(monitorType), properties: inputs })).rejects.toMatchObject({
      code: 3,
      message: expect.stringMatching(
        /^Could not create vigil:index:Monitor: POST \/monitor: 422 unknown_pool: .*\n {2}locations\.pools\[0\]: unknown; got "nowhere"; allowed: .*allworld/,
      ),
    });
    await expect(p.Check({ urn: urnOf("vigil:index:Nothing"), news: {} })).rejects.toThrow(
      /no resource type vigil:index:Nothing/,
    );
  });

  it("after Cancel, calls in flight finish and no write starts", async () => {
    const cancelled = createHandlers({});
    cancelled.Configure({ args: { endpoint: sb.url, token: account.token } });
    const inputs = { type: "email", address: `${unique()}@example.com` };
    const inFlight = cancelled.Create({ urn: urnOf(contactType), properties: inputs });
    cancelled.Cancel();
    const created = await inFlight;
    expect(created.id).toMatch(/./);
    await expect(
      cancelled.Create({
        urn: urnOf(contactType),
        properties: { type: "email", address: `${unique()}@example.com` },
      }),
    ).rejects.toMatchObject({ code: 10, message: expect.stringMatching(/cancelled/) });
    // Reads still answer.
    expect((await cancelled.Read({ urn: urnOf(contactType), id: created.id })).id).toBe(created.id);
    await p.Delete({ urn: urnOf(contactType), id: created.id, properties: created.properties });
  });
});

describe("status page", () => {
  it("a new slug replaces the page", async () => {
    const { monitorId } = await targets();
    const type = resourceToken("statusPage");
    const page = await up(type, {
      slug: `status-${unique()}`,
      title: "Status",
      components: [{ name: "Shop", monitorId }],
    });
    const d = diff(page, { ...page.inputs, slug: `status-${unique()}` });
    expect(d.replaces).toEqual(["slug"]);
    expect(d.detailedDiff.slug).toEqual({ kind: "UPDATE_REPLACE", inputDiff: true });
    expect(d.deleteBeforeReplace).toBe(false);
    // The same slug with another title: were it replaced (replaceOnChanges), the old page must go first.
    expect(diff(page, { ...page.inputs, title: "Other" }).deleteBeforeReplace).toBe(true);
    await remove(page);
  });
});

describe("the kinds' cases", () => {
  it("cover every kind of the registry, the monitor by its own test above", () => {
    expect([...Object.keys(kindCases), "monitor"].sort()).toEqual(kinds.map((k) => k.name).sort());
  });
});

describe.each(Object.keys(kindCases) as (keyof typeof kindCases)[])("%s", (kind) => {
  it("check, create, empty diff, update or replace, refresh, import, delete", async () => {
    const type = resourceToken(kind);
    const { members: inputs, change, replaces } = kindCases[kind](await targets());
    let r = await up(type, inputs);
    const changed = { ...r.inputs, ...change };
    r = replaces ? await replace(r, changed, replaces) : await update(r, changed);
    const refreshed = await read(r);
    expect(diff({ ...r, outputs: refreshed.properties! }, r.inputs).changes).toBe("DIFF_NONE");

    const imported = await importAndDiff(type, r.id);
    expect(imported.diff.changes).toBe("DIFF_NONE");
    expect(imported.diff.replaces).toEqual([]);

    await remove(r);
    // Already gone: the delete succeeds.
    await p.Delete({ urn: r.urn, id: r.id, properties: r.outputs });
  });
});

describe("a member whose default is empty", () => {
  it("imported, equals the program's inputs whether they leave it unset or empty", async () => {
    const address = `https://hooks.example.com/${unique()}`;
    const created = await account.post("/contact", { type: "http", address });
    expect(created.status, created.text).toBe(201);
    for (const news of [
      { type: "http", address },
      { type: "http", address, templates: [] },
    ]) {
      const { read, diff } = await importAndDiff(contactType, created.body.id, news);
      // The import's inputs leave templates out: the service's [] says nothing a program would.
      expect(read.inputs).toEqual({ type: "http", address });
      expect(diff.changes, JSON.stringify(news)).toBe("DIFF_NONE");
    }
  });
});

describe("a member holding credentials the API masks", () => {
  it("imported, is left out, as Terraform's import leaves it: a program without it diffs empty", async () => {
    const { monitorId } = await targets();
    const type = resourceToken("webhook");
    const created = await account.post("/webhook", {
      url: `https://hooks.example.com/${unique()}`,
      events: ["monitor.down"],
      scope: { monitorIds: [monitorId] },
      headers: [{ header: "X-Team", value: "ops-token" }],
    });
    expect(created.status, created.text).toBe(201);
    const urn = urnOf(type);
    const read = await p.Read({ urn, id: created.body.id });
    // Nobody can know the header's value: no `headers` without it, which a program could never match.
    expect(read.inputs).not.toHaveProperty("headers");
    const news = { url: created.body.url, events: ["monitor.down"], scope: { monitorIds: [monitorId] } };
    const checked = await p.Check({ urn, olds: read.inputs!, news });
    expect(checked.failures).toEqual([]);
    const d = p.Diff({
      urn,
      id: created.body.id,
      olds: read.properties!,
      news: checked.inputs,
      oldInputs: read.inputs,
    });
    expect(d.changes, JSON.stringify(d.detailedDiff)).toBe("DIFF_NONE");
  });
});

describe("secrets", () => {
  it("a webhook's secret and a value that came in secret go out secret", async () => {
    const { monitorId } = await targets();
    const type = resourceToken("webhook");
    const w = await up(type, {
      url: `https://hooks.example.com/${unique()}`,
      events: ["monitor.down"],
      scope: { monitorIds: [monitorId] },
      secret: "sandbox-webhook-secret-0123456789",
      name: secret("quiet"),
    });
    expect(w.outputs.secret).toEqual(secret("sandbox-webhook-secret-0123456789"));
    expect(isSecret(w.outputs.name)).toBe(true);
    // Without a secret of its own the service makes one, shown once in the create's answer: kept, secret.
    const generated = await up(type, {
      url: `https://hooks.example.com/${unique()}`,
      events: ["monitor.down"],
      scope: { monitorIds: [monitorId] },
    });
    const made = generated.outputs.secret;
    expect(isSecret(made) && typeof made.value === "string").toBe(true);
    // A refresh reads it back masked: the one kept stays.
    expect((await read(generated)).properties!.secret).toEqual(made);
    // An import has nothing to keep: a masked credential is left out of properties and inputs.
    const imported = await importAndDiff(type, generated.id);
    expect(imported.read.properties).not.toHaveProperty("secret");
    expect(imported.read.inputs).not.toHaveProperty("secret");
    expect(imported.diff.changes).toBe("DIFF_NONE");
    await remove(w);
    await remove(generated);
  });
});

describe("functions", () => {
  it("getMonitorTypes, getAgentPools and getAccount", async () => {
    const types = (await p.Invoke({ tok: functionTokens.getMonitorTypes })).return;
    const http = (types.types as Props[]).find((t) => t.type === "http")!;
    expect(http.locations).toBe("required");
    const pools = (await p.Invoke({ tok: functionTokens.getAgentPools })).return;
    expect((pools.pools as Props[]).map((x) => x.id)).toContain("allworld");
    expect(pools.defaults).toEqual(["allworld"]);
    const acct = (await p.Invoke({ tok: functionTokens.getAccount })).return;
    expect(acct.id).toBe(account.accountId);
    expect(acct.plan).toBe("enterprise");
    expect(acct).not.toHaveProperty("package");
    await expect(p.Invoke({ tok: "vigil:index:getNothing" })).rejects.toThrow(/no function/);
  });
});

describe("configuration", () => {
  it("from args, variables or the environment; a clear error without", () => {
    const fresh = createHandlers({});
    expect(() => fresh.Configure({})).toThrow(/No API endpoint.*VIGIL_ENDPOINT/);
    expect(() => fresh.Configure({ variables: { "vigil:config:endpoint": sb.url } })).toThrow(/No API token/);
    expect(
      fresh.Configure({ variables: { "vigil:config:endpoint": sb.url, "vigil:config:token": "t" } }),
    ).toEqual({
      acceptSecrets: true,
      supportsPreview: true,
      acceptResources: false,
      acceptOutputs: false,
    });
    expect(createHandlers({ VIGIL_ENDPOINT: sb.url, VIGIL_TOKEN: "t" }).Configure({}).acceptSecrets).toBe(
      true,
    );
    expect(fresh.CheckConfig({ news: { endpoint: "example.com" } }).failures[0]!.property).toBe("endpoint");
    expect(
      fresh.DiffConfig({ olds: { endpoint: sb.url }, news: { endpoint: "https://other.example.com" } })
        .changes,
    ).toBe("DIFF_SOME");
  });
});
