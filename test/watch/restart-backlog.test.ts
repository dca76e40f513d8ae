import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { project } from "../cli/e2e/helpers.ts";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";
import { freePort, runWatch, stop, type WatchProcess, waitHealthy } from "./helpers.ts";
import { deliver } from "./inprocess.ts";

/**
 * Events the watcher acknowledged and had not judged when it was killed: the real CLI, killed with
 * SIGKILL while the read an event needs is held up by the sandbox, then started again.
 */
let sb: TestSandbox;
const running: WatchProcess[] = [];
const secret = `whsec_${randomBytes(24).toString("base64")}`;

beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(async () => {
  await Promise.all(running.map((w) => stop(w)));
  await sb?.admin.delete("/_sandbox/faults");
  await sb?.close();
});

it("a restart after events were acknowledged but not judged lists everything, and reports what they said", {
  timeout: 90_000,
}, async () => {
  const p = await project(sb, {
    "monitoring.yaml": `
monitors:
  web:
    type: http
    url: https://web.example.com/health
    name: Web
    interval: 60
    locations: { pools: [allworld] }
`,
  });
  expect((await p.run(["apply", "--auto-approve"])).code).toBe(0);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const start = async () => {
    const w = runWatch(["--listen", `127.0.0.1:${port}`, "--webhook-secret-env", "WATCH_SECRET"], p.dir, {
      VIGIL_ENDPOINT: sb.url,
      VIGIL_TOKEN: p.account.token,
      WATCH_SECRET: secret,
    });
    running.push(w);
    await waitHealthy(url);
    return w;
  };
  const first = await start();
  const id = await p.idOf("monitors.web");

  // Renamed outside vigil; the event names the monitor without carrying it, and reading it is slow.
  expect((await p.account.patch(`/monitor/${id}`, { name: "Renamed by hand" })).status).toBe(200);
  const slow = { rate: 0, latencyMs: 30_000, routes: ["GET /monitor/{id}", "GET /monitor"] };
  expect((await sb.admin.post("/_sandbox/faults", slow)).status).toBe(200);
  expect(await deliver(url, secret, "monitor.updated", { id })).toBe(202);
  expect((await stop(first, "SIGKILL")).signal).toBe("SIGKILL");
  expect(first.lines()).toEqual([]);
  expect((await sb.admin.delete("/_sandbox/faults")).status).toBe(200);

  // Started again within --full-every: a watcher that only resumed would never see the rename.
  const second = await start();
  const { t } = await second.waitFor((t) => t.address === "monitors.web");
  expect(t).toMatchObject({
    transition: "drifted",
    seenBy: "poll",
    members: [{ member: "name", before: "Web", after: "Renamed by hand" }],
  });
  expect(second.stderr()).toContain("stopped before judging them all: a full refresh covers them");
  expect(second.stderr()).not.toContain("Resumed");
});
