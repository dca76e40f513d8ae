import { afterAll, describe, expect, it } from "vitest";
import { readTest, removeRepos } from "./scenarios-setup.ts";

/**
 * Mistakes in a test file are errors, each at file:line:column with a did-you-mean (docs/testing.md): a test
 * that cannot fail, or that names what the configuration lacks, must never pass silently.
 */
afterAll(removeRepos);

const scenario = (body: string) => `scenarios:
  - name: api outage
${body}`;

describe("a test file that names what the configuration lacks", () => {
  it("a monitor of a step, with the configuration's monitors and a did-you-mean", async () => {
    const { problems, suites } = await readTest(
      scenario(`    steps:
      - { at: 0m, down: [apii] }
    expect:
      - { at: 0m, contact: pager, alert: down }
`),
    );
    expect(problems).toEqual([
      `4:26: scenarios[0].steps[0].down[0]: "apii" is not a monitor of the configuration; the configuration's monitors: api, web, batch; did you mean "api"?`,
    ]);
    expect(suites).toEqual([]);
  });

  it("a contact or a webhook of an expectation, and a monitor it is about", async () => {
    const { problems } = await readTest(
      scenario(`    steps: [{ at: 0m, down: [api] }]
    expect:
      - { at: 0m, contact: pagr, alert: down }
      - { at: 0m, webhook: bott, event: monitor.down }
      - { at: 0m, contact: pager, alert: down, monitor: wbe }
    never:
      - { contact: nobody }
`),
    );
    expect(problems).toEqual([
      `5:28: scenarios[0].expect[0].contact: "pagr" is not a contact of the configuration; the configuration's contacts: pager, phone, team, boss; did you mean "pager"?`,
      `6:28: scenarios[0].expect[1].webhook: "bott" is not a webhook of the configuration; the configuration's webhooks: bot; did you mean "bot"?`,
      `7:57: scenarios[0].expect[2].monitor: "wbe" is not a monitor of the configuration; the configuration's monitors: api, web, batch; did you mean "web"?`,
      `9:20: scenarios[0].never[0].contact: "nobody" is not a contact of the configuration; the configuration's contacts: pager, phone, team, boss`,
    ]);
  });

  it("a confirmed contact that is not one, or needs no confirmation", async () => {
    const { problems } = await readTest(`confirmed: [teem, pager]
${scenario(`    steps: [{ at: 0m, down: [api] }]
    expect: [{ at: 0m, contact: pager, alert: down }]
`)}`);
    expect(problems).toEqual([
      `1:13: confirmed[0]: "teem" is not a contact of the configuration; the configuration's contacts: pager, phone, team, boss; did you mean "team"?`,
      "1:19: confirmed[1]: pager is an http contact: only email, sms, voiceCall contacts are confirmed, the others need no confirmation",
    ]);
  });
});

describe("a test file whose scenario cannot fail", () => {
  it("a scenario with no expectations", async () => {
    const { problems } = await readTest(
      scenario(`    steps: [{ at: 0m, down: [api] }]
`),
    );
    expect(problems).toEqual([
      `2:5: scenarios[0]: the scenario "api outage" expects nothing: give it expect: or never: entries, or it passes whatever happens`,
    ]);
  });

  it("an expectation no notification can meet: a channel the contact lacks, an event the webhook does not send", async () => {
    const { problems } = await readTest(
      scenario(`    steps: [{ at: 0m, down: [api] }]
    expect:
      - { at: 5m, contact: phone, alert: down, channel: email }
      - { at: 0m, webhook: bot, event: monitor.repeatedlyDown }
`),
    );
    expect(problems).toEqual([
      "5:57: scenarios[0].expect[0].channel: phone is an sms contact: its notifications go by sms, never by email",
      "6:40: scenarios[0].expect[1].event: bot does not subscribe to monitor.repeatedlyDown, so no delivery of it can come; it subscribes to monitor.down, monitor.up, incident.opened",
    ]);
  });
});

describe("a test file with a mistake of form", () => {
  it("an unknown member, with the allowed ones and a did-you-mean, at the key", async () => {
    const { problems } = await readTest(`strat: 2026-03-02T09:00:00Z
${scenario(`    steps: [{ at: 0m, down: [api], dwon: [web] }]
    expect:
      - { at: 0m, contact: pager, alert: down, withn: 2m }
`)}`);
    expect(problems).toEqual([
      `1:1: strat: unknown member "strat"; allowed: start, confirmed, rules, scenarios; did you mean "start"?`,
      `4:36: scenarios[0].steps[0].dwon: unknown member "dwon"; allowed: at, down, up; did you mean "down"?`,
      `6:48: scenarios[0].expect[0].withn: unknown member "withn"; allowed: at, within, contact, monitor, outcome, channel, alert; did you mean "within"?`,
    ]);
  });

  it("a value not allowed, with a did-you-mean; a missing member; an entry naming both a contact and a webhook", async () => {
    const { problems } = await readTest(
      scenario(`    steps: [{ at: 0m, down: [api] }]
    expect:
      - { at: 0m, contact: pager, alert: dwon }
      - { at: 0m, contact: pager }
      - { at: 0m, contact: pager, webhook: bot, alert: down }
      - { at: 0m, webhook: bot, event: monitor.dwn }
`),
    );
    expect(problems).toEqual([
      `5:42: scenarios[0].expect[0].alert: string "dwon" is not allowed; allowed: down, up, repeatedlyDown; did you mean "down"?`,
      `6:9: scenarios[0].expect[1]: "alert" is required (one of down, up, repeatedlyDown)`,
      "7:9: scenarios[0].expect[2]: an entry of expect names a contact or a webhook ({ at: 5m, contact: NAME, alert: down } or { at: 0m, webhook: NAME, event: monitor.down }); it names both",
      `8:40: scenarios[0].expect[3].event: string "monitor.dwn" is not allowed; allowed: monitor.down, monitor.up, monitor.repeatedlyDown, incident.opened, incident.closed, monitor.created, monitor.updated, monitor.deleted, maintenance.ended, certificate.expiring, domain.expiring, contact.confirmed, contact.updated; did you mean "monitor.down"?`,
    ]);
  });

  it("bad durations and times, each saying what is allowed", async () => {
    const { problems } = await readTest(`start: next monday
rules: { maxDelay: 15min }
${scenario(`    until: 40d
    steps: [{ at: 5 minutes, down: [api] }, { at: 1500ms, up: [api] }]
    expect:
      - { at: 0m, contact: pager, alert: down, within: -1m }
`)}`);
    expect(problems).toEqual([
      `1:8: start: "next monday" is not a time; write ISO 8601 with a zone (2026-03-02T09:00:00Z) or Unix seconds`,
      `2:20: rules.maxDelay: maxDelay takes a duration: 90s, 5m or 1h30m (units d, h, m, s, ms), or a whole number of seconds, or 0 (no time); not "15min".`,
      `5:12: scenarios[0].until: until is at most 31d (a scenario's longest span); not "40d".`,
      `6:19: scenarios[0].steps[0].at: at takes a duration: 90s, 5m or 1h30m (units d, h, m, s, ms), or a whole number of seconds, or 0 (no time); not "5 minutes".`,
      `6:51: scenarios[0].steps[1].at: at counts whole seconds; got "1500ms"`,
      `8:56: scenarios[0].expect[0].within: within takes a duration: 90s, 5m or 1h30m (units d, h, m, s, ms), or a whole number of seconds, or 0 (no time); not "-1m".`,
    ]);
  });

  it("steps out of time order, a monitor taken down and up at once, an end before the last step, a name used twice", async () => {
    const { problems } = await readTest(`scenarios:
  - name: twice
    until: 5m
    steps:
      - { at: 10m, down: [api] }
      - { at: 2m, up: [api] }
      - { at: 12m, down: [web], up: [web] }
    never: [{ contact: boss }]
  - name: twice
    steps: [{ at: 0m, down: [api] }]
    never: [{ contact: boss }]
`);
    expect(problems).toEqual([
      "3:12: scenarios[0].until: the scenario would end (5m) before its last step (10m)",
      "6:15: scenarios[0].steps[1].at: steps go in time order: this one (2m) comes after one at 10m",
      "7:37: scenarios[0].steps[2].up: web is taken both down and up in one step; one step gives a monitor one state",
      `9:11: scenarios[1].name: another scenario of this file is named "twice" (scenarios[0]); names are unique per file`,
    ]);
  });

  it("YAML that is not a test file at all", async () => {
    expect((await readTest("- just\n- a list\n")).problems).toEqual(["1:1: expected a map, got a list"]);
    expect((await readTest("scenarios: {a: 1\n")).problems[0]).toMatch(/^2:1: /);
    expect((await readTest("scenarios: []\n")).problems).toEqual(["1:12: scenarios: must list at least 1"]);
  });
});

describe("a sound test file", () => {
  it("reads into scenarios with times in seconds and the defaults filled in", async () => {
    const { problems, suites } = await readTest(`start: 2026-03-02T09:00:00Z
confirmed: [team]
rules: { everyMonitorAlerts: true, maxDelay: 15m }
scenarios:
  - name: api outage
    steps:
      - { at: 0m, down: [api] }
      - { at: 1h30m, up: [api] }
    expect:
      - { at: 5m, contact: phone, alert: down }
      - { at: 90m, webhook: bot, event: monitor.up, within: 0 }
  - name: later
    start: 1767614400
    until: 2h
    steps: [{ at: 300, down: [web] }]
    never: [{ contact: boss, alert: up, outcome: sent }]
`);
    expect(problems).toEqual([]);
    const [suite] = suites;
    expect(suite).toMatchObject({
      confirmed: ["team"],
      rules: { everyMonitorAlerts: { value: true }, maxDelay: { value: 900 } },
      scenarios: [
        {
          name: "api outage",
          start: Date.UTC(2026, 2, 2, 9) / 1000,
          end: 5400,
          untilGiven: false,
          steps: [
            { at: 0, down: ["api"], up: [] },
            { at: 5400, down: [], up: ["api"] },
          ],
          expect: [
            { at: 300, within: 60, match: { contact: "phone", alert: "down" } },
            { at: 5400, within: 0, match: { webhook: "bot", event: "monitor.up" } },
          ],
        },
        {
          name: "later",
          start: 1767614400,
          end: 7200,
          untilGiven: true,
          steps: [{ at: 300, down: ["web"] }],
        },
      ],
    });
    expect(suite!.scenarios[0]!.place).toMatchObject({ line: 5, column: 5 });
  });
});
