import { randomBytes } from "node:crypto";
import { request } from "undici";
import { afterAll, beforeAll, expect, it } from "vitest";
import { signatureHeaders } from "../../src/sandbox/resources/webhooks/signing.ts";
import { type Project, project } from "../cli/e2e/helpers.ts";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";
import {
  freePort,
  receiver,
  runWatch,
  sample,
  scrape,
  stop,
  type WatchProcess,
  waitHealthy,
} from "./helpers.ts";

/**
 * `vigil watch` as a user runs it: the real CLI, the sandbox delivering its
 * signed webhooks to the watcher's loopback listener, out-of-band edits made
 * with the account's own token.
 */
let sb: TestSandbox;
let p: Project;
let watch: WatchProcess;
let url: string;
let notify: Awaited<ReturnType<typeof receiver>>;
const secret = `whsec_${randomBytes(24).toString("base64")}`;

const config = (port: number) => `
monitors:
  web:
    type: http
    url: https://web.example.com/health
    name: Web
    interval: 60
    locations: { pools: [allworld] }
    settings: { timeout: 10000 }
webhooks:
  watcher:
    name: vigil watch
    url: http://127.0.0.1:${port}/events
    events: [monitor.created, monitor.updated, monitor.deleted, contact.updated]
    scope: { all: true }
    secret: "\${env:WATCH_SECRET}"
`;

beforeAll(async () => {
  sb = await startTestSandbox({ allowInsecureWebhooks: true });
  const port = await freePort();
  p = await project(sb, { "monitoring.yaml": config(port) }, { WATCH_SECRET: secret });
  const applied = await p.run(["apply", "--auto-approve"]);
  expect(applied.stderr).toBe("");
  notify = await receiver();
  url = `http://127.0.0.1:${port}`;
  watch = runWatch(
    ["--listen", `127.0.0.1:${port}`, "--webhook-secret-env", "WATCH_SECRET", "--notify", notify.url],
    p.dir,
    { VIGIL_ENDPOINT: sb.url, VIGIL_TOKEN: p.account.token, WATCH_SECRET: secret },
  );
  await waitHealthy(url);
}, 60_000);

afterAll(async () => {
  if (watch) await stop(watch);
  await notify?.close();
  await sb?.close();
});

it("reports an out-of-band PATCH within 5 s, on stdout, to --notify and in /metrics", async () => {
  const id = await p.idOf("monitors.web");
  const sent = Date.now();
  const patched = await p.account.patch(`/monitor/${id}`, { settings: { timeout: 20000 } });
  expect(patched.status).toBe(200);
  const { t, at } = await watch.waitFor((t) => t.address === "monitors.web" && t.transition === "drifted");
  expect(at - sent).toBeLessThan(5000);
  expect(t).toMatchObject({
    kind: "monitor",
    id,
    seenBy: "event",
    members: [{ member: "settings.timeout", before: 10000, after: 20000 }],
  });

  await expect.poll(() => notify.bodies.length, { timeout: 5000 }).toBeGreaterThan(0);
  expect(JSON.parse(notify.bodies[0]!)).toEqual(t);

  const metrics = await scrape(url);
  expect(sample(metrics, "vigil_watch_drifted_resources", { kind: "monitor" })).toBe(1);
  expect(
    sample(metrics, "vigil_watch_events_verified_total", { event: "monitor.updated" }),
  ).toBeGreaterThanOrEqual(1);
  expect(sample(metrics, "vigil_watch_transitions_total", { transition: "drifted" })).toBe(1);
  expect(sample(metrics, "vigil_watch_last_full_refresh_timestamp_seconds")).toBeGreaterThan(0);
  expect(sample(metrics, "vigil_watch_api_reads_total")).toBeGreaterThan(0);
  expect(metrics.get("vigil_watch_api_reads_total")?.type).toBe("COUNTER");
});

/** A delivery as the API would send it, signed with `key` at `timestamp`. */
function delivery(data: Record<string, unknown>, key: string, timestamp = Math.floor(Date.now() / 1000)) {
  const id = `d_${randomBytes(16).toString("hex")}`;
  const body = JSON.stringify({
    id,
    event: "monitor.updated",
    occurredAt: timestamp,
    apiVersion: "v2",
    data,
  });
  const headers = {
    "content-type": "application/json",
    "SVC-Event": "monitor.updated",
    "SVC-Delivery": id,
    "SVC-Attempt": "1",
    ...signatureHeaders(id, body, [key], timestamp),
  };
  return { body, headers };
}

const post = async (d: { body: string; headers: Record<string, string> }) => {
  const res = await request(`${url}/events`, { method: "POST", headers: d.headers, body: d.body });
  await res.body.dump();
  return res.statusCode;
};

it("refuses a bad signature, an old timestamp and a replayed id, counts them, and acts on none", async () => {
  const id = await p.idOf("monitors.web");
  const live = (await p.account.get(`/monitor/${id}`)).body;
  const forged = { ...live, settings: { ...live.settings, timeout: 30000 } };
  const before = watch.lines().length;

  expect(await post(delivery(forged, `whsec_${randomBytes(24).toString("base64")}`))).toBe(401);
  expect(await post(delivery(forged, secret, Math.floor(Date.now() / 1000) - 600))).toBe(401);
  const unsigned = delivery(forged, secret);
  expect(
    await post({
      body: unsigned.body,
      headers: { "content-type": "application/json", "SVC-Event": "monitor.updated" },
    }),
  ).toBe(401);

  // A delivery signed with the webhook's secret is acted on once...
  const genuine = delivery(forged, secret);
  expect(await post(genuine)).toBe(202);
  await watch.waitFor((t) => t.transition === "drifted" && t.members?.[0]?.after === 30000);
  // ...the live object goes back to the config, which the API's own event reports...
  await p.account.patch(`/monitor/${id}`, { settings: { timeout: 10000 } });
  await watch.waitFor((t) => t.transition === "cleared" && t.address === "monitors.web");
  // ...and the same delivery sent again is a replay: answered, but it triggers nothing. Only a verified
  // delivery reaches the watcher, so with the sandbox's own deliveries all out, an unchanged verified count
  // once the answer is in shows nothing was handed on: no wait needed.
  await sb.settle();
  const verified = async () =>
    sample(await scrape(url), "vigil_watch_events_verified_total", { event: "monitor.updated" });
  const verifiedBefore = await verified();
  expect(await post(genuine)).toBe(200);
  expect(await verified()).toBe(verifiedBefore);
  const after = watch.lines().slice(before);
  expect(after.map((t) => t.transition)).toEqual(["drifted", "cleared"]);

  const metrics = await scrape(url);
  expect(sample(metrics, "vigil_watch_events_refused_total", { reason: "bad_signature" })).toBe(1);
  expect(sample(metrics, "vigil_watch_events_refused_total", { reason: "stale" })).toBe(1);
  expect(sample(metrics, "vigil_watch_events_refused_total", { reason: "unsigned" })).toBe(1);
  expect(sample(metrics, "vigil_watch_events_refused_total", { reason: "replayed" })).toBe(1);
  expect(sample(metrics, "vigil_watch_drifted_resources", { kind: "monitor" })).toBe(0);
});

it("stops within 5 s of SIGTERM", async () => {
  const sent = Date.now();
  const exit = await stop(watch, "SIGTERM");
  expect(Date.now() - sent).toBeLessThan(5000);
  expect(exit.code).toBe(0);
});
