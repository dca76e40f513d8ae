import { describe, expect, test } from "vitest";
import { touchesSide } from "../../../src/engine/apply/bodies.ts";
import { engineKind } from "../../../src/engine/kinds/index.ts";
import { applied, diff, edited, patch } from "./helpers.ts";

const desired = {
  slug: "status-t",
  title: "Status",
  theme: "dark",
  components: [
    { name: "Website", monitorId: "m1" },
    { name: "Support desk", manualState: "degraded" },
  ],
};

/** The row: components with the service's ids and live states, defaults and publicUrl added. */
const live = {
  id: "p1",
  slug: "status-t",
  title: "Status",
  theme: "dark",
  description: null,
  customDomain: null,
  publicUrl: "https://status.example.test/status/status-t",
  components: [
    { id: "11111111-1111-4111-8111-111111111111", name: "Website", monitorId: "m1", state: "down" },
    {
      id: "22222222-2222-4222-8222-222222222222",
      name: "Support desk",
      manualState: "degraded",
      state: "degraded",
    },
  ],
  created: 1000,
  updated: 1000,
};
const prior = applied("statusPage", desired);

describe("statusPage", () => {
  test("component ids and live states are not changes", () => {
    expect(diff("statusPage", desired, { live, prior }).changes).toEqual([]);
  });

  test("components are a list (display order): a reorder is a change, written by its own call", () => {
    const next = edited(desired, (d) => {
      d.components.reverse();
    });
    const result = diff("statusPage", next, { live, prior });
    expect(result.changes).toEqual([
      { op: "replace", path: "/components", value: next.components, before: desired.components },
    ]);
    expect(touchesSide(engineKind("statusPage"), result.changes)).toBe(true);
    // Not part of the page's PATCH.
    expect(patch("statusPage", next, result)).toEqual({});
  });

  test("a page member change is a PATCH; a removed member with a default is reset", () => {
    const next = { ...desired, title: "Status page" };
    const result = diff("statusPage", next, { live, prior });
    expect(result.changes).toEqual([
      { op: "replace", path: "/title", value: "Status page", before: "Status" },
    ]);
    expect(patch("statusPage", next, result)).toEqual({ title: "Status page" });

    const { theme: _, ...noTheme } = desired;
    const removed = diff("statusPage", noTheme, { live, prior });
    expect(removed.changes).toEqual([{ op: "remove", path: "/theme", before: "dark" }]);
    expect(patch("statusPage", noTheme, removed)).toEqual({ theme: "auto" });
  });

  test("a new slug replaces the page", () => {
    const result = diff("statusPage", { ...desired, slug: "status-u" }, { live, prior });
    expect(result.replaceReasons).toEqual(["slug cannot change in place"]);
  });

  test("drift in a component, and a component monitor still unknown", () => {
    const changed = edited(live, (r) => {
      r.components[1]!.manualState = "operational";
    });
    expect(diff("statusPage", desired, { live: changed, prior }).changes).toEqual([
      expect.objectContaining({ op: "replace", path: "/components", drift: true }),
    ]);
    const next = edited(desired, (d) => {
      (d.components[0] as Record<string, unknown>).monitorId = { $unknown: "monitors.new" };
    });
    expect(diff("statusPage", next, { live, prior }).changes).toEqual([
      expect.objectContaining({ path: "/components", unknown: true }),
    ]);
  });
});
