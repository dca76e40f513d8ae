import { relative, resolve } from "node:path";
import { expect, it } from "vitest";
import { cycles, importGraph } from "../tools/import-cycles.ts";

/**
 * The shape of the whole source tree (issue 18): no import cycles anywhere in `src`, type-only imports
 * included. Each folder's finer rules live beside its own tests (`test/sandbox/module-graph.test.ts`).
 */
const root = resolve(import.meta.dirname, "../src");

it("has no import cycles in src", () => {
  const graph = importGraph(root);
  expect(graph.size).toBeGreaterThan(300);
  expect(cycles(graph).map((c) => c.map((f) => relative(root, f)))).toEqual([]);
});
