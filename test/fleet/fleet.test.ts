/**
 * The fleet end to end (issue 30): real PostgreSQL, a sandbox with an account per fleet account, real
 * `vigil worker` processes each behind a proxy that logs its requests, and `vigil fleet` runs.
 */
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PostgresServer, postgresForTests } from "../helpers/postgres.ts";
import { type Client, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";
import { freePort } from "../watch/helpers.ts";
import {
  type LoggedRequest,
  loggingProxy,
  monitorsYaml,
  overlappingWrites,
  runFleetCli,
  signedDelivery,
  startWorkerProcess,
  until,
  type WorkerProcess,
  writeFleet,
} from "./helpers.ts";

const pg = await postgresForTests();
const accountCount = 20;
const monitorCount = 20;

describe.skipIf(!pg)("a fleet of 20 accounts on 3 workers", () => {
  let sandbox: TestSandbox;
  let stateUrl: string;
  const accounts: (Client & { accountId: string; name: string })[] = [];
  const tokens: Record<string, string> = {};
  const log: LoggedRequest[] = [];
  const proxies: { url: string; close(): Promise<void> }[] = [];
  const workers = new Map<string, WorkerProcess>();
  let good: Client & { name: string };
  let fleetFile: string;
  let fleetDir: string;
  let listenPort: number;

  const start = async (name: string, more: string[] = []) => {
    const proxy = await loggingProxy(sandbox.url, name, log);
    proxies.push(proxy);
    const worker = startWorkerProcess(["--state", stateUrl, "--concurrency", "4", "--lease", "5s", ...more], {
      VIGIL_ENDPOINT: proxy.url,
      ...tokens,
    });
    workers.set(name, worker);
    await until(() => worker.log().includes("Worker ready"), `${name} to start`, 30_000).catch((error) => {
      throw new Error(`${(error as Error).message}: ${worker.log()}`);
    });
    return worker;
  };
  const fleet = (args: string[]) => runFleetCli([...args, "--state", stateUrl], {});
  const names = async (client: Client) => {
    const res = await client.get("/monitor?limit=500");
    return (res.body.data as { name: string }[]).map((m) => m.name).sort();
  };

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    stateUrl = (pg as PostgresServer).url("fleet");
    for (let i = 0; i < accountCount; i++) {
      const name = `acct-${String(i).padStart(2, "0")}`;
      const client = await sandbox.account();
      accounts.push(Object.assign(client, { name }));
      tokens[`TOKEN_${name.replaceAll("-", "_")}`] = client.token;
    }
    good = Object.assign(await sandbox.account(), { name: "iso-good" });
    tokens.TOKEN_iso_good = good.token;
    tokens.HOOK_iso_good = "whsec_Zm9yIHRoZSBmbGVldCdzIHRlc3Q=";
    tokens.TOKEN_iso_invalid = (await sandbox.account()).token;
    tokens.TOKEN_iso_bad = "vk_live_notarealtoken000000000000";
    await Promise.all(["w1", "w2", "w3"].map((name) => start(name)));
  }, 120_000);

  afterAll(async () => {
    for (const w of workers.values()) w.child.kill("SIGKILL");
    await Promise.all([...workers.values()].map((w) => w.exited));
    await Promise.all(proxies.map((p) => p.close()));
    await sandbox?.close();
    await pg?.stop();
  });

  it("applies every account exactly: no duplicates, and every plan is empty afterwards", async () => {
    const { file, dir } = await writeFleet(accounts.map((a) => ({ name: a.name, monitors: monitorCount })));
    fleetFile = file;
    fleetDir = dir;
    const applied = await fleet(["apply", file]);
    expect(applied.stderr).toBe("");
    expect(applied.code).toBe(0);
    for (const a of accounts) expect(applied.stdout).toContain(`${a.name}: 20 created, 0 updated, 0 deleted`);
    expect(applied.stdout).toContain(
      "Fleet apply: 20 of 20 account(s) succeeded; 400 created, 0 updated, 0 deleted.",
    );
    for (const a of accounts) {
      const shown = await names(a);
      expect(shown).toHaveLength(monitorCount);
      expect(new Set(shown).size).toBe(monitorCount);
    }
    const planned = await fleet(["plan", file, "--json"]);
    expect(planned.code).toBe(0);
    const results = JSON.parse(planned.stdout).accounts as { account: string; changes: number }[];
    expect(results.map((r) => [r.account, r.changes])).toEqual(accounts.map((a) => [a.name, 0]));
    // The three workers shared the work, and no account was written by two at once.
    expect(new Set(log.filter((r) => r.method === "POST").map((r) => r.worker)).size).toBe(3);
    expect(overlappingWrites(log)).toEqual([]);
  }, 120_000);

  it("converges when a worker is killed mid-apply, and no account is written by two workers at once", async () => {
    // Ten more monitors per account: a run long enough to kill a worker in the middle of it.
    for (const a of accounts)
      await writeFile(join(fleetDir, "accounts", a.name, "more.yaml"), monitorsYaml(10, "n"));
    const before = log.length;
    const applying = fleet(["apply", fleetFile]);
    await until(
      () => log.slice(before).some((r) => r.worker === "w1" && r.method === "POST"),
      "w1 to start writing",
      60_000,
    );
    workers.get("w1")!.child.kill("SIGKILL");
    const applied = await applying;
    expect(applied.stderr).toBe("");
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain("Fleet apply: 20 of 20 account(s) succeeded");
    for (const a of accounts) {
      const shown = await names(a);
      expect(shown).toHaveLength(monitorCount + 10);
      expect(new Set(shown).size).toBe(monitorCount + 10);
    }
    expect(overlappingWrites(log)).toEqual([]);
    // w1 wrote before it died, and another worker finished its account.
    const killedAt = Math.max(...log.filter((r) => r.worker === "w1").map((r) => r.end));
    const taken = log.filter((r) => r.worker !== "w1" && r.start > killedAt && r.method === "POST");
    expect(taken.length).toBeGreaterThan(0);
    const planned = await fleet(["plan", fleetFile, "--json"]);
    expect(JSON.parse(planned.stdout).accounts.every((r: { changes: number }) => r.changes === 0)).toBe(true);
  }, 180_000);

  it("fences a frozen worker: once its lease ran out, it writes neither the state nor the account", async () => {
    for (const a of accounts)
      await writeFile(join(fleetDir, "accounts", a.name, "fence.yaml"), monitorsYaml(5, "f"));
    const before = log.length;
    const applying = fleet(["apply", fleetFile]);
    await until(
      () => log.slice(before).some((r) => r.worker === "w3" && r.method === "POST"),
      "w3 to start writing",
      60_000,
    );
    const w3 = workers.get("w3")!;
    w3.child.kill("SIGSTOP");
    const applied = await applying;
    expect(applied.code).toBe(0);
    // Thawed after another worker finished its accounts: its next save is refused, so no write follows.
    const thawedAt = Date.now();
    w3.child.kill("SIGCONT");
    await until(
      () => /lock on workspace \S+ is lost|could not be saved/.test(w3.log()),
      "w3 to find its lock lost",
      30_000,
    );
    await new Promise((done) => setTimeout(done, 1000));
    expect(log.filter((r) => r.worker === "w3" && r.start >= thawedAt && r.method !== "GET")).toEqual([]);
    expect(overlappingWrites(log)).toEqual([]);
    for (const a of accounts) expect(await names(a)).toHaveLength(monitorCount + 15);
  }, 180_000);

  it("keeps serving every account as a worker joins and another leaves", async () => {
    listenPort = await freePort();
    const port = listenPort;
    await start("w4", ["--listen", `127.0.0.1:${port}`]);
    const w2 = workers.get("w2")!;
    w2.child.kill("SIGTERM");
    await w2.exited;
    const stoppedAt = Date.now();
    for (const a of accounts) {
      await rm(join(fleetDir, "accounts", a.name, "more.yaml"));
      await rm(join(fleetDir, "accounts", a.name, "fence.yaml"));
    }
    const applied = await fleet(["apply", fleetFile]);
    expect(applied.code).toBe(0);
    for (const a of accounts) expect(applied.stdout).toContain(`${a.name}: 0 created, 0 updated, 15 deleted`);
    for (const a of accounts) expect(await names(a)).toHaveLength(monitorCount);
    // The new worker took accounts (deletes may go in bulk, as a POST).
    expect(log.some((r) => r.worker === "w4" && r.method !== "GET")).toBe(true);
    expect(log.some((r) => r.worker === "w2" && r.start > stoppedAt)).toBe(false);
    expect(overlappingWrites(log)).toEqual([]);
    // Its listener: per account, the jobs it ran, their queue lag and last success.
    const health = await request(`http://127.0.0.1:${port}/healthz`);
    expect(health.statusCode).toBe(200);
    await health.body.dump();
    const metrics = await (await request(`http://127.0.0.1:${port}/metrics`)).body.text();
    const ran = accounts.filter((a) =>
      metrics.includes(`vigil_fleet_jobs_total{account="${a.name}",action="apply",result="ok"} 1`),
    );
    expect(ran.length).toBeGreaterThan(0);
    for (const a of ran) {
      expect(metrics).toMatch(new RegExp(`vigil_fleet_queue_lag_seconds\\{account="${a.name}"\\} \\d`));
      expect(metrics).toMatch(
        new RegExp(`vigil_fleet_last_success_timestamp_seconds\\{account="${a.name}",action="apply"\\} \\d`),
      );
    }
  }, 180_000);

  it("fails an account with a bad token or an invalid configuration alone, with its message", async () => {
    const { file } = await writeFleet([
      { name: "iso-good", monitors: 2, watch: `{ every: 1h, webhookSecret: "\${env:HOOK_iso_good}" }` },
      { name: "iso-bad", monitors: 2 },
      {
        name: "iso-invalid",
        monitors: 0,
        config:
          "monitors:\n  web:\n    type: http\n    url: https://x.example.com\n    name: X\n    interval: 60\n    colour: red\n",
      },
    ]);
    const applied = await fleet(["apply", file]);
    expect(applied.code).toBe(1);
    expect(applied.stdout).toContain("iso-good: 2 created, 0 updated, 0 deleted");
    expect(applied.stdout).toMatch(/iso-bad: failed: .*401/);
    expect(applied.stdout).toMatch(/iso-invalid: failed: .*problem\(s\) in the configuration/);
    expect(applied.stdout).toContain("accounts/iso-invalid/monitors.yaml:7:5");
    expect(applied.stdout).toContain("Fleet apply: 1 of 3 account(s) succeeded, 2 failed");
    expect(applied.stdout).not.toContain("vk_live_notarealtoken");
    expect(await names(good)).toEqual(["M 0", "M 1"]);
    // The status says the same per account, and who ran it.
    const status = await fleet(["status", "--json"]);
    const byName = new Map(
      (JSON.parse(status.stdout).accounts as { account: string; lastApply?: { ok: boolean } }[]).map((s) => [
        s.account,
        s,
      ]),
    );
    expect(byName.get("iso-good")?.lastApply?.ok).toBe(true);
    expect(byName.get("iso-bad")?.lastApply?.ok).toBe(false);
    expect(byName.get("acct-00")?.lastApply?.ok).toBe(true);
    // A signed delivery of the account's webhook, to any worker's listener, checks it for drift at once.
    const events = `http://127.0.0.1:${listenPort}/events`;
    const unsigned = await request(`${events}/iso-good`, { method: "POST", body: "{}" });
    expect(unsigned.statusCode).toBe(401);
    await unsigned.body.dump();
    const unknown = await request(`${events}/acct-00`, { method: "POST", body: "{}" });
    expect(unknown.statusCode).toBe(404);
    await unknown.body.dump();
    const delivery = signedDelivery(tokens.HOOK_iso_good!);
    const accepted = await request(`${events}/iso-good`, { method: "POST", ...delivery });
    expect(accepted.statusCode).toBe(202);
    await accepted.body.dump();
    const drift = async () =>
      (
        JSON.parse((await fleet(["status", "--json"])).stdout).accounts as {
          account: string;
          lastDrift?: { ok: boolean; changes: number };
        }[]
      ).find((s) => s.account === "iso-good")?.lastDrift;
    const deadline = Date.now() + 30_000;
    while (!(await drift()) && Date.now() < deadline) await new Promise((done) => setTimeout(done, 500));
    expect(await drift()).toMatchObject({ ok: true, changes: 0 });
    // The plan for a pull request: one section per account, each failure with its message.
    const planned = await fleet(["plan", file, "--markdown"]);
    expect(planned.code).toBe(1);
    expect(planned.stdout).toContain("## iso-good");
    expect(planned.stdout).toMatch(/## iso-bad\n\n\*\*Failed:\*\* .*401/);
    expect(planned.stdout).toContain(
      "Fleet plan: 1 of 3 account(s) succeeded, 2 failed; 0 to create, 0 to update, 0 to delete.",
    );
  }, 120_000);
});
