import { describe, expect, it } from "vitest";
import { buildGraph } from "../../src/engine/export/graph.ts";
import type { KindName, Row } from "../../src/engine/index.ts";
import { writeHcl } from "../../src/terraform/export/hcl.ts";

const monitor = (id: string, name: string, tags: string[] = []): Row => ({
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
      monitor("m1", "1Password", ["prod"]),
      monitor("m2", "a b"),
      monitor("m3", "zed", ["staging", "prod"]),
      monitor("m4", "A B"),
    ],
  ],
  [
    "contact",
    [{ id: "c1", type: "http", address: "https://hooks.example.com/ops", name: "Ops", created: 1 }],
  ],
  ["alertSubscription", [{ id: "s1", monitorId: "m1", contactId: "c1", alertTypes: ["down"] }]],
  [
    "webhook",
    [
      {
        id: "w1",
        url: "https://hooks.example.com/events",
        name: "Events",
        events: ["monitor.down"],
        scope: { all: true },
        headers: [{ header: "Authorization", value: { set: true, updatedAt: 1 } }],
        secret: { set: true, updatedAt: 1 },
        created: 1,
      },
    ],
  ],
]);

describe("the HCL writer", () => {
  // a_b (a name a state kept) and a-b (from "A B") are both spelled a_b: the later one gets a suffix.
  const graph = buildGraph(rows, new Map([["monitor", new Map([["m2", "a_b"]])]]));

  it("names resources as identifiers, unique per type, a child under its parent's name", () => {
    const written = writeHcl(graph, { layout: "kind" });
    expect(
      [...written.files["monitors.tf"]!.matchAll(/^resource "vigil_monitor" "(\w+)"/gm)].map((m) => m[1]),
    ).toEqual(["_1password", "a_b", "a_b_2", "zed"]);
    expect(written.files["alert-subscriptions.tf"]).toContain(
      'resource "vigil_alert_subscription" "_1password_ops" {\n  monitor_id  = vigil_monitor._1password.id\n  contact_id  = vigil_contact.ops.id\n',
    );
  });

  it("leaves out a member whose credentials the API masks, with its variables", () => {
    const written = writeHcl(graph, { layout: "kind" });
    expect(written.files["webhooks.tf"]).toBe(
      [
        'resource "vigil_webhook" "events" {',
        '  url    = "https://hooks.example.com/events"',
        '  events = ["monitor.down"]',
        "  scope = {",
        "    all = true",
        "  }",
        '  name = "Events"',
        "}",
        "",
      ].join("\n"),
    );
    expect(written.leftOut.map((l) => [written.addressOf(l.object), l.member])).toEqual([
      ["vigil_webhook.events", "secret"],
      ["vigil_webhook.events", "headers"],
    ]);
    expect(written.variables).toEqual([]);
    expect(written.files["variables.tf"]).toBeUndefined();
  });

  it("by tag: each object in the file of its first tag, a subscription with its monitor, the rest untagged", () => {
    const written = writeHcl(graph, { layout: "tag" });
    expect(Object.keys(written.files).sort()).toEqual([
      "imports.tf",
      "tag-prod.tf",
      "untagged.tf",
      "versions.tf",
    ]);
    expect(
      [...written.files["tag-prod.tf"]!.matchAll(/^resource "(\w+)" "(\w+)"/gm)].map(
        (m) => `${m[1]}.${m[2]}`,
      ),
    ).toEqual(["vigil_monitor._1password", "vigil_monitor.zed", "vigil_alert_subscription._1password_ops"]);
    expect(writeHcl(graph, { layout: "tag" }).files).toEqual(written.files);
  });
});
