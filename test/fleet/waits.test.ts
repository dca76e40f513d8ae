/**
 * What `vigil fleet` and the workers wait on (issue 30): `--timeout` on a fleet apply that no worker
 * serves (exit 124, the accounts named, their jobs left queued for a later worker), and a drift check that
 * pg-boss's cron starts on its own from an account's `watch.every`, with no delivery and no command.
 */
import { hostname } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runFleet } from "../../src/fleet/client.ts";
import { readFleetFile } from "../../src/fleet/fleet-file.ts";
import { ManualClock } from "../helpers/clock.ts";
import { type PostgresServer, postgresForTests } from "../helpers/postgres.ts";
import { type Client, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";
import {
  monitorsYaml,
  runFleetCli,
  startWorkerProcess,
  until,
  type WorkerProcess,
  writeFleet,
} from "./helpers.ts";

const pg = await postgresForTests();

interface Status {
  account: string;
  lastApply?: { ok: boolean; created: number };
  lastDrift?: { ok: boolean; changes: number; drifted?: string[]; finishedAt: string; worker: string };
}

describe.skipIf(!pg)("what vigil fleet and the workers wait on", () => {
  let sandbox: TestSandbox;
  const tokens: Record<string, string> = {};
  const clients = new Map<string, Client>();
  const workers: WorkerProcess[] = [];

  const start = async (stateUrl: string, more: string[] = []) => {
    const worker = startWorkerProcess(["--state", stateUrl, "--concurrency", "2", ...more], {
      VIGIL_ENDPOINT: sandbox.url,
      ...tokens,
    });
    workers.push(worker);
    await until(() => worker.log().includes("Worker ready"), "the worker to start", 30_000).catch((error) => {
      throw new Error(`${(error as Error).message}: ${worker.log()}`);
    });
    return worker;
  };
  const statuses = async (stateUrl: string) => {
    const shown = await runFleetCli(["status", "--json", "--state", stateUrl], {});
    return new Map((JSON.parse(shown.stdout).accounts as Status[]).map((s) => [s.account, s]));
  };

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    for (const name of ["t-a", "t-b", "c-a", "d-a"]) {
      const client = await sandbox.account();
      clients.set(name, client);
      tokens[`TOKEN_${name.replaceAll("-", "_")}`] = client.token;
    }
    // Metered: its apply of 40 maintenance windows (one write each, 30 a minute) runs for over a minute.
    const slow = await sandbox.account({ plan: "business", metered: true });
    clients.set("t-slow", slow);
    tokens.TOKEN_t_slow = slow.token;
  }, 60_000);

  afterAll(async () => {
    for (const w of workers) w.child.kill("SIGKILL");
    await Promise.all(workers.map((w) => w.exited));
    await sandbox?.close();
    await pg?.stop();
  });

  it("--timeout: exits 124 naming the accounts without a result, and a later worker still runs their jobs", async () => {
    const stateUrl = (pg as PostgresServer).url("timeout");
    const { file } = await writeFleet([
      { name: "t-a", monitors: 2 },
      { name: "t-b", monitors: 3 },
    ]);
    const bad = await runFleetCli(["apply", file, "--state", stateUrl, "--timeout", "soon"], {});
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("--timeout takes a duration: 90s, 5m or 1h30m");
    expect(bad.stderr).toContain('not "soon"');

    const began = Date.now();
    const waited = await runFleetCli(["apply", file, "--state", stateUrl, "--timeout", "2s"], {});
    expect(Date.now() - began).toBeLessThan(20_000);
    expect(waited.code).toBe(124);
    for (const name of ["t-a", "t-b"])
      expect(waited.stdout).toContain(`${name}: no result after 2s: still queued, no worker has taken it`);
    expect(waited.stdout).toContain(
      "Fleet apply: 0 of 2 account(s) succeeded, 2 without a result yet; 0 created, 0 updated, 0 deleted.",
    );
    expect(waited.stderr).toContain("--timeout 2s passed with 2 account(s) without a result (t-a, t-b)");
    expect(waited.stderr).toContain("Their jobs stay on the queue and a worker runs them");

    const json = await runFleetCli(["plan", file, "--state", stateUrl, "--timeout", "1s", "--json"], {});
    expect(json.code).toBe(124);
    expect(JSON.parse(json.stdout)).toMatchObject({
      accounts: [],
      pending: [
        { account: "t-a", state: "queued" },
        { account: "t-b", state: "queued" },
      ],
    });

    // A worker that starts later runs the jobs the timed-out apply left on the queue.
    await start(stateUrl);
    await until(() => workers.at(-1)!.log().includes("t-b: apply done"), "the queued applies", 60_000);
    await until(() => workers.at(-1)!.log().includes("t-a: apply done"), "the queued applies", 60_000);
    const shown = await statuses(stateUrl);
    expect(shown.get("t-a")?.lastApply).toMatchObject({ ok: true, created: 2 });
    expect(shown.get("t-b")?.lastApply).toMatchObject({ ok: true, created: 3 });
    expect(((await clients.get("t-b")!.get("/monitor")).body.data as unknown[]).length).toBe(3);

    // A job a worker is still running when the wait ends is named with the worker running it.
    const windows = Array.from(
      { length: 40 },
      (_, i) =>
        `  w${i}:\n    name: Window ${i}\n    from: ${1_900_000_000 + i * 86_400}\n    to: ${1_900_003_600 + i * 86_400}\n    monitors: [m0]\n`,
    ).join("");
    const slow = await writeFleet([
      { name: "t-slow", monitors: 0, config: `${monitorsYaml(1)}maintenance:\n${windows}` },
    ]);
    const running = await runFleetCli(["apply", slow.file, "--state", stateUrl, "--timeout", "6s"], {});
    expect(running.code).toBe(124);
    expect(running.stdout).toContain(
      `t-slow: no result after 6s: still running on ${hostname()} pid ${workers.at(-1)!.child.pid}`,
    );
  }, 120_000);

  it("waits on the TimeSource it is given: an hour's timeout passes when the clock says so", async () => {
    const stateUrl = (pg as PostgresServer).url("clock");
    const { file } = await writeFleet([{ name: "c-a", monitors: 1 }]);
    const fleet = await readFleetFile(file);
    const clock = new ManualClock();
    let ended = false;
    const running = runFleet(stateUrl, fleet, fleet.accounts, "plan", {
      time: clock,
      timeoutMs: 3_600_000,
      pollMs: 600_000,
    }).finally(() => (ended = true));
    const began = Date.now();
    let moved = 0;
    while (!ended) {
      await until(() => ended || clock.waiting > 0, "runFleet to wait on the clock", 20_000);
      if (ended) break;
      await clock.advance(600_000);
      moved += 600_000;
    }
    const { outcomes, pending } = await running;
    expect(outcomes).toEqual([]);
    expect(pending).toEqual([{ account: "c-a", state: "queued" }]);
    expect(moved).toBe(3_600_000);
    expect(Date.now() - began).toBeLessThan(20_000);
  }, 60_000);

  it("runs an account's drift check from its watch schedule, started by pg-boss's cron on its own", async () => {
    const stateUrl = (pg as PostgresServer).url("cron");
    const { file } = await writeFleet([{ name: "d-a", monitors: 3, watch: "{ every: 1m }" }]);
    // This worker runs its first schedule pass as it starts, before the schedule exists, and its next 45 s
    // later: no drift check can start before the out-of-band change below.
    const first = await start(stateUrl, ["--schedule-check", "45s"]);
    const applied = await runFleetCli(["apply", file, "--state", stateUrl], {});
    expect(applied.stderr).toBe("");
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain("d-a: 3 created, 0 updated, 0 deleted");
    expect((await statuses(stateUrl)).get("d-a")?.lastDrift).toBeUndefined();

    // Out of band, straight against the account.
    const client = clients.get("d-a")!;
    const monitors = (await client.get("/monitor")).body.data as { id: string; name: string }[];
    const m1 = monitors.find((m) => m.name === "M 1")!;
    expect((await client.patch(`/monitor/${m1.id}`, { name: "Renamed by hand" })).status).toBe(200);

    // A second worker evaluates the schedules every second: the first pass it claims finds the account's
    // `* * * * *` due (an occurrence stays due for a minute) and sends its drift check.
    const second = await start(stateUrl, ["--schedule-check", "1s"]);
    const ready = Date.now();
    await until(
      () => /d-a: refresh done/.test(first.log() + second.log()),
      "the scheduled drift check",
      30_000,
    ).catch((error) => {
      throw new Error(`${(error as Error).message}: ${first.log()}\n${second.log()}`);
    });
    // Seconds, not pg-boss's default 30 s between passes (the first worker's pass is 45 s away).
    expect(Date.now() - ready).toBeLessThan(12_000);
    const drift = (await statuses(stateUrl)).get("d-a")?.lastDrift;
    expect(drift).toMatchObject({ ok: true, changes: 1 });
    expect(drift?.drifted).toEqual([expect.stringMatching(/m1$/)]);
    const plain = await runFleetCli(["status", "--state", stateUrl], {});
    expect(plain.stdout).toMatch(
      /d-a: last apply \S+ ok \(\+3 ~0 -0\); last drift check \S+: 1 drifted \(\S*m1\)/,
    );
    // heal is off: the change is reported, not undone.
    expect(((await client.get(`/monitor/${m1.id}`)).body as { name: string }).name).toBe("Renamed by hand");
  }, 120_000);
});
