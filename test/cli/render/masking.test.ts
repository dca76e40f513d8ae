import { stripVTControlCharacters } from "node:util";
import { describe, expect, it } from "vitest";
import { renderPlan } from "../../../src/cli/render/human.ts";
import { renderPlanMarkdown } from "../../../src/cli/render/markdown.ts";
import { styler } from "../../../src/cli/render/style.ts";
import { fullPlan, planOf } from "./plans.ts";

/** Every output a plan can be rendered to. */
function outputs(plan: Parameters<typeof renderPlan>[0]): string[] {
  return [
    renderPlan(plan),
    renderPlan(plan, { style: styler(true) }),
    renderPlan(plan, { refreshOnly: true }),
    renderPlanMarkdown(plan),
    renderPlanMarkdown(plan, { refreshOnly: true }),
  ];
}

describe("sensitive changes", () => {
  it("show (sensitive) where the engine masked them, and nothing it did not write", () => {
    for (const out of outputs(fullPlan)) {
      expect(stripVTControlCharacters(out)).toContain("settings.password: (sensitive)");
      // The engine's `before` of a differing credential says so; the renderer shows only the mask.
      expect(out).not.toContain("differs");
    }
  });

  it("never show a value, even one the engine failed to mask", () => {
    const raw = "hunter2-raw-secret";
    const plan = planOf([
      {
        address: "monitors.billing",
        kind: "monitor",
        action: "create",
        reasons: [],
        changes: [
          { op: "add", path: "/settings", value: { username: "probe", password: raw }, sensitive: true },
        ],
      },
      {
        address: "monitors.checkout-api",
        kind: "monitor",
        action: "update",
        id: "m-1",
        reasons: ["drift: changed outside vigil"],
        changes: [
          {
            op: "replace",
            path: "/settings/password",
            value: raw,
            before: `old-${raw}`,
            sensitive: true,
            drift: true,
          },
          {
            op: "add",
            path: "/settings/headers",
            value: [{ name: "Authorization", value: raw }],
            sensitive: true,
          },
          { op: "replace", path: "/settings/body", value: `a\n${raw}`, before: "a\nb", sensitive: true },
        ],
      },
      {
        address: "webhooks.ops",
        kind: "webhook",
        action: "update",
        id: "wh-1",
        reasons: [],
        changes: [
          { op: "remove", path: "/headers", before: [{ name: "X-Token", value: raw }], sensitive: true },
        ],
      },
    ]);
    for (const out of outputs(plan)) {
      expect(out).not.toContain(raw);
      expect(out).not.toContain("hunter2");
    }
    const human = renderPlan(plan);
    expect(human).toContain("+ settings: (sensitive)\n");
    expect(human).toContain("~ settings.password: (sensitive)  (drift: changed outside vigil)\n");
    expect(human).toContain("+ settings.headers: (sensitive)\n");
    expect(human).toContain("~ settings.body: (sensitive)\n");
    expect(human).toContain("- headers: (sensitive)\n");
    expect(renderPlan(plan, { refreshOnly: true })).toContain("~ settings.password: (sensitive)\n");
  });
});
