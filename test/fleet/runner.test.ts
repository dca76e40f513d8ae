/**
 * One fleet job as a worker runs it (src/fleet/runner.ts), in process: a drift check finds what changed
 * outside vigil and, with heal, applies the configuration again; the token never shows in a result.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FleetJob } from "../../src/fleet/jobs.ts";
import { runJob } from "../../src/fleet/runner.ts";
import { type PostgresServer, postgresForTests } from "../helpers/postgres.ts";
import { type Client, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";
import { monitorsYaml } from "./helpers.ts";

const pg = await postgresForTests();

describe.skipIf(!pg)("a fleet job", () => {
  let sandbox: TestSandbox;
  let account: Client;
  let stateUrl: string;
  const job = (action: FleetJob["action"], heal = false): FleetJob => ({
    account: "acme",
    action,
    token: { env: "ACME_TOKEN" },
    paths: ["accounts/acme"],
    files: [{ path: "accounts/acme/monitors.yaml", text: monitorsYaml(2) }],
    ...(heal && { heal }),
  });
  const run = (j: FleetJob) =>
    runJob(j, {
      stateUrl,
      env: { ACME_TOKEN: account.token, VIGIL_ENDPOINT: sandbox.url },
      leaseMs: 5000,
      lockTimeoutMs: 10_000,
      describe: (error) => (error as Error).message,
      log: () => {},
    });

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    account = await sandbox.account();
    stateUrl = (pg as PostgresServer).url("runner");
  });
  afterAll(async () => {
    await sandbox?.close();
    await pg?.stop();
  });

  it("applies, then finds drift, heals it only when asked, and says nothing of the token", async () => {
    const applied = await run(job("apply"));
    expect(applied).toMatchObject({ ok: true, created: 2, updated: 0, deleted: 0, failed: 0 });
    const monitors = (await account.get("/monitor")).body.data as { id: string; name: string }[];
    const m0 = monitors.find((m) => m.name === "M 0")!;
    await account.patch(`/monitor/${m0.id}`, { name: "Renamed by hand" });

    const checked = await run(job("refresh"));
    expect(checked).toMatchObject({ ok: true, action: "refresh", changes: 1, updated: 0 });
    expect((await account.get(`/monitor/${m0.id}`)).body.name).toBe("Renamed by hand");

    const healed = await run(job("refresh", true));
    expect(healed).toMatchObject({ ok: true, changes: 1, updated: 1 });
    expect((await account.get(`/monitor/${m0.id}`)).body.name).toBe("M 0");

    const planned = await run(job("plan"));
    expect(planned).toMatchObject({ ok: true, changes: 0 });
    expect(JSON.stringify([applied, checked, healed, planned])).not.toContain(account.token);
  });

  it("fails on a token variable the worker lacks, or a file that leads outside its configuration, saying which", async () => {
    const missing = await runJob(job("apply"), {
      stateUrl,
      env: { VIGIL_ENDPOINT: sandbox.url },
      leaseMs: 5000,
      lockTimeoutMs: 0,
      describe: String,
      log: () => {},
    });
    expect(missing).toMatchObject({ ok: false, failed: 1 });
    expect(missing.message).toMatch(
      /^the environment variable ACME_TOKEN, the token of account acme, is not set on worker /,
    );
    const hostile = await run({
      ...job("apply"),
      files: [{ path: "../../etc/evil.yaml", text: "monitors: {}\n" }],
    });
    expect(hostile).toMatchObject({ ok: false });
    expect(hostile.message).toBe('the job\'s file "../../etc/evil.yaml" leads outside its configuration');
  });
});
