import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { request } from "undici";
import { afterAll, beforeAll, expect, it } from "vitest";
import { project, shown } from "../cli/e2e/helpers.ts";
import { freshSchema, postgresForTests } from "../helpers/postgres.ts";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";
import {
  freePort,
  healthz as healthzOf,
  runWatch,
  sample,
  scrape,
  stop,
  type WatchProcess,
} from "./helpers.ts";

/**
 * Replicas of the real `vigil watch` on one PostgreSQL workspace: one reports, the other stands by; killed
 * with SIGKILL, the active one is replaced within the lease, and no transition is reported twice.
 */
const server = await postgresForTests();
let sb: TestSandbox;
const running: WatchProcess[] = [];
const closing: (() => Promise<void>)[] = [];
const secret = `whsec_${randomBytes(24).toString("base64")}`;
const leaseSeconds = 5;

beforeAll(async () => {
  sb = await startTestSandbox({ allowInsecureWebhooks: true });
});
afterAll(async () => {
  await Promise.all(running.map((w) => stop(w, "SIGKILL")));
  for (const close of closing) await close();
  await sb?.close();
  await server?.stop();
});

/**
 * What stands in front of the replicas (a load balancer): each delivery goes to the replicas in turn until
 * one accepts it (a standby answers 503), tried again for up to 8 s, inside the API's 10.
 */
async function balancer(targets: string[]): Promise<string> {
  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const body = Buffer.concat(chunks);
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([k]) => !["host", "content-length", "connection"].includes(k)),
      ) as Record<string, string>;
      const until = Date.now() + 8000;
      while (Date.now() < until) {
        for (const target of targets) {
          try {
            const answer = await request(`${target}/events`, { method: "POST", headers, body });
            const text = await answer.body.text();
            if (answer.statusCode < 300) return res.writeHead(answer.statusCode).end(text);
          } catch {
            // Not listening (killed): the next one.
          }
        }
        await new Promise((r) => setTimeout(r, 200));
      }
      res.writeHead(503).end();
    });
  });
  await new Promise<void>((done) => http.listen(0, "127.0.0.1", done));
  closing.push(() => new Promise((done) => http.close(() => done())));
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
}

const config = (events: string) => `
monitors:
  web:
    type: http
    url: https://web.example.com/health
    name: Web
    interval: 60
    locations: { pools: [allworld] }
  api:
    type: http
    url: https://api.example.com/health
    name: API
    interval: 60
    locations: { pools: [allworld] }
webhooks:
  watcher:
    url: ${events}/events
    events: [monitor.updated, monitor.deleted]
    scope: { all: true }
    secret: "\${env:WATCH_SECRET}"
`;

/** `GET /healthz`, or undefined while the replica does not listen (not yet, or killed). */
const healthz = (url: string) => healthzOf(url).catch(() => undefined);

it.skipIf(!server)(
  "two replicas: kill -9 the active one, the other reports the next change within the lease plus 5 s, and nothing twice",
  { timeout: 120_000 },
  async () => {
    const ports = [await freePort(), await freePort()];
    const urls = ports.map((port) => `http://127.0.0.1:${port}`);
    const p = await project(
      sb,
      { "monitoring.yaml": config(await balancer(urls)) },
      { WATCH_SECRET: secret },
    );
    const state = server!.url(freshSchema());
    const apply = await p.run(["apply", "--state", state, "--auto-approve"]);
    expect(apply.code, shown(apply)).toBe(0);
    const ids = Object.fromEntries(
      (await p.account.get("/monitor")).body.data.map((m: { name: string; id: string }) => [m.name, m.id]),
    ) as Record<string, string>;
    const start = (port: number) => {
      const w = runWatch(
        [
          "--state",
          state,
          "--listen",
          `127.0.0.1:${port}`,
          "--webhook-secret-env",
          "WATCH_SECRET",
          "--lease",
          `${leaseSeconds}s`,
        ],
        p.dir,
        { VIGIL_ENDPOINT: sb.url, VIGIL_TOKEN: p.account.token, WATCH_SECRET: secret },
      );
      running.push(w);
      return w;
    };
    const statusOf = async (url: string, status: string, w: WatchProcess) => {
      await expect
        .poll(async () => (await healthz(url))?.body.status, { timeout: 30_000, interval: 100 })
        .toBe(status)
        .catch((e: Error) => {
          throw new Error(`${e.message}; stderr: ${w.stderr()}`);
        });
    };

    const a = start(ports[0]!);
    await statusOf(urls[0]!, "ok", a);
    const b = start(ports[1]!);
    await statusOf(urls[1]!, "standby", b);
    expect((await healthz(urls[0]!))?.body.role).toBe("active");
    expect((await healthz(urls[1]!))?.status).toBe(200);
    expect(sample(await scrape(urls[1]!), "vigil_watch_role", { role: "standby" })).toBe(1);
    expect(sample(await scrape(urls[0]!), "vigil_watch_role", { role: "active" })).toBe(1);

    await p.account.patch(`/monitor/${ids.Web}`, { name: "Renamed by hand" });
    await a.waitFor((t) => t.address === "monitors.web" && t.transition === "drifted");

    expect((await stop(a, "SIGKILL")).signal).toBe("SIGKILL");
    const killedAt = Date.now();
    await p.account.patch(`/monitor/${ids.API}`, { interval: 120 });
    const { at } = await b.waitFor(
      (t) => t.address === "monitors.api" && t.transition === "drifted",
      (leaseSeconds + 5) * 1000,
    );
    const failoverMs = at - killedAt;
    process.stderr.write(`failover: the standby reported the next change ${failoverMs} ms after kill -9\n`);
    expect(failoverMs).toBeLessThan((leaseSeconds + 5) * 1000);
    expect(b.stderr()).toMatch(/Active: this replica holds the watch lease \(term 2, 5 s/);
    expect((await healthz(urls[1]!))?.body).toMatchObject({ status: "ok", role: "active" });
    expect(sample(await scrape(urls[1]!), "vigil_watch_role", { role: "active" })).toBe(1);

    // Putting the name back clears the drift the killed replica reported: the successor holds its record.
    await p.account.patch(`/monitor/${ids.Web}`, { name: "Web" });
    await b.waitFor((t) => t.address === "monitors.web" && t.transition === "cleared");

    const said = [...a.lines(), ...b.lines()].map(({ time: _, seenBy: __, ...t }) => JSON.stringify(t));
    expect(said).toHaveLength(3);
    expect(new Set(said).size).toBe(said.length);
    expect(b.lines().filter((t) => t.address === "monitors.web" && t.transition === "drifted")).toEqual([]);
  },
);

it("a second watcher of one state file is refused while the first runs, and starts once it is gone", {
  timeout: 60_000,
}, async () => {
  const p = await project(sb, { "monitoring.yaml": config("http://127.0.0.1:9") }, { WATCH_SECRET: secret });
  expect((await p.run(["apply", "--auto-approve"])).code).toBe(0);
  const env = { VIGIL_ENDPOINT: sb.url, VIGIL_TOKEN: p.account.token, WATCH_SECRET: secret };
  const port = await freePort();
  const first = runWatch(["--listen", `127.0.0.1:${port}`], p.dir, env);
  running.push(first);
  await expect
    .poll(async () => (await healthz(`http://127.0.0.1:${port}`))?.status, { timeout: 30_000 })
    .toBe(200);

  const second = runWatch([], p.dir, env);
  running.push(second);
  expect((await second.exited).code).toBe(1);
  expect(second.stderr()).toContain(`Another vigil watch watches`);
  expect(second.stderr()).toContain(`pid ${first.child.pid}`);
  expect(second.stderr()).toContain("Run replicas on a PostgreSQL state");
  expect(second.stderr()).not.toMatch(/\n\s+at /);

  await stop(first, "SIGKILL");
  const third = runWatch([], p.dir, env);
  running.push(third);
  await third.waitForStderr("Ready (GET /healthz answers 200)", 30_000);
});
