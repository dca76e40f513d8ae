import { describe, expect, it } from "vitest";
import { githubCommentLimit, renderPlanMarkdown } from "../../../src/cli/render/markdown.ts";
import type { PlannedAction } from "../../../src/engine/model.ts";
import { emptyPlan, fullPlan, noStateWarning, planOf, sources } from "./plans.ts";

const calls = { reads: 9, writes: 0 };

describe("renderPlanMarkdown", () => {
  it("has the summary as heading, a table, folded diffs, warnings and the calls", async () => {
    const out = renderPlanMarkdown(fullPlan, { sources, calls });
    await expect(out).toMatchFileSnapshot("__snapshots__/plan.md");
    expect(out.startsWith("### Plan: 5 to add, 2 to change, 3 to replace, 3 to destroy.\n")).toBe(true);
    expect(out).toContain(`> **Warning:** ${noStateWarning}\n`);
    expect(out).toContain("| Address | Action | Changed members | Why |\n| --- | --- | --- | --- |\n");
    expect(out).toContain(
      "| `monitors.old-shop.alerts.oncall` | delete |  | not in the config; cascaded: deleted by the API with monitors.old-shop |",
    );
    expect(out).toContain(
      "| `monitors.checkout-api` | update | `interval`, `slaTarget`, `tags`, `settings.timeout`, `settings.password`, `settings.headers` and 1 more | drift: changed outside vigil |",
    );
    // One table row per action shown, one <details> per action with field changes.
    expect(out.match(/^\| `/gm)).toHaveLength(16);
    expect(out.match(/<details>/g)).toHaveLength(11);
    expect(out).toContain(
      [
        "<details><summary><code>monitors.checkout-api</code>: update (monitors/shop.yaml:3)</summary>",
        "",
        "```diff",
        "# drift: changed outside vigil",
        "- interval: 300  # drift: changed outside vigil",
        "+ interval: 60",
        "- slaTarget: 99.9",
        '+ tags: ["shop","prod"]',
        "- settings.timeout: 30000",
        "+ settings.timeout: 10000",
        "! settings.password: (sensitive)  # drift: changed outside vigil",
        '+ settings.headers: [{"name":"X-Probe","value":"vigil"},{"name":"Accept-Language","value":"en"}]',
        "! settings.body: # 4 unchanged lines not shown",
        '-       "items": 1,',
        '+       "items": 2,',
        "```",
        "",
        "</details>",
      ].join("\n"),
    );
    expect(out.endsWith("\n\nAPI calls: 9 reads, 0 writes\n")).toBe(true);
  });

  it("puts a plan's deletions right under the heading, as a caution a reviewer cannot scroll past", () => {
    const deletes = fullPlan.actions.filter((a) => a.action === "delete");
    const out = renderPlanMarkdown(planOf(deletes), { calls });
    expect(out.split("\n\n").slice(0, 2)).toEqual([
      `### Plan: 0 to add, 0 to change, 0 to replace, ${deletes.length} to destroy.`,
      `> [!CAUTION]\n> **This plan deletes ${deletes.length} objects from the account. There is no undo.**`,
    ]);
    const creates = fullPlan.actions.filter((a) => a.action === "create");
    expect(renderPlanMarkdown(planOf(creates), { calls })).not.toContain("CAUTION");
  });

  it("says there are no changes", () => {
    expect(renderPlanMarkdown(emptyPlan, { calls })).toBe(
      "### No changes. The account matches the configuration.\n\nAPI calls: 9 reads, 0 writes\n",
    );
  });

  it("lists drift only with refreshOnly", async () => {
    const out = renderPlanMarkdown(fullPlan, { calls, refreshOnly: true });
    await expect(out).toMatchFileSnapshot("__snapshots__/plan-refresh-only.md");
    expect(out.startsWith("### 3 objects changed outside vigil.\n")).toBe(true);
    expect(out).toContain("- interval: 60\n+ interval: 300\n");
    expect(out).not.toContain("slaTarget");
  });

  it("escapes table cells and HTML", () => {
    const out = renderPlanMarkdown(
      planOf([
        {
          address: "monitors.a",
          kind: "monitor",
          action: "update",
          id: "m-1",
          reasons: ["moved from <b>|x</b>"],
          changes: [{ op: "replace", path: "/settings/a|b", value: 1, before: 2 }],
        },
      ]),
      { sources: new Map([["monitors.a", "a<b>.yaml:1"]]) },
    );
    expect(out).toContain('| `monitors.a` | update | `settings["a\\|b"]` | moved from <b>\\|x</b> |');
    expect(out).toContain("<summary><code>monitors.a</code>: update (a&lt;b&gt;.yaml:1)</summary>");
  });
});

describe("the comment limit", () => {
  const monitor = (i: number): PlannedAction => ({
    address: `monitors.site-${i}`,
    kind: "monitor",
    action: "create",
    reasons: [],
    changes: [
      { op: "add", path: "/type", value: "http" },
      { op: "add", path: "/url", value: `https://site-${i}.example.com/health` },
      { op: "add", path: "/name", value: `Site ${i}` },
      { op: "add", path: "/tags", value: ["fleet", "prod", `shard-${i % 16}`] },
      { op: "add", path: "/settings", value: { method: "G", timeout: 10000, keywords: "ok" } },
    ],
  });

  it("keeps a big plan under GitHub's limit and says how many resources are left out", () => {
    const plan = planOf(Array.from({ length: 3000 }, (_, i) => monitor(i)));
    const out = renderPlanMarkdown(plan, { calls });
    expect(out.length).toBeLessThanOrEqual(githubCommentLimit);
    const rows = out.match(/^\| `monitors/gm)?.length ?? 0;
    expect(rows).toBeGreaterThan(100);
    expect(out).toContain(
      `**${3000 - rows} of 3000 resources are left out.** GitHub limits a comment to 65536 characters; run \`vigil plan\` to see the whole plan.`,
    );
    expect(out.startsWith("### Plan: 3000 to add, 0 to change, 0 to replace, 0 to destroy.\n")).toBe(true);
    expect(out.endsWith("API calls: 9 reads, 0 writes\n")).toBe(true);
  });

  it("folds away details before table rows", () => {
    const plan = planOf(Array.from({ length: 30 }, (_, i) => monitor(i)));
    const out = renderPlanMarkdown(plan, { maxLength: 8000 });
    expect(out.length).toBeLessThanOrEqual(8000);
    expect(out.match(/^\| `monitors/gm)).toHaveLength(30);
    const folded = out.match(/<details>/g)?.length ?? 0;
    expect(folded).toBeGreaterThan(0);
    expect(out).toContain(`**The changes of ${30 - folded} resources are left out.**`);
  });

  it("adds no note when everything fits", () => {
    expect(renderPlanMarkdown(planOf([monitor(1)]))).not.toContain("left out");
  });
});
