import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type DesiredResource, FileStateStore } from "../../src/engine/index.ts";
import { project } from "../cli/e2e/helpers.ts";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";
import { deltaRefreshes, freePort, runWatch, stop, type WatchProcess, waitHealthy } from "./helpers.ts";
import { applyTo, type InProcess, ManualClock, monitor, watchInProcess } from "./inprocess.ts";

/**
 * A `vigil apply` of a newer configuration while a watcher runs with the older one: the GitOps flow.
 * The watcher judges against the newest state, and never heals with a configuration the state was not
 * applied with (it would bring back what the apply deleted).
 */
let sb: TestSandbox;
const processes: WatchProcess[] = [];
const inProcess: InProcess[] = [];
const dirs: string[] = [];
const secret = `whsec_${randomBytes(24).toString("base64")}`;

beforeAll(async () => {
  sb = await startTestSandbox({ allowInsecureWebhooks: true });
});
afterAll(async () => {
  await Promise.all(processes.map((w) => stop(w)));
  await Promise.all(inProcess.map((w) => w.close()));
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  await sb?.close();
});

const monitorYaml = (name: string) => `
  ${name}:
    type: http
    url: https://${name}.example.com/health
    name: ${name}
    interval: 60
    enabled: true
    locations: { pools: [allworld] }`;

const config = (port: number, names: string[]) => `
monitors:${names.map(monitorYaml).join("")}
webhooks:
  watcher:
    url: http://127.0.0.1:${port}/events
    events: [monitor.created, monitor.updated, monitor.deleted]
    scope: { all: true }
    secret: "\${env:WATCH_SECRET}"
`;

it("an apply that deletes a resource is no drift, and --heal does not bring it back", {
  timeout: 120_000,
}, async () => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // The watcher's checkout (`watched/`) and the release an apply ships (`release/`), one state.
  const p = await project(
    sb,
    {
      "watched/monitoring.yaml": config(port, ["web", "api"]),
      "release/monitoring.yaml": config(port, ["web"]),
    },
    { WATCH_SECRET: secret },
  );
  expect((await p.run(["apply", "watched", "--auto-approve"])).code).toBe(0);
  const api = await p.idOf("monitors.api");
  const web = await p.idOf("monitors.web");
  const w = runWatch(
    [
      "watched",
      "--listen",
      `127.0.0.1:${port}`,
      "--webhook-secret-env",
      "WATCH_SECRET",
      "--heal",
      "--every",
      "2s",
    ],
    p.dir,
    { VIGIL_ENDPOINT: sb.url, VIGIL_TOKEN: p.account.token, WATCH_SECRET: secret },
  );
  processes.push(w);
  await waitHealthy(url);
  expect(w.stderr()).not.toContain("old configuration");

  const applied = await p.run(["apply", "release", "--auto-approve"]);
  expect(applied.code).toBe(0);
  expect(applied.stdout).toContain("monitors.api");
  // The delete's event meets the newest state: the apply's, which no longer manages the monitor.
  await w.waitForStderr("vigil watch is running an old configuration");
  expect(w.stderr()).toContain("monitors.api is declared here but not managed by the state");
  // Two delta syncs later (each judged and healed once the next starts), nothing has brought it back.
  await deltaRefreshes(url, 3);
  expect((await p.account.get(`/monitor/${api}`)).status).toBe(404);
  expect(w.lines().filter((t) => t.address === "monitors.api")).toEqual([]);
  expect(w.stderr()).not.toContain("Heal monitors.api");

  // The checkout catches up: the watcher reads it again after a refresh, and heals with it.
  await p.write("watched/monitoring.yaml", config(port, ["web"]));
  await w.waitForStderr("Configuration read again");
  await w.waitForStderr("heal resumes");
  expect((await p.account.patch(`/monitor/${web}`, { enabled: false })).status).toBe(200);
  await w.waitForStderr("Heal monitors.web: done.");
  expect((await p.account.get(`/monitor/${web}`)).body.enabled).toBe(true);
  expect((await p.account.get(`/monitor/${api}`)).status).toBe(404);
});

it("a heal waiting for an apply's lock checks, under it, that the state was applied with its configuration", {
  timeout: 60_000,
}, async () => {
  const account = await sb.account();
  const dir = await mkdtemp(join(tmpdir(), "vigil-watch-heal-"));
  dirs.push(dir);
  const path = join(dir, "state.json");
  const watcherStore = new FileStateStore(path, { lockTimeoutMs: 30_000 });
  const older = [monitor("web"), monitor("api")];
  const newer = [monitor("web")];
  await applyTo(sb, account.token, watcherStore, older);
  // What the watcher reads again when it finds the state was applied with another configuration.
  let onDisk: DesiredResource[] = older;
  const time = new ManualClock();
  const w = await watchInProcess(sb, account.token, {
    desired: older,
    reloadConfig: async () => onDisk,
    store: watcherStore,
    heal: { deletes: false },
    time,
  });
  inProcess.push(w);
  await expect.poll(() => w.watch.watcher.ready, { timeout: 20_000 }).toBe(true);
  const api = (await watcherStore.read())!.resources["monitors.api"]!.id!;

  // An apply of the newer configuration takes the lock...
  const applyRun = new FileStateStore(path, { lockTimeoutMs: 0 });
  const lock = await applyRun.lock();
  // ...meanwhile api drifts, and the watcher, seeing it, waits for the lock to heal it...
  expect((await account.patch(`/monitor/${api}`, { interval: 120 })).status).toBe(200);
  const row = (await account.get(`/monitor/${api}`)).body;
  expect(await w.deliver("monitor.updated", row, row.updated)).toBe(202);
  await expect
    .poll(() => w.transitions.map((t) => [t.address, t.transition]))
    .toEqual([["monitors.api", "drifted"]]);
  // ...while the apply deletes it and saves the state without it.
  expect((await account.delete(`/monitor/${api}`)).status).toBe(200);
  const state = (await lock.read())!;
  delete state.resources["monitors.api"];
  state.serial++;
  await lock.write(state);
  await lock.release();

  await expect.poll(() => w.logs.join("\n"), { timeout: 20_000 }).toContain("Heal stopped");
  expect(w.logs.join("\n")).toContain("vigil watch is running an old configuration");
  expect(w.logs.join("\n")).not.toContain("Heal monitors.api: create");
  expect((await account.get(`/monitor/${api}`)).status).toBe(404);
  const urls = ((await account.get("/monitor?limit=500")).body.data as { url: string }[]).map((m) => m.url);
  expect(urls).toEqual(["https://web.example.com/health"]);
  // The drift of an address the state no longer manages clears.
  await expect
    .poll(() => w.transitions.map((t) => [t.address, t.transition]))
    .toEqual([
      ["monitors.api", "drifted"],
      ["monitors.api", "cleared"],
    ]);

  // The configuration on disk is updated: read again after the next refresh, it is the state's.
  onDisk = newer;
  await time.advance(5 * 60_000);
  await expect.poll(() => w.logs.join("\n"), { timeout: 20_000 }).toContain("heal resumes");
});
