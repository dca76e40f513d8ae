/**
 * Issue 25, point 14: the plan renderers walk values with stacks of their own, so a value nested far
 * deeper than the call stack goes (a plan file edited by hand) renders whole (issue 26: the human plan shows
 * every changed value whole), and so do lists of lines past the limit on a call's arguments.
 */
import { describe, expect, it } from "vitest";
import { renderPlan } from "../../../src/cli/render/human.ts";
import { renderPlanMarkdown } from "../../../src/cli/render/markdown.ts";
import type { Change } from "../../../src/engine/model.ts";
import { planOf } from "./plans.ts";

const depth = 200_000;

function nestedArray(levels: number): unknown {
  let value: unknown = [];
  for (let i = 1; i < levels; i++) value = [value];
  return value;
}

function nestedObject(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: 1 };
  for (let i = 1; i < levels; i++) value = { a: value };
  return value;
}

const planWith = (changes: Change[], warnings: string[] = []) =>
  planOf(
    [
      {
        address: "monitors.web",
        kind: "monitor",
        action: "update",
        id: "m-1",
        reasons: [],
        changes,
        observed: { updated: 1 },
      },
    ],
    warnings,
  );

describe("deeply nested values", () => {
  it("show whole, whether arrays or objects, in the human and Markdown plans", () => {
    const plan = planWith([
      { op: "replace", path: "/tags", value: nestedArray(depth), before: ["a"] },
      { op: "replace", path: "/settings", value: nestedObject(depth), before: { a: 1 } },
    ]);
    const human = renderPlan(plan);
    // The list's one element: all but the outermost level.
    const wholeArray = `${"[".repeat(depth - 1)}${"]".repeat(depth - 1)}`;
    const wholeObject = `${'{"a":'.repeat(depth - 1)}{"leaf":1}${"}".repeat(depth - 1)}`;
    // An array too long for its line shows element by element.
    expect(human).toContain(`~ tags: 1 changed\n          ~ [0]: "a" → ${wholeArray}\n`);
    expect(human).toContain(`~ settings: {"a":1} → ${wholeObject}\n`);
    // A pull-request comment is cut to GitHub's limit, but renders.
    expect(renderPlanMarkdown(plan)).toContain(`+ settings: ${'{"a":'.repeat(19)}`);
  });

  it("added whole are shown member by member, down to the leaf", () => {
    const human = renderPlan(planWith([{ op: "add", path: "/settings", value: nestedObject(depth) }]));
    const line = human.split("\n").find((l) => l.includes("+ settings.a.a"))!;
    expect(line.startsWith(`      + settings${".a".repeat(depth - 1)}.leaf: 1`)).toBe(true);
  });
});

it("more lines than a call takes arguments render, in order", () => {
  const warnings = Array.from({ length: 300_000 }, (_, i) => `warning ${i}`);
  const human = renderPlan(planWith([{ op: "replace", path: "/interval", value: 60, before: 30 }], warnings));
  expect(human).toContain("Warning: warning 0\nWarning: warning 1\n");
  expect(human).toContain("Warning: warning 299999\n");
});
