/**
 * What the kinds' rules know offline is refused before any write: a webhook `url` over http used to pass
 * `plan` and fail in the middle of `apply`, after the monitors were created (a partial apply). The URL and
 * scheme rules are declared on the kinds, and `validate`, `plan` and `apply` refuse with them, at the
 * member's file:line:column, with the API's code, before any call.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { sandboxWorkspace, shown } from "./helpers.ts";

const config = (webhookUrl: string, monitorUrl = "https://web.example.com/health") => `monitors:
  web:
    type: http
    url: ${monitorUrl}
    name: Web
    interval: 60
    locations: { pools: [westeurope] }
webhooks:
  hook:
    name: Hook
    url: ${webhookUrl}
    events: [monitor.down]
    scope: { monitors: [web] }
`;

it.concurrent("a webhook over http is refused by validate, plan and apply, before any write", async () => {
  const w = await sandboxWorkspace({ "main.yaml": config("http://hooks.example.com/in") });
  const line = "Error: main.yaml:11:10: webhooks.hook url: 422 invalid_url: Webhook URLs must use https.";
  for (const args of [["validate"], ["plan", "--sandbox"], ["apply", "--sandbox", "--auto-approve"]]) {
    const run = await w.run(args);
    expect(run.code, `${args.join(" ")}\n${shown(run)}`).toBe(1);
    expect(run.stderr).toContain(`${line}\n`);
    expect(run.stdout).toBe("");
  }
  // Nothing was applied: no state, no monitor created before the refusal.
  expect(existsSync(join(w.dir, ".vigil/sandbox-state.json"))).toBe(false);
}, 120_000);

it.concurrent("every URL rule offline: private and metadata destinations, a monitor's url by its type", async () => {
  const w = await sandboxWorkspace({
    "main.yaml": config("https://169.254.169.254/latest", "ftp://web.example.com/"),
    "more.yaml": `monitors:
  mail:
    type: port
    url: mail.example.com
    name: Mail
    interval: 60
    locations: { pools: [westeurope] }
webhooks:
  internal:
    url: https://hooks.corp/in
    events: [monitor.down]
    scope: { all: true }
`,
  });
  const run = await w.run(["validate"]);
  expect(run.code, shown(run)).toBe(1);
  expect(run.stderr.trimEnd().split("\n")).toEqual([
    "Error: main.yaml:4:10: monitors.web url: 422 invalid_url: url must be an absolute http(s) URL or a bare domain",
    "Error: main.yaml:11:10: webhooks.hook url: 422 invalid_url: 169.254.169.254 is a cloud metadata address.",
    "Error: more.yaml:4:10: monitors.mail url: 422 invalid_url: url must be host:port with a port from 1 to 65535",
    "Error: more.yaml:10:10: webhooks.internal url: 422 invalid_url: hooks.corp is a private-use name (.corp), not a public host.",
    "Error: 4 problems in the configuration; nothing was sent to the API.",
  ]);
}, 60_000);

it.concurrent("http to a loopback receiver is left to the service (a sandbox may allow it)", async () => {
  const w = await sandboxWorkspace({ "main.yaml": config("http://127.0.0.1:8080/events") });
  const run = await w.run(["validate"]);
  expect(run.code, shown(run)).toBe(0);
}, 60_000);
