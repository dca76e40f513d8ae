import { afterAll, describe, expect, it } from "vitest";
import { judgeRules, matrixFor, neverWarnings } from "../../../src/cli/scenarios/rules.ts";
import { formatDiagnostic } from "../../../src/gitops/load.ts";
import { configuration, readTest, removeRepos } from "./scenarios-setup.ts";

/**
 * What `vigil test` judges on the routing matrix (docs/testing.md, "Rules" and "Warnings"): a file's rules
 * over every enabled monitor, and the `never:` entries nothing in the configuration could break.
 */
afterAll(removeRepos);

async function judged(test: string, config = configuration) {
  const { config: loaded, suites, problems } = await readTest(test, config);
  expect(problems).toEqual([]);
  const suite = suites[0]!;
  const matrix = matrixFor(loaded.resources, suite);
  return {
    rules: judgeRules(suite, matrix),
    warnings: neverWarnings(suite, matrix).map((w) =>
      formatDiagnostic(w).replace(/^.*alerts\.test\.yaml:/, ""),
    ),
  };
}

const quiet = `scenarios:
  - name: quiet
    steps: [{ at: 0m, down: [api] }]
    expect: [{ at: 0m, contact: pager, alert: down }]
`;

describe("rules", () => {
  it("everyMonitorAlerts: each enabled monitor needs a confirmed contact asking for down alerts", async () => {
    const passing = await judged(`rules: { everyMonitorAlerts: true }\n${quiet}`);
    expect(passing.rules).toMatchObject([{ rule: "everyMonitorAlerts", passed: true, failures: [] }]);

    const { rules } = await judged(`confirmed: [phone]\nrules: { everyMonitorAlerts: true }\n${quiet}`);
    expect(rules).toMatchObject([
      { rule: "everyMonitorAlerts", passed: false, place: { line: 2, column: 30 } },
    ]);
    // The paused monitor (batch) is not judged; api still reaches the pager; web only an unconfirmed email.
    expect(rules[0]!.failures).toEqual([
      "web: reaches no confirmed contact on down: boss (email): the contact is not confirmed: email, sms and voice contacts receive nothing until confirmed",
    ]);
  });

  it("everyMonitorAlerts names a monitor no contact is subscribed to", async () => {
    const config = configuration.replace(
      "maintenance:",
      "  lonely:\n    type: http\n    url: https://lonely.example.com/\n    locations: { pools: [westeurope] }\nmaintenance:",
    );
    const { rules } = await judged(`rules: { everyMonitorAlerts: true }\n${quiet}`, config);
    expect(rules[0]!.failures).toEqual(["lonely: no contact is subscribed to its alerts"]);
  });

  it("maxDelay: the earliest down alert of each monitor that pages, against the limit", async () => {
    const within = await judged(`rules: { maxDelay: 0 }\n${quiet}`);
    // api pages the pager at once, web the boss at once: 0 holds.
    expect(within.rules).toMatchObject([{ rule: "maxDelay", passed: true }]);

    const late = await judged(
      `confirmed: [phone, team]\nrules: { maxDelay: 4m }\n${quiet}`,
      configuration.replace("alertTypes: [down, up, repeatedlyDown] }", "alertTypes: [up] }"),
    );
    expect(late.rules[0]!.failures).toEqual([
      "api: its earliest down alert comes 5m after the failure (phone), more than 4m",
    ]);
  });
});

describe("never: entries nothing could break", () => {
  it("are warnings that say why, at their place; one that could be broken is not", async () => {
    const { warnings } = await judged(`scenarios:
  - name: api
    steps: [{ at: 0m, down: [api] }]
    never:
      - { contact: boss }
      - { contact: team, alert: up }
      - { contact: phone, channel: email }
      - { contact: phone }
      - { webhook: bot, event: incident.opened, monitor: web }
  - name: paused
    steps: [{ at: 0m, down: [batch] }]
    never:
      - { contact: pager }
  - name: nothing happens
    never:
      - { webhook: bot }
`);
    expect(warnings).toEqual([
      "5:9: scenarios[0].never[0]: nothing in the configuration could break this never: boss is subscribed to none of the monitors the scenario touches (api)",
      "6:9: scenarios[0].never[1]: nothing in the configuration could break this never: team's subscriptions to api ask for down, not up",
      "7:9: scenarios[0].never[2]: nothing in the configuration could break this never: phone is an sms contact, never reached by email",
      "9:9: scenarios[0].never[4]: nothing in the configuration could break this never: the scenario never takes web down or up",
      "13:9: scenarios[1].never[0]: nothing in the configuration could break this never: batch is paused: paused monitors alert nobody",
      "16:9: scenarios[2].never[0]: nothing in the configuration could break this never: the scenario takes no monitor down or up",
    ]);
  });
});
