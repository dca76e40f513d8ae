import { describe, expect, it } from "vitest";
import { buildGraph, exportKinds, fileGroupOf } from "../../../src/engine/export/graph.ts";
import { FilterError, parseFilters, selectObjects } from "../../../src/engine/export/select.ts";
import type { KindName, Row } from "../../../src/engine/index.ts";

const monitor = (id: string, name: string, tags: string[]): Row => ({
  id,
  type: "http",
  url: `https://${id}.example.com/`,
  name,
  tags,
  created: 1_700_000_000,
});
const rows = new Map<KindName, Row[]>([
  [
    "monitor",
    [
      monitor("m1", "Checkout API", ["prod", "shop"]),
      monitor("m2", "Checkout Web", ["staging"]),
      monitor("m3", "Blog", []),
    ],
  ],
  [
    "contact",
    [
      { id: "c1", type: "email", address: "ops@example.com", name: "Ops", created: 1 },
      { id: "c2", type: "email", address: "dev@example.com", name: "Dev", created: 2 },
    ],
  ],
  [
    "alertSubscription",
    [
      { id: "s1", monitorId: "m1", contactId: "c1", alertTypes: ["down"] },
      { id: "s2", monitorId: "m2", contactId: "c2", alertTypes: ["down"] },
    ],
  ],
  ["maintenance", [{ id: "w1", name: "Deploy", from: 1893895200, to: 1893902400, monitorIds: ["m1", "m3"] }]],
]);
const graph = buildGraph(rows);
const select = (...filters: string[]) => {
  const { graph: selected, added } = selectObjects(graph, parseFilters(filters, exportKinds));
  return { objects: selected.objects.map((o) => o.address), added: added.map((o) => o.address) };
};

describe("--filter", () => {
  it("by kind, in any spelling: the kind's name or its collection", () => {
    expect(select("kind=Contacts")).toEqual({ objects: ["contacts.dev", "contacts.ops"], added: [] });
    expect(select("kind=alert-subscriptions").objects).toEqual([
      "contacts.dev",
      "contacts.ops",
      "monitors.checkout-api",
      "monitors.checkout-web",
      "monitors.checkout-api.alerts.ops",
      "monitors.checkout-web.alerts.dev",
    ]);
  });

  it("by tag: a subscription follows its monitor, and what the selection references comes along", () => {
    expect(select("tag=prod")).toEqual({
      objects: ["contacts.ops", "monitors.checkout-api", "monitors.checkout-api.alerts.ops"],
      added: ["contacts.ops"],
    });
    // Alternatives: values of one key, and the same key repeated.
    expect(select("tag=prod,staging").objects).toEqual(select("tag=prod", "tag=staging").objects);
    expect(select("tag=prod,staging").objects).toHaveLength(6);
  });

  it("by name pattern, whole name in any case; different keys must all match", () => {
    expect(select("name=CHECKOUT-*").objects).toEqual([
      "contacts.dev",
      "contacts.ops",
      "monitors.checkout-api",
      "monitors.checkout-web",
      "monitors.checkout-api.alerts.ops",
      "monitors.checkout-web.alerts.dev",
    ]);
    expect(select("name=checkout-???", "tag=staging").objects).toEqual([
      "contacts.dev",
      "monitors.checkout-web",
      "monitors.checkout-web.alerts.dev",
    ]);
    expect(select("name=checkout", "kind=monitor").objects).toEqual([]);
    // A maintenance window brings every monitor it covers.
    expect(select("kind=maintenance")).toEqual({
      objects: ["monitors.blog", "monitors.checkout-api", "maintenance.deploy"],
      added: ["monitors.blog", "monitors.checkout-api"],
    });
  });

  it("keeps the names of the whole account's export, and only the selection's variables and edges", () => {
    const { graph: selected } = selectObjects(graph, parseFilters(["tag=staging"], exportKinds));
    expect(selected.objects.every((o) => graph.objects.includes(o))).toBe(true);
    expect(
      selected.edges.every((e) => selected.objects.includes(e.from) && selected.objects.includes(e.to)),
    ).toBe(true);
  });

  it("refuses what it cannot read, saying what is allowed", () => {
    const refused = (text: string) => {
      try {
        parseFilters([text], exportKinds);
      } catch (error) {
        expect(error).toBeInstanceOf(FilterError);
        return (error as Error).message;
      }
      throw new Error(`${text} was accepted`);
    };
    expect(refused("kind=monitr")).toBe(
      `--filter kind=monitr: no such kind; kinds: ${exportKinds.map((k) => k.name).join(", ")}.`,
    );
    expect(refused("owner=me")).toBe(
      '--filter "owner=me": expected KEY=VALUE[,VALUE...] with KEY one of kind, tag, name (kind=monitor, tag=prod, name=checkout-*).',
    );
    expect(refused("prod")).toContain("expected KEY=VALUE");
    expect(refused("tag=prod,")).toBe('--filter "tag=prod,": a value is empty; give tag=VALUE[,VALUE...].');
  });
});

describe("--split-by", () => {
  const group = (address: string, layout: "kind" | "tag") =>
    fileGroupOf(graph.objects.find((o) => o.address === address)!, layout);

  it("kind: the collection in kebab case; tag: the first tag, children with their parent", () => {
    expect(group("monitors.checkout-api.alerts.ops", "kind")).toBe("alert-subscriptions");
    expect(group("monitors.checkout-api", "tag")).toBe("tag-prod");
    expect(group("monitors.checkout-api.alerts.ops", "tag")).toBe("tag-prod");
    expect(group("monitors.blog", "tag")).toBe("untagged");
    expect(group("contacts.ops", "tag")).toBe("untagged");
  });
});
