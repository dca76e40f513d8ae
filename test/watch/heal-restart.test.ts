import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { project } from "../cli/e2e/helpers.ts";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";
import { freePort, runWatch, sample, scrape, stop, type WatchProcess, waitHealthy } from "./helpers.ts";

/** `--heal`, and a watcher killed with SIGKILL and started again: the real CLI, events from the sandbox. */
let sb: TestSandbox;
const running: WatchProcess[] = [];
const secret = `whsec_${randomBytes(24).toString("base64")}`;

const config = (port: number) => `
monitors:
  web:
    type: http
    url: https://web.example.com/health
    name: Web
    interval: 60
    # Named, so a pause made outside vigil is drift (members the config leaves out are not managed).
    enabled: true
    locations: { pools: [allworld] }
  api:
    type: http
    url: https://api.example.com/health
    name: API
    interval: 60
    locations: { pools: [allworld] }
webhooks:
  watcher:
    url: http://127.0.0.1:${port}/events
    events: [monitor.updated, monitor.deleted]
    scope: { all: true }
    secret: "\${env:WATCH_SECRET}"
`;

async function watched(args: string[] = []) {
  const port = await freePort();
  const p = await project(sb, { "monitoring.yaml": config(port) }, { WATCH_SECRET: secret });
  expect((await p.run(["apply", "--auto-approve"])).code).toBe(0);
  const url = `http://127.0.0.1:${port}`;
  const env = { VIGIL_ENDPOINT: sb.url, VIGIL_TOKEN: p.account.token, WATCH_SECRET: secret };
  const start = async () => {
    const w = runWatch(
      ["--listen", `127.0.0.1:${port}`, "--webhook-secret-env", "WATCH_SECRET", ...args],
      p.dir,
      env,
    );
    running.push(w);
    await waitHealthy(url);
    return w;
  };
  return { p, url, start };
}

beforeAll(async () => {
  sb = await startTestSandbox({ allowInsecureWebhooks: true });
});

afterAll(async () => {
  await Promise.all(running.map((w) => stop(w)));
  await sb?.close();
});

it("--heal restores a drifted monitor, and leaves one that keeps drifting alone as fighting", {
  timeout: 60_000,
}, async () => {
  const { p, url, start } = await watched(["--heal"]);
  const w = await start();
  const id = await p.idOf("monitors.web");

  await p.account.patch(`/monitor/${id}`, { enabled: false });
  await w.waitFor((t) => t.transition === "drifted" && t.members?.[0]?.member === "enabled");
  await w.waitFor((t) => t.transition === "cleared" && t.address === "monitors.web");
  expect((await p.account.get(`/monitor/${id}`)).body.enabled).toBe(true);
  expect(w.stderr()).toContain("Heal monitors.web: update enabled");
  expect(w.stderr()).toContain("Heal monitors.web: done.");

  // Something else pauses it again at once: vigil stops fighting it and says so.
  await p.account.patch(`/monitor/${id}`, { enabled: false });
  const { t } = await w.waitFor((t) => t.transition === "fighting");
  expect(t).toMatchObject({
    address: "monitors.web",
    members: [{ member: "enabled", before: true, after: false }],
  });
  await w.waitForStderr("something is fighting vigil");
  // No event is left to reach the watcher, and a fighting monitor never falls due for a heal: nothing
  // more can happen to it, so there is nothing to wait for.
  await sb.settle();
  expect((await p.account.get(`/monitor/${id}`)).body.enabled).toBe(false);

  const metrics = await scrape(url);
  expect(sample(metrics, "vigil_watch_heal_attempts_total", { kind: "monitor" })).toBe(1);
  expect(sample(metrics, "vigil_watch_heal_outcomes_total", { outcome: "healed" })).toBe(1);
  expect(sample(metrics, "vigil_watch_fighting_resources", { kind: "monitor" })).toBe(1);
});

it("after kill -9 and a restart, drift already reported is not reported again; new drift is", {
  timeout: 60_000,
}, async () => {
  const { p, start } = await watched();
  const first = await start();
  const web = await p.idOf("monitors.web");
  const api = await p.idOf("monitors.api");

  await p.account.patch(`/monitor/${web}`, { name: "Renamed by hand" });
  await first.waitFor((t) => t.address === "monitors.web" && t.transition === "drifted");
  expect((await stop(first, "SIGKILL")).signal).toBe("SIGKILL");

  const second = await start();
  await second.waitForStderr("Resumed");
  await p.account.patch(`/monitor/${api}`, { interval: 120 });
  await second.waitFor((t) => t.address === "monitors.api" && t.transition === "drifted");
  expect(second.lines().filter((t) => t.address === "monitors.web")).toEqual([]);

  // Putting the name back clears the drift the first watcher reported.
  await p.account.patch(`/monitor/${web}`, { name: "Web" });
  await second.waitFor((t) => t.address === "monitors.web" && t.transition === "cleared");
});
