/**
 * The fleet end to end (issue 30): real PostgreSQL, a sandbox with an account per fleet account, real
 * `vigil worker` processes each behind a proxy that logs its requests, and `vigil fleet` runs.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PostgresServer, postgresForTests } from "../helpers/postgres.ts";
import { type Client, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";
import {
  type LoggedRequest,
  loggingProxy,
  monitorsYaml,
  overlappingWrites,
  runFleetCli,
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

  const start = async (name: string) => {
    const proxy = await loggingProxy(sandbox.url, name, log);
    proxies.push(proxy);
    const worker = startWorkerProcess(["--state", stateUrl, "--concurrency", "4", "--lease", "5s"], {
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
    await Promise.all(["w1", "w2", "w3"].map(start));
  }, 120_000);

  afterAll(async () => {
    for (const w of workers.values()) w.child.kill("SIGKILL");
    await Promise.all([...workers.values()].map((w) => w.exited));
    await Promise.all(proxies.map((p) => p.close()));
    await sandbox?.close();
    await pg?.stop();
  });

  it("applies every account exactly: no duplicates, and every plan is empty afterwards", async () => {
    const { file } = await writeFleet(accounts.map((a) => ({ name: a.name, monitors: monitorCount })));
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
});
