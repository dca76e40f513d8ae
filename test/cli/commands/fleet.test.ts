/** `vigil fleet`'s rendering of its results. */
import { describe, expect, it } from "vitest";
import { markdownOf } from "../../../src/cli/commands/fleet.ts";
import type { AccountOutcome } from "../../../src/fleet/client.ts";

describe("vigil fleet plan --markdown", () => {
  it("keeps the fleet file's order of accounts, finished, failed and still pending alike", () => {
    const outcomes = [
      { account: "c", result: { ok: false, message: "401 invalid_token" } },
      { account: "a", result: { ok: true, created: 0, updated: 0, deleted: 0 } },
    ] as unknown as AccountOutcome[];
    const text = markdownOf(["a", "b", "c"], outcomes, [{ account: "b", state: "queued" }], "2s");
    const headings = [...text.matchAll(/^## (\w+)$/gm)].map((m) => m[1]);
    expect(headings).toEqual(["a", "b", "c"]);
    expect(text).toContain("## b\n\n**No result yet:** b: no result after 2s: still queued");
    expect(text).toContain("## c\n\n**Failed:** 401 invalid_token");
    expect(text).toContain("## a\n\nNo plan.");
    expect(text.trimEnd().split("\n").at(-1)).toBe(
      "Fleet plan: 1 of 3 account(s) succeeded, 1 failed, 1 without a result yet; 0 to create, 0 to update, 0 to delete.",
    );
  });
});
