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

  it("caps the element lines, saying how many more", () => {
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
      { maxTextLines: 3 },
    );
    expect(block(out, "monitors.web").split("\n")).toEqual([
      " monitors.web  update",
      "      ~ settings.headers: 40 changed",
      '          ~ [0]: {"header":"X-0","value":"v"} → {"header":"X-0","value":"w"}',
      '          ~ [1]: {"header":"X-1","value":"v"} → {"header":"X-1","value":"w"}',
      '          ~ [2]: {"header":"X-2","value":"v"} → {"header":"X-2","value":"w"}',
      "          … 37 more elements",
    ]);
  });
});
