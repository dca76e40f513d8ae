/**
 * `vigil test --junit FILE`: the run as JUnit XML, the form CI test reporters read (the Ant/Surefire
 * schema): one `<testsuite>` per test file, one `<testcase>` per scenario (and per rule), one `<failure>`
 * per failed expectation, with `tests` and `failures` counted on each suite and on the `<testsuites>` root.
 */
import { shown } from "./check.ts";
import { describeMatch, describeNotification, type RunReport } from "./report.ts";

/** Text escaped for XML content and attribute values; characters XML 1.0 cannot hold are left out. */
export function xmlEscape(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;")
    .replace(/\n/g, "&#10;");
}

const attrs = (values: Record<string, string | number>) =>
  Object.entries(values)
    .map(([name, value]) => ` ${name}="${xmlEscape(String(value))}"`)
    .join("");

interface Case {
  name: string;
  classname: string;
  seconds: number;
  failures: { message: string; body: string }[];
}

export function renderJunit(report: RunReport): string {
  const suites = report.files.map((file) => {
    const classname = file.suite.file;
    const cases: Case[] = file.scenarios.map((r) => ({
      name: r.scenario.name,
      classname,
      seconds: r.durationMs / 1000,
      failures: [
        ...r.expectations
          .filter((e) => !e.passed)
          .map((e) => {
            const x = e.expectation;
            const where = x.place ? `${x.place.file}:${x.place.line}:${x.place.column}: ` : "";
            return {
              message: `expected ${describeMatch(x.match)} at ${shown(x.at)} (±${shown(x.within)})`,
              body: `${where}expected ${describeMatch(x.match)} at ${shown(x.at)} (±${shown(x.within)})\nnearest: ${
                e.nearest.length > 0 ? e.nearest.map(describeNotification).join("\n         ") : "nothing"
              }`,
            };
          }),
        ...r.nevers
          .filter((n) => !n.passed)
          .map((n) => ({
            message: `never ${describeMatch(n.never.match)}, but ${n.broken.length} came`,
            body: n.broken.map(describeNotification).join("\n"),
          })),
      ],
    }));
    for (const rule of file.rules)
      cases.push({
        name: `rule ${rule.rule}: ${rule.title}`,
        classname,
        seconds: 0,
        failures: rule.failures.map((failure) => ({ message: failure, body: failure })),
      });
    const failures = cases.filter((c) => c.failures.length > 0).length;
    const seconds = cases.reduce((sum, c) => sum + c.seconds, 0);
    const body = cases
      .map((c) => {
        const head = `    <testcase${attrs({ name: c.name, classname: c.classname, time: c.seconds.toFixed(3) })}`;
        if (c.failures.length === 0) return `${head}/>`;
        const inner = c.failures
          .map(
            (f) =>
              `      <failure${attrs({ message: f.message, type: "expectation" })}>${xmlEscape(f.body)}</failure>`,
          )
          .join("\n");
        return `${head}>\n${inner}\n    </testcase>`;
      })
      .join("\n");
    return {
      tests: cases.length,
      failures,
      seconds,
      xml: `  <testsuite${attrs({ name: file.suite.file, tests: cases.length, failures, errors: 0, skipped: 0, time: seconds.toFixed(3) })}>\n${body}${body ? "\n" : ""}  </testsuite>`,
    };
  });
  const tests = suites.reduce((sum, s) => sum + s.tests, 0);
  const failures = suites.reduce((sum, s) => sum + s.failures, 0);
  const seconds = suites.reduce((sum, s) => sum + s.seconds, 0);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites${attrs({ name: "vigil test", tests, failures, errors: 0, time: seconds.toFixed(3) })}>\n${suites.map((s) => s.xml).join("\n")}${suites.length > 0 ? "\n" : ""}</testsuites>\n`;
}
