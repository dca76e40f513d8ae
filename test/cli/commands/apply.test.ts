import { describe, expect, it } from "vitest";
import { appliedSummary } from "../../../src/cli/commands/apply.ts";

describe("appliedSummary", () => {
  it("counts what was done by action, in the order done, no-ops left out", () => {
    const done = [
      { address: "contacts.a", action: "create" },
      { address: "monitors.a", action: "no-op" },
      { address: "monitors.b", action: "create" },
      { address: "monitors.c", action: "delete" },
      { address: "monitors.d", action: "forget" },
    ];
    expect(appliedSummary(done, 0)).toBe("2 created, 1 deleted, 1 forgotten");
  });

  it("says nothing was applied when everything planned failed, and nothing to do otherwise", () => {
    expect(appliedSummary([{ address: "monitors.a", action: "no-op" }], 1)).toBe("nothing applied");
    expect(appliedSummary([], 0)).toBe("nothing to do");
  });
});
