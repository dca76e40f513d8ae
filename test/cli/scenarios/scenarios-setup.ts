import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { configNames, readSuites } from "../../../src/cli/scenarios/read.ts";
import { formatDiagnostic, loadConfig } from "../../../src/gitops/load.ts";

/**
 * What the `vigil test` suites share: a small configuration whose every alert rule is visible (a pager with
 * no delay, a phone after 5 minutes, an email after 10, a contact that may be left unconfirmed, a weekly
 * deploy window, a paused monitor, a webhook), and a temporary repository to put it and a test file in.
 */
export const configuration = `contacts:
  pager: { type: http, name: Pager, address: https://hooks.example.com/pager }
  phone: { type: sms, name: Phone, address: "+15555550100", alertDelay: 5 }
  team: { type: email, name: Team, address: team@example.com, alertDelay: 10 }
  boss: { type: email, name: Boss, address: boss@example.com }
monitors:
  api:
    type: http
    url: https://api.example.com/health
    interval: 60
    locations: { pools: [westeurope] }
    alerts:
      - { contact: pager, alertTypes: [down, up, repeatedlyDown] }
      - { contact: phone, alertTypes: [down, up] }
      - { contact: team, alertTypes: [down] }
  web:
    type: http
    url: https://www.example.com/
    interval: 120
    locations: { pools: [westeurope] }
    alerts:
      - { contact: boss, alertTypes: [down, up] }
  batch:
    type: http
    url: https://batch.example.com/
    interval: 300
    enabled: false
    locations: { pools: [westeurope] }
    alerts:
      - { contact: pager, alertTypes: [down] }
maintenance:
  deploy:
    name: Weekly deploy
    # Sunday 02:00 to 03:00 UTC, every week.
    from: 2026-01-04T02:00:00Z
    to: 2026-01-04T03:00:00Z
    repeat: weekly
    monitors: [web]
webhooks:
  bot:
    url: https://hooks.example.com/bot
    events: [monitor.down, monitor.up, incident.opened]
    scope: { all: true }
`;

const dirs: string[] = [];

/** A fresh directory holding `files` (relative path → text). */
export async function repo(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "vigil-test-"));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  return dir;
}

export async function removeRepos(): Promise<void> {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
}

/** The configuration and one test file read: the suites, and every problem as `line:column: path: message`. */
export async function readTest(test: string, config = configuration) {
  const dir = await repo({ "config.yaml": config, "alerts.test.yaml": test });
  const loaded = await loadConfig([dir], { env: {} });
  if (loaded.diagnostics.length > 0) throw new Error(loaded.diagnostics.map(formatDiagnostic).join("\n"));
  const read = await readSuites([join(dir, "alerts.test.yaml")], configNames(loaded.resources));
  const problems = read.problems.map((p) => formatDiagnostic(p).replace(/^.*alerts\.test\.yaml:/, ""));
  return { dir, config: loaded, suites: read.suites, problems };
}
