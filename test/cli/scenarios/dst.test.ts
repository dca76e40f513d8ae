import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import type { Notification } from "../../../src/cli/scenarios/judge.ts";
import { configNames, readSuites } from "../../../src/cli/scenarios/read.ts";
import { runSuites } from "../../../src/cli/scenarios/run.ts";
import { formatDiagnostic, loadConfig } from "../../../src/gitops/load.ts";
import { expectedNotifications, routingMatrix } from "../../../src/routing/index.ts";
import { vigil } from "../vigil.ts";
import { readTest, removeRepos, repo } from "./scenarios-setup.ts";

/**
 * A weekly window in the week of a daylight-saving change, as `vigil test` (the sandbox's incident machine)
 * and `vigil routes` (the routing matrix) see it: both keep the window's wall-clock hour in the account's
 * time zone, and give the same answer.
 */
vi.setConfig({ testTimeout: 120_000 });
afterAll(removeRepos);

const t = (iso: string) => Date.parse(iso) / 1000;

const config = `contacts:
  pager: { type: http, name: Pager, address: https://hooks.example.com/pager }
monitors:
  api:
    type: http
    url: https://api.example.com/health
    interval: 60
    locations: { pools: [westeurope] }
    alerts:
      - { contact: pager, alertTypes: [down, up] }
maintenance:
  deploy:
    name: Sunday deploy
    # Sunday 09:00 to 10:00 in Berlin (CET, UTC+1), every week; 2027-03-28 is in CEST (UTC+2).
    from: 2027-03-21T08:00:00Z
    to: 2027-03-21T09:00:00Z
    repeat: weekly
    monitors: [api]
`;

/** Two outages on 2027-03-28, at 07:10Z and 08:10Z; what each expects depends on the zone. */
const scenarios = (inside: string, after: string) => `scenarios:
  - name: down at 07:10Z
    start: 2027-03-28T07:10:00Z
    steps: [{ at: 0m, down: [api] }]
    expect: [{ at: ${inside}, contact: pager, alert: down, within: 0 }]
  - name: down at 08:10Z
    start: 2027-03-28T08:10:00Z
    steps: [{ at: 0m, down: [api] }]
    expect: [{ at: ${after}, contact: pager, alert: down, within: 0 }]
`;

describe("vigil test and vigil routes in the week of a daylight-saving change", () => {
  it("hold alerts at the window's local hour in the file's time zone, and at 7 × 24 hours in UTC", async () => {
    const dir = await repo({
      "config.yaml": config,
      // 09:00-10:00 CEST is 07:00Z-08:00Z: the outage at 07:10Z is held until 08:00Z, the one at 08:10Z is not.
      "berlin.test.yaml": `timezone: Europe/Berlin\n${scenarios("50m", "0m")}`,
      // Without a zone the account's is UTC, a new account's: the occurrence is 08:00Z-09:00Z.
      "utc.test.yaml": scenarios("0m", "50m"),
    });
    const loaded = await loadConfig([dir], { env: {} });
    expect(loaded.diagnostics.map(formatDiagnostic)).toEqual([]);
    const read = await readSuites(
      [join(dir, "berlin.test.yaml"), join(dir, "utc.test.yaml")],
      configNames(loaded.resources),
    );
    expect(read.problems).toEqual([]);
    expect(read.suites.map((s) => s.timeZone)).toEqual(["Europe/Berlin", undefined]);
    const runs = await runSuites(loaded, read.suites);
    const downs = (n: Notification[]) => n.filter((x) => x.alert === "down").map((x) => x.at);
    const [berlin, utc] = runs.map((r) =>
      r.scenarios.map((s) => ({ passed: s.passed, downs: downs(s.notifications) })),
    );
    expect(berlin).toEqual([
      { passed: true, downs: [50 * 60] },
      { passed: true, downs: [0] },
    ]);
    expect(utc).toEqual([
      { passed: true, downs: [0] },
      { passed: true, downs: [50 * 60] },
    ]);

    // The routing matrix predicts the same moments, zone for zone.
    const predicted = (timeZone: string, downAt: number) => {
      const matrix = routingMatrix(loaded.resources, { timeZone, now: t("2027-03-20T00:00:00Z") });
      const row = matrix.monitors.find((m) => m.monitor === "api")!;
      return expectedNotifications(row, { downAt, until: downAt + 3600 })
        .filter((n) => n.contact === "pager" && n.alertType === "down")
        .map((n) => n.at - downAt);
    };
    expect(predicted("Europe/Berlin", t("2027-03-28T07:10:00Z"))).toEqual([50 * 60]);
    expect(predicted("Europe/Berlin", t("2027-03-28T08:10:00Z"))).toEqual([0]);
    expect(predicted("UTC", t("2027-03-28T07:10:00Z"))).toEqual([0]);
    expect(predicted("UTC", t("2027-03-28T08:10:00Z"))).toEqual([50 * 60]);

    // `vigil routes --timezone` names the window's hours on that zone's clock.
    const shown = await vigil(["routes", "--timezone", "Europe/Berlin"], { cwd: dir });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(
      "held during deploy (Sunday deploy): weekly, Sun 09:00 to Sun 10:00 Europe/Berlin, from 2027-03-21",
    );
    const json = JSON.parse(
      (await vigil(["routes", "--timezone", "Europe/Berlin", "--json"], { cwd: dir })).stdout,
    );
    expect(json.timeZone).toBe("Europe/Berlin");
    expect(json.monitors[0].heldBy[0]).toMatchObject({ maintenance: "deploy", timeZone: "Europe/Berlin" });
    const wrong = await vigil(["routes", "--timezone", "Europe/Berlim"], { cwd: dir });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("--timezone Europe/Berlim: not a time zone");
    expect(wrong.stderr).toContain("did you mean Europe/Berlin?");
  });

  it("a time zone Intl does not know is an error of the test file, with a did-you-mean", async () => {
    const { problems } = await readTest(`timezone: America/New_Yrok\n${scenarios("0m", "0m")}`, config);
    expect(problems).toEqual([
      expect.stringMatching(
        /^1:11: .*"America\/New_Yrok" is not a time zone; .*did you mean "America\/New_York"\?$/,
      ),
    ]);
  });
});
