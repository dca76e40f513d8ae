import { stripVTControlCharacters } from "node:util";
import { describe, expect, it } from "vitest";
import { renderPlan } from "../../../src/cli/render/human.ts";
import { styler } from "../../../src/cli/render/style.ts";
import type { Plan } from "../../../src/engine/model.ts";
import { emptyPlan, everyAction, fullPlan, noStateWarning, planOf, sources } from "./plans.ts";

const calls = { reads: 9, writes: 0 };
const hasAnsi = (text: string) => text.includes("\x1b[");

describe("renderPlan", () => {
  it("shows every action type, field by field, with reasons, sources, warnings and the summary", async () => {
    const out = renderPlan(fullPlan, { sources, calls });
    await expect(out).toMatchFileSnapshot("__snapshots__/plan.txt");
    expect(hasAnsi(out)).toBe(false);
    expect(out).toContain("Plan: 5 to add, 2 to change, 3 to replace, 3 to destroy.\n");
    expect(out).toContain("Also 1 to import, 2 to forget (removed from the state, not deleted).\n");
    // The deletions come last, after the calls, where a long plan ends on screen.
    expect(out).toContain("API calls: 9 reads, 0 writes\n⚠ This plan deletes 3 objects");
    expect(out.endsWith("There is no undo.\n")).toBe(true);
    // No-ops are left out.
    expect(out).not.toContain("contacts.team-email");
  });

  it("colours symbols, addresses and notes when asked, and says the same words", async () => {
    const out = renderPlan(fullPlan, { sources, calls, style: styler(true) });
    await expect(out).toMatchFileSnapshot("__snapshots__/plan.ansi.txt");
    expect(hasAnsi(out)).toBe(true);
    expect(stripVTControlCharacters(out)).toBe(renderPlan(fullPlan, { sources, calls }));
  });

  it("writes each change as `op path: value`, with drift, masking and unknown ids marked", () => {
    const out = renderPlan(fullPlan, { sources, calls });
    const block = (address: string) => {
      const start = out.indexOf(` ${address}  `);
      return out.slice(start, out.indexOf("\n\n", start));
    };
    expect(block("monitors.checkout-api")).toBe(
      [
        " monitors.checkout-api  update  (monitors/shop.yaml:3)",
        "      # drift: changed outside vigil",
        "      ~ interval: 300 → 60  (drift: changed outside vigil)",
        "      - slaTarget: 99.9",
        '      + tags: ["shop","prod"]',
        "      ~ settings.timeout: 30000 → 10000",
        "      ~ settings.password: (sensitive)  (drift: changed outside vigil)",
        '      + settings.headers: [{"name":"X-Probe","value":"vigil"},{"name":"Accept-Language","value":"en"}]',
        "      ~ settings.body: (4 unchanged lines not shown)",
        '          -   "items": 1,',
        '          +   "items": 2,',
      ].join("\n"),
    );
    expect(block("monitors.billing")).toContain("+ settings: (sensitive)");
    expect(block("monitors.search-api")).toContain("+ settings.timeout: 10000");
    expect(block("monitors.checkout-api.reports.team-email")).toContain("+ contactId: (known after apply)");
    expect(block("monitors.status-ping.alerts.oncall")).toBe(
      [
        " monitors.status-ping.alerts.oncall  replace (create first)  (monitors/shop.yaml:31)",
        "      # replaced because monitorId cannot change in place",
        "      # cascaded: the old object is deleted by the API with monitors.status-ping",
        '      ~ monitorId: "5e6f0000-2222-4000-8000-000000000002" → (known after apply)',
      ].join("\n"),
    );
    expect(block("monitors.old-shop.alerts.oncall")).toContain(
      "# cascaded: deleted by the API with monitors.old-shop",
    );
    expect(out).toContain("  -/+ contacts.ops-sms  replace (delete first)  (contacts.yaml:5)\n");
    expect(out).toContain("      # replaced because type cannot change in place\n");
    expect(out).toContain("  ← monitors.legacy-home  import  (monitors/legacy.yaml:1)\n");
    expect(out).toContain("  × contacts.pager  forget  (id c-0042)\n");
    expect(out).toContain("  - monitors.old-shop  delete  (id 7a7a0000-3333-4000-8000-000000000005)\n");
    expect(out).toContain(`Warning: ${noStateWarning}\n`);
  });

  it("shows long values whole, and member paths dotted with indices and odd names quoted", () => {
    const plan = planOf([
      {
        address: "statusPages.public",
        kind: "statusPage",
        action: "update",
        id: "sp-1",
        reasons: [],
        changes: [
          { op: "replace", path: "/description", value: "x".repeat(300), before: "short" },
          { op: "add", path: "/settings/headers/0", value: { name: "A", value: "b" } },
          { op: "replace", path: "/settings/a~1b", value: 1, before: 2 },
          { op: "replace", path: "/settings/x~0y.z", value: true, before: false },
        ],
      },
    ]);
    const out = renderPlan(plan, { maxValueLength: 40 });
    expect(out).toContain(`~ description: "short" → "${"x".repeat(300)}"\n`);
    expect(out).not.toContain("…");
    expect(out).toContain('+ settings.headers[0].name: "A"\n');
    expect(out).toContain('~ settings["a/b"]: 2 → 1\n');
    expect(out).toContain('~ settings["x~y.z"]: false → true\n');
  });

  it("shows a multi-line string line by line, every changed line", () => {
    const lines = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag} ${i}`).join("\n");
    const plan = planOf([
      {
        address: "monitors.checkout-api",
        kind: "monitor",
        action: "update",
        id: "m-1",
        reasons: [],
        changes: [
          { op: "replace", path: "/settings/body", value: lines(30, "new"), before: lines(2, "old") },
          { op: "add", path: "/settings/postParameters", value: "a=1\nb=2" },
        ],
      },
    ]);
    const out = renderPlan(plan);
    expect(out).toContain(
      [
        "      ~ settings.body:",
        "          - old 0",
        "          - old 1",
        ...Array.from({ length: 30 }, (_, i) => `          + new ${i}`),
        "      + settings.postParameters:",
        "          + a=1",
        "          + b=2",
      ].join("\n"),
    );
  });

  it("says there are no changes when every action is a no-op", async () => {
    const out = renderPlan(emptyPlan, { calls: { reads: 1, writes: 0 } });
    expect(out).toBe("No changes. The account matches the configuration.\nAPI calls: 1 read, 0 writes\n");
    await expect(renderPlan(planOf([], [noStateWarning]), { calls })).toMatchFileSnapshot(
      "__snapshots__/plan-empty-warning.txt",
    );
  });

  it("ends with the deletions, counted, whenever the plan deletes or replaces anything", () => {
    const last = (plan: Plan) => renderPlan(plan, { calls }).trimEnd().split("\n").at(-1);
    const deletes = everyAction.filter((a) => a.action === "delete");
    const replaces = everyAction.filter((a) => a.action === "replace");
    expect(last(planOf(deletes))).toBe(
      `⚠ This plan deletes ${deletes.length} objects from the account. There is no undo.`,
    );
    expect(last(planOf(deletes.slice(0, 1)))).toBe(
      "⚠ This plan deletes 1 object from the account. There is no undo.",
    );
    expect(last(planOf(replaces.slice(0, 1)))).toBe(
      "⚠ This plan replaces 1 object: it is deleted and created anew, under a new id. There is no undo.",
    );
    // Nothing deleted: the calls line stays the last.
    expect(last(planOf(everyAction.filter((a) => a.action === "create")))).toBe(
      "API calls: 9 reads, 0 writes",
    );
    expect(last(emptyPlan)).toBe("API calls: 9 reads, 0 writes");
  });

  it("leaves the calls line out when no counts are given", () => {
    expect(renderPlan(emptyPlan)).toBe("No changes. The account matches the configuration.\n");
  });
});

describe("renderPlan, refresh only", () => {
  it("lists only what changed outside vigil, as applied → as found", async () => {
    const out = renderPlan(fullPlan, { sources, calls, refreshOnly: true });
    await expect(out).toMatchFileSnapshot("__snapshots__/plan-refresh-only.txt");
    expect(out).toContain("  ~ monitors.checkout-api  (monitors/shop.yaml:3)\n      ~ interval: 60 → 300\n");
    expect(out).toContain("  - webhooks.ops  deleted outside vigil\n");
    expect(out).toContain("  - contacts.old-sms  deleted outside vigil\n");
    expect(out).toContain("3 objects changed outside vigil.\n");
    expect(out).not.toContain("Plan:");
    expect(out).not.toContain("slaTarget");
    expect(out).not.toContain("monitors.old-shop");
  });

  it("shows a member removed outside vigil as removed", () => {
    const plan = planOf([
      {
        address: "monitors.checkout-api",
        kind: "monitor",
        action: "update",
        id: "m-1",
        reasons: ["drift: changed outside vigil"],
        changes: [{ op: "add", path: "/tags", value: ["shop"], drift: true }],
      },
    ]);
    expect(renderPlan(plan, { refreshOnly: true })).toContain('      - tags: ["shop"]\n');
  });

  it("says nothing changed when there is no drift", () => {
    const plan = planOf(everyAction.filter((a) => a.address === "contacts.oncall"));
    expect(renderPlan(plan, { refreshOnly: true, calls })).toBe(
      "No objects changed outside vigil.\nAPI calls: 9 reads, 0 writes\n",
    );
  });
});
