import { describe, expect, it } from "vitest";
import { styler } from "../../../src/cli/render/style.ts";
import { judge, type Notification } from "../../../src/cli/scenarios/judge.ts";
import { renderJunit } from "../../../src/cli/scenarios/junit.ts";
import type { Scenario } from "../../../src/cli/scenarios/model.ts";
import { type RunReport, renderHuman } from "../../../src/cli/scenarios/report.ts";
import { elementsNamed, parseXml } from "../../helpers/xml.ts";

/**
 * `--junit FILE` (docs/testing.md): one <testsuite> per file, one <testcase> per scenario and per rule, one
 * <failure> per failed expectation, `tests` and `failures` counted; read back by a strict XML reader.
 */
const scenario = (name: string, expect: Scenario["expect"], never: Scenario["never"] = []): Scenario => ({
  name,
  start: 1_800_000_000,
  end: 1800,
  untilGiven: false,
  steps: [{ at: 0, down: ["api"], up: [] }],
  expect,
  never,
  place: { file: "t.test.yaml", line: 3, column: 5 },
});

const sent: Notification[] = [
  { at: 0, contact: "pager", alert: "down", channel: "http", outcome: "sent", monitors: ["api"] },
  { at: 300, contact: "phone", alert: "down", channel: "sms", outcome: "sent", monitors: ["api"] },
];

const hostile = `checkout <"&'> ]]> \u0001 pages`;

const report: RunReport = {
  warnings: [],
  files: [
    {
      suite: { file: "tests/a.test.yaml", rules: {}, scenarios: [] },
      scenarios: [
        judge(
          scenario("passes", [{ at: 0, within: 60, match: { contact: "pager", alert: "down" } }]),
          sent,
          [],
          120,
        ),
        judge(
          scenario(
            hostile,
            [
              {
                at: 60,
                within: 60,
                match: { contact: "phone", alert: "down" },
                place: { file: "t.test.yaml", line: 7, column: 9 },
              },
              { at: 0, within: 0, match: { webhook: "bot", event: "monitor.down" } },
              { at: 0, within: 0, match: { contact: "pager", alert: "down" } },
            ],
            [{ match: { contact: "phone" } }],
          ),
          sent,
          [],
          250,
        ),
      ],
      rules: [
        {
          rule: "everyMonitorAlerts",
          title: "every enabled monitor reaches a confirmed contact on down",
          passed: false,
          failures: ["web: no contact is subscribed to its alerts"],
        },
      ],
    },
    {
      suite: { file: "tests/b.test.yaml", rules: {}, scenarios: [] },
      scenarios: [judge(scenario("quiet", [], [{ match: { contact: "boss" } }]), sent, [], 5)],
      rules: [],
    },
  ],
};

describe("the JUnit report", () => {
  const root = parseXml(renderJunit(report));

  it("has one testsuite per file with its tests and failures counted, and the totals on the root", () => {
    expect(root.name).toBe("testsuites");
    expect(root.attributes).toMatchObject({ tests: "4", failures: "2", errors: "0" });
    const suites = elementsNamed(root, "testsuite");
    expect(suites.map((s) => s.attributes)).toMatchObject([
      { name: "tests/a.test.yaml", tests: "3", failures: "2", errors: "0", skipped: "0", time: "0.370" },
      { name: "tests/b.test.yaml", tests: "1", failures: "0" },
    ]);
  });

  it("has one testcase per scenario and per rule, and one failure per failed expectation and broken never", () => {
    const cases = elementsNamed(root, "testcase");
    expect(cases.map((c) => c.attributes.name)).toEqual([
      "passes",
      hostile.replace("\u0001", ""),
      "rule everyMonitorAlerts: every enabled monitor reaches a confirmed contact on down",
      "quiet",
    ]);
    expect(cases.map((c) => elementsNamed(c, "failure").length)).toEqual([0, 3, 1, 0]);
    const failures = elementsNamed(cases[1]!, "failure");
    expect(failures.map((f) => f.attributes.message)).toEqual([
      "expected phone down at 1m (±1m)",
      "expected bot monitor.down at 0 (±0)",
      "never phone any alert, but 1 came",
    ]);
    expect(failures[0]!.text).toBe(
      "t.test.yaml:7:9: expected phone down at 1m (±1m)\nnearest: phone down at 5m (sms, sent) about api",
    );
    expect(failures[1]!.text).toContain("nearest: nothing");
    expect(cases[0]!.attributes).toMatchObject({ classname: "tests/a.test.yaml", time: "0.120" });
  });
});

describe("the human summary", () => {
  it("writes a scenario's control characters as escapes: a test file cannot rewrite the terminal", () => {
    const text = renderHuman(report, styler(false));
    expect(text).toContain(`  ✗ checkout <"&'> ]]> \\u{1} pages (0.3 s)`);
    expect(text).not.toContain("\u0001");
    expect(text).toContain("failed: 3 scenarios in 2 files, 2 passed, 1 failed; 1 rule, 1 failed.");
  });
});

describe("the strict XML reader the test relies on", () => {
  it("refuses what is not well-formed", () => {
    for (const bad of [
      "<a><b></a></b>",
      "<a></a><b/>",
      "<a x=1/>",
      '<a x="1" x="2"/>',
      "<a>1 < 2</a>",
      "<a>&</a>",
      "<a>&nbsp;</a>",
      "<a>",
      "text<a/>",
      '<a x="1"y="2"/>',
    ])
      expect(() => parseXml(bad), bad).toThrow(/not well-formed/);
  });

  it("reads entities, character references and comments", () => {
    const el = parseXml(`<?xml version="1.0"?><!-- c --><a t="&lt;&#10;&#x41;">x &amp; y<!-- c --><b/></a>`);
    expect(el).toMatchObject({
      name: "a",
      attributes: { t: "<\nA" },
      text: "x & y",
      children: [{ name: "b" }],
    });
  });
});
