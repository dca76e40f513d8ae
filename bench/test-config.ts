/**
 * The repository `npm run bench:test` runs: `monitors` http monitors, each alerting a pager at once, a phone
 * after 5 minutes and an email after 10 (30 contacts in all), a weekly window over the first 50, two
 * webhooks; and `scenarios` scenarios over `files` test files, each taking two monitors down, one back up
 * after 12 minutes and the other after 25, with what each contact must receive and when.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const teams = 10;

function configuration(monitors: number): string {
  const lines = ["contacts:"];
  for (let t = 0; t < teams; t++)
    lines.push(
      `  pager-${t}: { type: http, address: https://hooks.example.com/pager/${t} }`,
      `  phone-${t}: { type: sms, address: "+1555555${String(t).padStart(4, "0")}", alertDelay: 5 }`,
      `  email-${t}: { type: email, address: team-${t}@example.com, alertDelay: 10 }`,
    );
  lines.push("monitors:");
  for (let i = 0; i < monitors; i++) {
    const t = i % teams;
    lines.push(
      `  m${i}:`,
      "    type: http",
      `    url: https://service-${i}.example.com/health`,
      `    interval: ${i % 5 === 4 ? 300 : 60}`,
      `    tags: [${i % 2 === 0 ? "prod" : "staging"}]`,
      "    locations: { pools: [westeurope] }",
      "    alerts:",
      `      - { contact: pager-${t}, alertTypes: [down, up, repeatedlyDown] }`,
      `      - { contact: phone-${t}, alertTypes: [down] }`,
      `      - { contact: email-${t}, alertTypes: [down, up] }`,
    );
  }
  const covered = Array.from({ length: Math.min(50, monitors) }, (_, i) => `m${i}`).join(", ");
  lines.push(
    "maintenance:",
    "  deploy:",
    "    name: Weekly deploy",
    "    from: 2026-01-04T02:00:00Z",
    "    to: 2026-01-04T03:00:00Z",
    "    repeat: weekly",
    `    monitors: [${covered}]`,
    "webhooks:",
    "  incidents:",
    "    url: https://hooks.example.com/incidents",
    "    events: [monitor.down, monitor.up]",
    "    scope: { tags: [prod] }",
    "  opened:",
    "    url: https://hooks.example.com/opened",
    "    events: [incident.opened]",
    "    scope: { all: true }",
  );
  return `${lines.join("\n")}\n`;
}

function scenario(k: number, monitors: number): string {
  const a = (k * 7 + 50) % monitors;
  const b = (a + 1) % monitors;
  const t = a % teams;
  const u = b % teams;
  return [
    `  - name: outage ${k} of m${a} and m${b}`,
    "    steps:",
    `      - { at: 0m, down: [m${a}, m${b}] }`,
    `      - { at: 12m, up: [m${a}] }`,
    `      - { at: 25m, up: [m${b}] }`,
    "    expect:",
    `      - { at: 0m, contact: pager-${t}, alert: down, monitor: m${a}, within: 0 }`,
    `      - { at: 5m, contact: phone-${t}, alert: down, monitor: m${a} }`,
    `      - { at: 10m, contact: email-${u}, alert: down, monitor: m${b} }`,
    `      - { at: 12m, contact: pager-${t}, alert: up, monitor: m${a} }`,
    `      - { at: 0m, webhook: opened, event: incident.opened, monitor: m${b} }`,
    "    never:",
    `      - { contact: pager-${t}, alert: repeatedlyDown }`,
    "",
  ].join("\n");
}

export function writeTestRepository(
  dir: string,
  options: { monitors: number; scenarios: number; files: number },
): void {
  writeFileSync(join(dir, "monitoring.yaml"), configuration(options.monitors));
  mkdirSync(join(dir, "tests"));
  const perFile = Math.ceil(options.scenarios / options.files);
  for (let f = 0; f < options.files; f++) {
    const ks = Array.from({ length: perFile }, (_, i) => f * perFile + i).filter(
      (k) => k < options.scenarios,
    );
    if (ks.length === 0) continue;
    const body = ks.map((k) => scenario(k, options.monitors)).join("");
    writeFileSync(
      join(dir, "tests", `outages-${f}.test.yaml`),
      `start: 2026-03-03T14:00:00Z\nscenarios:\n${body}`,
    );
  }
}
