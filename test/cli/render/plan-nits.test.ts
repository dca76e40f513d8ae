import { describe, expect, it } from "vitest";
import { renderPlan } from "../../../src/cli/render/human.ts";
import type { PlannedAction } from "../../../src/engine/model.ts";
import { planInConfigTerms } from "../../../src/gitops/present.ts";
import { planOf } from "./plans.ts";

/** The block of one address in a rendered plan. */
function block(out: string, address: string): string {
  const start = out.indexOf(` ${address}  `);
  return out.slice(start, out.indexOf("\n\n", start));
}

describe("the human plan", () => {
  it("shows a cascaded replace's reference as a new object, not the same name twice", () => {
    const oldId = "5e6f0000-2222-4000-8000-000000000002";
    const actions: PlannedAction[] = [
      {
        address: "monitors.cert",
        kind: "monitor",
        action: "replace",
        id: oldId,
        reasons: ["type cannot change in place"],
        replaceOrder: "create-first",
        changes: [{ op: "replace", path: "/type", value: "sslExp", before: "http" }],
      },
      {
        address: "monitors.cert.alerts.oncall",
        kind: "alertSubscription",
        action: "replace",
        id: "as-1",
        reasons: ["monitors.cert is replaced, and monitorId cannot change in place"],
        replaceOrder: "create-first",
        cascadedBy: "monitors.cert",
        changes: [
          {
            op: "replace",
            path: "/monitorId",
            value: { $unknown: "monitors.cert" },
            before: oldId,
            unknown: true,
          },
        ],
      },
    ];
    const out = renderPlan(planInConfigTerms(planOf(actions)));
    expect(block(out, "monitors.cert.alerts.oncall")).toBe(
      [
        " monitors.cert.alerts.oncall  replace (create first)",
        "      # replaced because monitors.cert is replaced, and monitorId cannot change in place",
        "      # cascaded: the old object is deleted by the API with monitors.cert",
        '      ~ monitor: "cert" → "cert" (a new object: its id is known after apply)',
      ].join("\n"),
    );
  });

  it("shows the elements that changed in arrays too long for one line", () => {
    const tags = Array.from({ length: 30 }, (_, i) => `team-${i}`);
    const update = (path: string, before: unknown[], value: unknown[]): PlannedAction => ({
      address: "monitors.web",
      kind: "monitor",
      action: "update",
      id: "m-1",
      reasons: [],
      changes: [{ op: "replace", path, before, value }],
    });
    const edited = tags.map((t, i) => (i === 7 ? "team-seven" : t));
    expect(block(renderPlan(planOf([update("/tags", tags, edited)])), "monitors.web")).toBe(
      [
        " monitors.web  update",
        "      ~ tags: 1 changed (29 unchanged elements not shown)",
        '          ~ [7]: "team-7" → "team-seven"',
      ].join("\n"),
    );
    const grown = [...tags.filter((t) => t !== "team-3"), "new-a", "new-b"];
    expect(block(renderPlan(planOf([update("/tags", tags, grown)])), "monitors.web")).toBe(
      [
        " monitors.web  update",
        "      ~ tags: 2 added, 1 removed (29 unchanged elements not shown)",
        '          - "team-3"',
        '          + "new-a"',
        '          + "new-b"',
      ].join("\n"),
    );
    // Short arrays still fit on the line, whole.
    expect(block(renderPlan(planOf([update("/tags", ["a"], ["a", "b"])])), "monitors.web")).toContain(
      '~ tags: ["a"] → ["a","b"]',
    );
  });

  it("shows every changed element, each whole", () => {
    const before = Array.from({ length: 40 }, (_, i) => ({ header: `X-${i}`, value: "v" }));
    const after = before.map((h) => ({ ...h, value: "w" }));
    const out = renderPlan(
      planOf([
        {
          address: "monitors.web",
          kind: "monitor",
          action: "update",
          id: "m-1",
          reasons: [],
          changes: [{ op: "replace", path: "/settings/headers", before, value: after }],
        },
      ]),
    );
    expect(block(out, "monitors.web").split("\n")).toEqual([
      " monitors.web  update",
      "      ~ settings.headers: 40 changed",
      ...before.map(
        (_, i) => `          ~ [${i}]: {"header":"X-${i}","value":"v"} → {"header":"X-${i}","value":"w"}`,
      ),
    ]);
  });
});

describe("the human plan shows every changed value whole", () => {
  const asserts = [
    { source: "statusCode", comparison: "eq", target: "200" },
    { source: "responseTime", comparison: "lt", target: "1500" },
    { source: "jsonBody", property: "$.data.items[0].status", comparison: "eq", target: "available" },
  ];

  it("a list of a create, element by element, each element whole (it used to end in …)", () => {
    const out = renderPlan(
      planOf([
        {
          address: "monitors.api",
          kind: "monitor",
          action: "create",
          reasons: [],
          changes: [
            { op: "add", path: "/settings/asserts", value: asserts },
            { op: "add", path: "/tags", value: ["shop", "prod"] },
          ],
        },
      ]),
    );
    expect(block(out, "monitors.api").split("\n")).toEqual([
      " monitors.api  create",
      '      + settings.asserts[0].source: "statusCode"',
      '      + settings.asserts[0].comparison: "eq"',
      '      + settings.asserts[0].target: "200"',
      '      + settings.asserts[1].source: "responseTime"',
      '      + settings.asserts[1].comparison: "lt"',
      '      + settings.asserts[1].target: "1500"',
      '      + settings.asserts[2].source: "jsonBody"',
      '      + settings.asserts[2].property: "$.data.items[0].status"',
      '      + settings.asserts[2].comparison: "eq"',
      '      + settings.asserts[2].target: "available"',
      // A list that fits on its line stays on it.
      '      + tags: ["shop","prod"]',
    ]);
    expect(out).not.toContain("…");
  });

  it("nested lists element by element, and a long scalar whole", () => {
    const long = `https://shop.example.com/${"p".repeat(150)}`;
    const steps = [
      { action: "navigate", url: long },
      { action: "checkContent", keywords: Array.from({ length: 12 }, (_, i) => `keyword number ${i}`) },
    ];
    const out = renderPlan(
      planOf([
        {
          address: "monitors.flow",
          kind: "monitor",
          action: "create",
          reasons: [],
          changes: [{ op: "add", path: "/settings/steps", value: steps }],
        },
      ]),
    );
    expect(block(out, "monitors.flow").split("\n")).toEqual([
      " monitors.flow  create",
      '      + settings.steps[0].action: "navigate"',
      `      + settings.steps[0].url: "${long}"`,
      '      + settings.steps[1].action: "checkContent"',
      ...steps[1]!.keywords!.map((k, i) => `      + settings.steps[1].keywords[${i}]: "${k}"`),
    ]);
  });

  it("an update of a long list: the elements that changed, each whole", () => {
    const longer = asserts.map((a) => ({ ...a, target: `${a.target}-${"t".repeat(120)}` }));
    const out = renderPlan(
      planOf([
        {
          address: "monitors.api",
          kind: "monitor",
          action: "update",
          id: "m-1",
          reasons: [],
          changes: [{ op: "replace", path: "/settings/asserts", before: asserts, value: longer }],
        },
      ]),
    );
    expect(out).not.toContain("…");
    for (const i of longer.keys()) expect(out).toContain(`~ [${i}]: `);
    for (const a of longer) expect(out).toContain(JSON.stringify(a.target));
  });
});
