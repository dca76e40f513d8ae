import { readFile, rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { elementsNamed, parseXml } from "../../helpers/xml.ts";
import { vigil, workspace } from "../vigil.ts";
import { configuration } from "./scenarios-setup.ts";

/**
 * `vigil test` as a user runs it (docs/testing.md): the real binary, exit codes 0, 1 and 2, the human
 * summary, `--json`, `--junit`, `--tests`, `--coverage` and `--min-coverage`.
 */
const root = resolve(import.meta.dirname, "../../..");
const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});
async function ws(files: Record<string, string>) {
  const dir = await workspace(files);
  dirs.push(dir);
  return dir;
}

const failing = `start: 2026-03-02T09:00:00Z
confirmed: [phone]
rules: { everyMonitorAlerts: true }
scenarios:
  - name: on-call hears of the api outage
    steps: [{ at: 0m, down: [api] }]
    until: 15m
    expect:
      - { at: 2m, contact: phone, alert: down }
      - { at: 0m, contact: pager, alert: down }
    never:
      - { contact: team }
  - name: the website pages its owner
    steps: [{ at: 0m, down: [web] }]
    expect:
      - { at: 0m, contact: boss, alert: down }
`;

describe("vigil test", () => {
  it("passes the example repository's scenarios: exit 0, --json and --junit", async () => {
    const dir = await ws({});
    const junit = join(dir, "results.xml");
    const run = await vigil(["test", join(root, "examples/gitops"), "--json", "--junit", junit], {
      cwd: dir,
      timeoutMs: 120_000,
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const json = JSON.parse(run.stdout);
    expect(json).toMatchObject({ passed: true, summary: { files: 3, failed: 0, rules: 1, rulesFailed: 0 } });
    expect(json.summary.scenarios).toBe(json.summary.passed);
    const window = json.files
      .flatMap((f: { scenarios: unknown[] }) => f.scenarios)
      .find((s: { name: string }) => s.name.startsWith("the weekly deploy window"));
    expect(window).toMatchObject({ passed: true, start: "2027-01-10T02:05:00Z" });
    expect(window.expect[1]).toMatchObject({
      contact: "oncall",
      alert: "down",
      at: "55m",
      passed: true,
      met: {
        at: "55m",
        time: "2027-01-10T03:00:00Z",
        channel: "http",
        outcome: "sent",
        monitors: ["checkout-api"],
      },
    });

    const xml = parseXml(await readFile(junit, "utf8"));
    const suites = elementsNamed(xml, "testsuite");
    expect(suites).toHaveLength(3);
    expect(xml.attributes.tests).toBe(String(json.summary.scenarios + 1));
    expect(xml.attributes.failures).toBe("0");
    for (const suite of suites)
      expect(elementsNamed(suite, "testcase").length).toBe(Number(suite.attributes.tests));
  }, 120_000);

  it("says what failed and what came instead, fails the rule, and exits 1", async () => {
    const dir = await ws({ "config.yaml": configuration, "tests/alerts.test.yaml": failing });
    const run = await vigil(["test", "--junit", "out.xml", "--coverage", "--min-coverage", "99"], {
      cwd: dir,
      timeoutMs: 120_000,
    });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toContain(
      ["tests/alerts.test.yaml", "  ✗ on-call hears of the api outage ("].join("\n"),
    );
    expect(run.stdout).toContain(
      [
        "      ✗ expected phone down at 2m (±1m)  tests/alerts.test.yaml:9:9",
        "          what reached phone nearest then: phone down at 5m (sms, sent) about api",
        "      ✗ never team any alert  tests/alerts.test.yaml:12:9",
        "          but: team down at 10m (email, blocked: unconfirmed) about api",
        "  ✓ the website pages its owner (",
      ].join("\n"),
    );
    expect(run.stdout).toContain(
      "  ✗ rule everyMonitorAlerts: every enabled monitor reaches a confirmed contact on down",
    );
    expect(run.stdout).toMatch(/Coverage: [\d.]+% \(under the minimum, 99%\)/);
    expect(run.stdout).toContain("  monitors taken down: 2 of 2");
    expect(run.stdout).toContain("failed: 2 scenarios in 1 file, 1 passed, 1 failed; 1 rule, 1 failed.");
    const xml = parseXml(await readFile(join(dir, "out.xml"), "utf8"));
    expect(xml.attributes).toMatchObject({ tests: "3", failures: "2" });
    expect(elementsNamed(xml, "failure").map((f) => f.attributes.message)).toEqual([
      "expected phone down at 2m (±1m)",
      "never team any alert, but 1 came",
      "web: reaches no confirmed contact on down: boss (email): the contact is not confirmed: email, sms and voice contacts receive nothing until confirmed",
    ]);
  }, 120_000);

  it("refuses a test file with mistakes, each at file:line:column, and runs nothing: exit 2", async () => {
    const dir = await ws({
      "config.yaml": configuration,
      "a.test.yaml": "scenarios:\n  - name: x\n    steps: [{ at: 0m, down: [apii] }]\n",
    });
    const run = await vigil(["test"], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(
      [
        `Error: a.test.yaml:2:5: scenarios[0]: the scenario "x" expects nothing: give it expect: or never: entries, or it passes whatever happens`,
        `Error: a.test.yaml:3:30: scenarios[0].steps[0].down[0]: "apii" is not a monitor of the configuration; the configuration's monitors: api, web, batch; did you mean "api"?`,
        "Error: 2 problems in the test files; no scenario ran.",
        "",
      ].join("\n"),
    );
  });

  it("takes other test files with --tests, leaves them out of the configuration, and refuses a broken configuration: exit 2", async () => {
    const test =
      "scenarios:\n  - name: pager\n    steps: [{ at: 0m, down: [api] }]\n    expect: [{ at: 0m, contact: pager, alert: down }]\n";
    const dir = await ws({ "config/main.yaml": configuration, "config/scenarios/pager.yaml": test });
    const run = await vigil(["test", "config", "--tests", "config/scenarios/*.yaml"], {
      cwd: dir,
      timeoutMs: 120_000,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("config/scenarios/pager.yaml\n  ✓ pager (");

    const none = await vigil(["test", "config"], { cwd: dir });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("no test files (*.test.yaml) under config");

    const broken = await ws({ "main.yaml": "monitors:\n  api: { type: htp }\n", "a.test.yaml": test });
    const refused = await vigil(["test"], { cwd: broken });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^Error: main\.yaml:2:/);
    expect(refused.stderr).toContain("problem in the configuration; no scenario ran.");
  }, 120_000);

  it("shows no credential the configuration fills from the environment, in any output or the JUnit file", async () => {
    const secret = "s3cr3t-vigil-test-0123456789";
    // `${env:SECRET}`, built so no string literal looks like a forgotten template.
    const placeholder = `\${env:${"SECRET"}}`;
    const config = configuration
      .replace(
        "pager: { type: http, name: Pager, address: https://hooks.example.com/pager }",
        `pager: { type: http, name: Pager, address: https://hooks.example.com/pager, httpHeaders: [{ header: Authorization, value: "Bearer ${placeholder}" }] }`,
      )
      .replace(
        "    url: https://hooks.example.com/bot\n",
        `    url: https://hooks.example.com/bot\n    secret: ${placeholder}\n`,
      );
    expect(config).toContain(`secret: ${placeholder}`);
    const dir = await ws({ "config.yaml": config, "tests/alerts.test.yaml": failing });
    for (const args of [
      ["test", "--junit", "out.xml"],
      ["test", "--json", "--coverage"],
    ]) {
      const run = await vigil(args, { cwd: dir, env: { SECRET: secret }, timeoutMs: 120_000 });
      expect(run.code, run.stderr).toBe(1);
      expect(run.stdout).toContain("phone");
      expect(`${run.stdout}${run.stderr}`).not.toContain(secret);
    }
    expect(await readFile(join(dir, "out.xml"), "utf8")).not.toContain(secret);
  }, 120_000);
});
