import { expect, it } from "vitest";
import { renderDiffMarkdown, renderMatrixMarkdown } from "../../../src/cli/render/routes.ts";
import type { Route, RoutingMatrix } from "../../../src/routing/index.ts";

/** The Markdown of `vigil routes` fits a pull-request comment, and a cell cannot break its table. */
const route = (i: number): Route => ({
  monitor: `monitor-${i}`,
  contact: `team|${i}`,
  channel: "email",
  alertTypes: ["down"],
  delayMinutes: i,
  confirmed: true,
  outcome: "sent",
  heldBy: [],
});
const routes = Array.from({ length: 2000 }, (_, i) => route(i));

it("cuts the diff to the comment's length and says how many rows it left out", () => {
  const text = renderDiffMarkdown({ added: routes, removed: [], changed: [], unpaged: [] }, 4000);
  expect(text.length).toBeLessThanOrEqual(4000);
  const shown = text.split("\n").filter((l) => l.startsWith("| monitor-")).length;
  expect(shown).toBeGreaterThan(10);
  expect(text).toContain(`… and ${2000 - shown} more, left out to fit a comment.`);
  // A pipe in a name is escaped, so the row keeps its four cells.
  expect(text).toContain("| monitor-0 | team\\|0 | email | down at once |");
});

it("cuts the matrix likewise", () => {
  const matrix: RoutingMatrix = {
    monitors: routes.map((r) => ({
      monitor: r.monitor,
      title: null,
      type: "http",
      enabled: true,
      notice: null,
      attachedNotices: [],
      downDelayMinutes: r.delayMinutes,
      heldBy: [],
      routes: [r],
    })),
    routes,
  };
  const text = renderMatrixMarkdown(matrix, "every contact taken as confirmed", 6000);
  expect(text.length).toBeLessThanOrEqual(6000);
  expect(text).toMatch(/… and \d+ more, left out to fit a comment\./);
});
