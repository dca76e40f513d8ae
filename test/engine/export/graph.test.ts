import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildGraph,
  type ExportGraph,
  type ExportObject,
  ExportReference,
  exportKinds,
  readAccountGraph,
} from "../../../src/engine/export/graph.ts";
import { applyChanges, type DesiredResource, MemoryStateStore, type Row } from "../../../src/engine/index.ts";
import { memberPositions } from "../../../src/engine/member-positions.ts";
import { getAt } from "../../../src/engine/pointer.ts";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { engineAccount } from "../e2e/helpers.ts";
import { everyKindFixture } from "../fixtures/every-kind.ts";

const tag = "graph";
const fixture: DesiredResource[] = [
  ...everyKindFixture(tag),
  // An http contact without templates: the service reads them back as [], the same as leaving them out.
  {
    address: "contacts.plain-hook",
    kind: "contact",
    members: { type: "http", address: `https://plain-${tag}.example.com/hook`, templates: [] },
  },
];

let sb: TestSandbox;
let graph: ExportGraph;
let ids: Map<string, string>;
let reads: Record<string, number>;

beforeAll(async () => {
  sb = await startTestSandbox();
  const { ops, time, client } = await engineAccount(sb);
  const store = new MemoryStateStore();
  expect((await applyChanges({ ops, store, desired: fixture, time })).result.failures).toEqual([]);
  ids = new Map(Object.entries(store.saved!.resources).map(([address, r]) => [address, r.id!]));
  const before = { ...client.metrics.snapshot().byRoute };
  graph = await readAccountGraph(ops);
  const after = client.metrics.snapshot().byRoute;
  reads = Object.fromEntries(
    Object.entries(after)
      .map(([route, n]) => [route, n - (before[route] ?? 0)] as const)
      .filter(([, n]) => n > 0),
  );
}, 120_000);
afterAll(() => sb?.close());

const objectOf = (fixtureAddress: string): ExportObject => {
  const found = graph.objects.find((o) => o.id === ids.get(fixtureAddress));
  if (!found) throw new Error(`${fixtureAddress} is not in the graph`);
  return found;
};

/** Members as plain JSON: a reference is `{$ref: address}`, a variable `{$variable: name}` (their toJSON). */
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe("the export graph of an account with every kind", () => {
  it("reads each kind with one list (a page's templates with one per page), never an object alone", () => {
    expect(reads).toEqual({
      "GET /monitor": 1,
      "GET /contact": 1,
      "GET /contact/group": 1,
      "GET /alert": 1,
      "GET /report": 1,
      "GET /maintenance": 1,
      "GET /statuspage": 1,
      "GET /statuspage/{id}/template": 1,
      "GET /webhook": 1,
    });
  });

  it("holds every object once, kinds in dependency order and names sorted within them", () => {
    expect(graph.objects.map((o) => o.id).sort()).toEqual([...ids.values()].sort());
    const rank = (o: ExportObject) => exportKinds.indexOf(o.kind);
    for (let i = 1; i < graph.objects.length; i++) {
      const [a, b] = [graph.objects[i - 1]!, graph.objects[i]!];
      expect(
        rank(a) < rank(b) ||
          (rank(a) === rank(b) && `${a.parent?.name}/${a.name}` < `${b.parent?.name}/${b.name}`),
      ).toBe(true);
    }
  });

  it("finds every reference from the kinds' traits, as edges and in the members", () => {
    const kinds = (o: ExportObject) => o.kind.name;
    const shapes = new Set(
      graph.edges.map((e) => `${kinds(e.from)} ${e.pointer.replace(/\/\d+/g, "/*")} -> ${kinds(e.to)}`),
    );
    expect([...shapes].sort()).toEqual([
      "alertSubscription /contactId -> contact",
      "alertSubscription /monitorId -> monitor",
      "contactGroup /members/*/contactId -> contact",
      "maintenance /monitorIds/* -> monitor",
      "reportSubscription /contactId -> contact",
      "reportSubscription /monitorId -> monitor",
      "statusPage /components/*/monitorId -> monitor",
      "statusPageTemplate /pageId -> statusPage",
      "webhook /scope/monitorIds/* -> monitor",
    ]);
    // Every reference the kinds declare on a member their configs write is among them.
    const declared = exportKinds.flatMap((k) =>
      memberPositions(k.name).references.map((r) => `${k.name} -> ${r.target}`),
    );
    for (const d of new Set(declared))
      expect(
        [...shapes].some((s) => s.startsWith(d.split(" ")[0]!) && s.endsWith(d.split(" ").at(-1)!)),
      ).toBe(true);
    for (const edge of graph.edges) {
      const held = getAt(edge.from.members, edge.pointer);
      expect(held).toBeInstanceOf(ExportReference);
      expect((held as ExportReference).target).toBe(edge.to);
    }
    expect(plain(objectOf("maintenance.weekly").members)).toMatchObject({
      monitorIds: [
        { $ref: objectOf("monitors.http-full").address },
        { $ref: objectOf("monitors.api").address },
        { $ref: objectOf("monitors.ping").address },
      ],
    });
  });

  it("names subscriptions by their contacts under their monitors, and templates under their pages", () => {
    const subscription = objectOf("alertSubscriptions.http-full-hook");
    expect(subscription.parent).toBe(objectOf("monitors.http-full"));
    expect(subscription.name).toBe(objectOf("contacts.http").name);
    expect(subscription.address).toBe(`monitors.http-full-${tag}.alerts.hook-${tag}`);
    expect(objectOf("statusPages.public.templates.outage").address).toBe(
      `statusPages.status-${tag}.templates.outage-${tag}`,
    );
  });

  it("writes no member that restates a default: an empty list equals the unset member", () => {
    expect(plain(objectOf("contacts.plain-hook").members)).toEqual({
      type: "http",
      address: `https://plain-${tag}.example.com/hook`,
    });
    expect(plain(objectOf("contacts.email-reports").members)).toEqual({
      type: "email",
      address: `reports-${tag}@example.com`,
    });
    expect(objectOf("monitors.http-full").tags).toEqual(["alpha", `fixture-${tag}`, "zeta"]);
    expect(objectOf("maintenance.weekly").timestamps).toEqual(["/from", "/to"]);
  });

  it("holds credentials as named variables, never their values; a secret the API never shows is left out", () => {
    const text = JSON.stringify(plain(graph.objects.map((o) => o.members)));
    for (const secret of [
      `pw-${tag}`,
      `Bearer ${tag}`,
      `public-${tag}`,
      `fixture-secret-${tag}`,
      `Bearer hook-${tag}`,
    ])
      expect(text).not.toContain(secret);
    const http = objectOf("monitors.http-full");
    expect(graph.variables.filter((v) => v.object === http).map((v) => [v.name, v.member])).toEqual([
      [`monitors_http_full_${tag}_settings_password`, "settings.password"],
      [`monitors_http_full_${tag}_settings_headers_0_value`, "settings.headers.0.value"],
    ]);
    for (const v of graph.variables) expect(getAt(v.object.members, v.pointer)).toBe(v);
    expect(graph.leftOut.map((l) => [l.object.address, l.member])).toEqual([
      [`webhooks.events-${tag}`, "secret"],
    ]);
  });
});

describe("names", () => {
  const contact = (id: string, name: string, created = 1_700_000_000): Row => ({
    id,
    type: "email",
    address: `${id}@example.com`,
    name,
    created,
  });
  const names = (rows: Row[], known?: Map<string, string>) =>
    buildGraph(new Map([["contact", rows]]), known && new Map([["contact", known]])).objects.map((o) => [
      o.id,
      o.name,
    ]);

  it("are unique and stable: a collision goes by creation, then by id, whatever order the list answers in", () => {
    const rows = [
      contact("c3", "Ops"),
      contact("c1", "Ops"),
      contact("c2", "Ops", 1_600_000_000),
      contact("c4", "Ops 2"),
    ];
    const expected = [
      ["c2", "ops"],
      ["c1", "ops-3"],
      ["c4", "ops-2"],
      ["c3", "ops-4"],
    ].sort((a, b) => (a[1]! < b[1]! ? -1 : 1));
    expect(names(rows)).toEqual(expected);
    expect(names([...rows].reverse())).toEqual(expected);
  });

  it("keep the name an earlier adoption gave, when it is valid and no other object claims it first", () => {
    const rows = [contact("c1", "Ops"), contact("c2", "Billing"), contact("c3", "Support")];
    expect(
      names(
        rows,
        new Map([
          ["c2", "ops"],
          ["c3", "Not Valid"],
        ]),
      ),
    ).toEqual([
      ["c2", "ops"],
      ["c1", "ops-2"],
      ["c3", "support"],
    ]);
  });
});
