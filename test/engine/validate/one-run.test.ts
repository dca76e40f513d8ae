/**
 * Every problem in one run: the cross-member rules run beside members the schema refuses, on the members
 * that are sound, so fixing one problem never uncovers the next. A rule never judges an invalid member, and
 * what a removed member leaves missing is not said.
 */
import { describe, expect, it } from "vitest";
import { type DesiredResource, validateDesired } from "../../../src/engine/index.ts";

const monitor = (members: Record<string, unknown>): DesiredResource => ({
  address: "monitors.web",
  kind: "monitor",
  members: {
    type: "http",
    url: "https://web.example.com/",
    name: "Web",
    locations: { pools: ["westeurope"] },
    ...members,
  },
});

const said = (resources: DesiredResource[]) =>
  validateDesired(resources).map((d) => `${d.address}${d.pointer} ${d.code}`);

describe("validateDesired says every problem at once", () => {
  it("a rule's refusal beside an invalid member", () => {
    expect(said([monitor({ interval: "sixty", settings: { assertMode: true, keywords: "ok" } })])).toEqual([
      "monitors.web/interval wrong_type",
      "monitors.web/settings/keywords invalid_settings",
    ]);
  });

  it("rules of the root beside an invalid setting, and settings rules beside an unknown member", () => {
    expect(
      said([
        monitor({
          recheck: { strategy: "minNumDown" },
          settings: { assertMode: true, keywords: "ok", timeoutt: 5 },
        }),
      ]),
    ).toEqual([
      "monitors.web/settings/timeoutt unknown_member",
      "monitors.web/recheck/minNumDown validation_failed",
      "monitors.web/settings/keywords invalid_settings",
    ]);
  });

  it("a maintenance window's shape beside an unknown member", () => {
    const window: DesiredResource = {
      address: "maintenance.deploy",
      kind: "maintenance",
      members: { name: "Deploy", from: 1_800_003_600, to: 1_800_000_000, repeats: "weekly" },
    };
    expect(said([window])).toEqual([
      "maintenance.deploy/repeats unknown_member",
      "maintenance.deploy/to validation_failed",
    ]);
  });

  it("nothing about a member removed as invalid, nor what its removal leaves missing", () => {
    // `pool` misspelt: the rule would find `pools` missing, which the did-you-mean already says.
    expect(said([monitor({ locations: { pool: ["westeurope"] } })])).toEqual([
      "monitors.web/locations/pool unknown_member",
    ]);
    // An invalid `keywords` is not judged by the assert-mode rule: it is said once, as invalid.
    expect(said([monitor({ settings: { assertMode: true, keywords: 5 } })])).toEqual([
      "monitors.web/settings/keywords wrong_type",
    ]);
  });
});
