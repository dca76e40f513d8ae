/**
 * Issue 25, point 16, against a real PostgreSQL: the state's database goes
 * away in the middle of an apply of 200 monitors (its sessions terminated
 * from a second connection with pg_terminate_backend, as a failover or a
 * restart does). The apply says once that the monitors were created but the
 * state could not be saved, and that the next run adopts them; the next run
 * does, with no duplicate. The moment is steered with the sandbox's latency:
 * while the bulk create is being submitted (the job's id is never saved), or
 * while the job runs (its outcome is never saved).
 */
import { spawn } from "node:child_process";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { PostgresStateStore } from "../../../src/engine/state/postgres-store.ts";
import { freshSchema, postgresForTests } from "../../helpers/postgres.ts";
import { vigilCommand } from "../vigil.ts";
import { type Project, project, useSandbox } from "./helpers.ts";
import { monitorsYaml } from "./monitors.ts";

const server = await postgresForTests();
afterAll(() => server?.stop());
const sandbox = useSandbox();

const count = 200;

async function liveMonitors(p: Project): Promise<{ id: string; url: string }[]> {
  const out: { id: string; url: string }[] = [];
  let cursor: string | null = null;
  do {
    const page: { body: any } = await p.account.get(`/monitor?limit=500${cursor ? `&cursor=${cursor}` : ""}`);
    out.push(...page.body.data);
    cursor = page.body.hasMore ? page.body.nextCursor : null;
  } while (cursor);
  return out;
}

const shown = (r: { code: unknown; stdout: string; stderr: string }) =>
  `exit ${r.code}\nstdout (last lines):\n${r.stdout.split("\n").slice(-8).join("\n")}\nstderr:\n${r.stderr}`;

/** Runs `vigil apply` and, once the journal holds the writes in flight, ends every session of it. */
async function applyLosingTheDatabase(p: Project, state: string) {
  const env = { VIGIL_STATE: state, VIGIL_ENDPOINT: sandbox().url, VIGIL_TOKEN: p.account.token };
  const child = spawn(vigilCommand[0], [...vigilCommand.slice(1), "apply", "--auto-approve"], {
    cwd: p.dir,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NO_COLOR: "1", ...env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => {
    stdout += d;
  });
  child.stderr.setEncoding("utf8").on("data", (d: string) => {
    stderr += d;
  });
  const exited = new Promise<number | null>((done) => child.once("close", done));
  const watcher = new PostgresStateStore(state);
  const admin = new pg.Client({ connectionString: server!.url(), application_name: "vigil-test-admin" });
  try {
    for (;;) {
      const saved = await watcher.read();
      if (saved && Object.values(saved.resources).some((r) => r.pending)) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    await watcher.close();
    await admin.connect();
    const ended = await admin.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'vigil' AND pid <> pg_backend_pid()",
    );
    expect(ended.rowCount).toBeGreaterThan(0);
  } finally {
    await watcher.close();
    await admin.end().catch(() => {});
  }
  return { code: await exited, stdout, stderr, env };
}

describe.skipIf(!server)("the state's database goes away mid-apply", () => {
  for (const [moment, slowRoute, latencyMs] of [
    ["while the bulk create is submitted", "POST /monitor/bulk", 3000],
    ["while the job runs", "GET /job/{id}", 1500],
  ] as const)
    it(`${moment}: said once; the next run adopts the ${count} monitors, with no duplicate`, async () => {
      const p = await project(sandbox(), { "main.yaml": monitorsYaml(count) });
      const state = server!.url(freshSchema());
      await sandbox().admin.post("/_sandbox/faults", { rate: 0, latencyMs, routes: [slowRoute] });
      let lost: Awaited<ReturnType<typeof applyLosingTheDatabase>>;
      try {
        lost = await applyLosingTheDatabase(p, state);
      } finally {
        await sandbox().admin.delete("/_sandbox/faults");
      }
      const all = `${lost.stdout}${lost.stderr}`;
      expect(lost.code, shown(lost)).toBe(1);
      // One error, said once: no write reported as failed, the cause named once, nothing else on stderr.
      expect(all).not.toContain("failed");
      expect(all.split("Connection terminated unexpectedly")).toHaveLength(2);
      const port = new URL(server!.url()).port;
      expect(lost.stderr).toMatch(
        new RegExp(
          `^Error: The state could not be saved: PostgreSQL postgres://vigil:\\*\\*\\*@127\\.0\\.0\\.1:${port}/postgres \\(schema t_[0-9a-f]+, workspace default\\): Connection terminated unexpectedly\\n` +
            `${count} objects were created after the state was last saved \\(monitors\\.m-0, monitors\\.m-1, monitors\\.m-10 and ${count - 3} more\\); the saved state holds them as pending writes, and the next run adopts them: nothing is created twice\\.\\n` +
            "No write started once the state could not be saved: run vigil apply again when the state's store is back\\.\\n$",
        ),
      );
      expect(all).not.toContain(server!.password);
      expect(await liveMonitors(p)).toHaveLength(count);

      // The database is back (it never went: only the sessions did). The next run adopts every monitor.
      const next = await p.run(["apply", "--auto-approve", "--lock-timeout", "0"], { env: lost.env });
      expect(next.code, shown(next)).toBe(0);
      const adopted = next.stderr.match(
        /^Note: monitors\.m-\d+: the create of an earlier run had succeeded; adopted /gm,
      );
      expect(adopted).toHaveLength(count);
      expect(next.stdout).toContain("Apply complete: nothing to do.");
      const live = await liveMonitors(p);
      expect(live).toHaveLength(count);
      expect(new Set(live.map((m) => m.url)).size).toBe(count);
      const plan = await p.run(["plan", "--detailed-exitcode"], { env: lost.env });
      expect(plan.code, shown(plan)).toBe(0);
    }, 240_000);
});
