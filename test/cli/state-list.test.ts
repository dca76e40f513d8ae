import { describe, expect, it } from "vitest";
import { type KindName, newState } from "../../src/engine/index.ts";
import { vigil, workspace } from "./vigil.ts";

describe("vigil state list", () => {
  it("aligns the kind and id columns whatever the lengths of addresses and kinds", async () => {
    const state = newState();
    const entry = (kind: KindName, id: string) => ({ kind, id, naturalKey: {}, managed: {} });
    state.resources = {
      "monitors.web": entry("monitor", "m1"),
      "alertSubscriptions.web-ops": entry("alertSubscription", "s1"),
      "contacts.ops": entry("contact", "c1"),
    };
    const cwd = await workspace({ ".vigil/state.json": JSON.stringify(state) });
    const run = await vigil(["state", "list"], { cwd });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(
      [
        "alertSubscriptions.web-ops  alertSubscription  s1",
        "contacts.ops                contact            c1",
        "monitors.web                monitor            m1",
        "",
      ].join("\n"),
    );
  });
});
