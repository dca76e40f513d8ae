/**
 * The CLI with its state in PostgreSQL, as teams run it: concurrent appliers
 * of one commit and of successive commits, a holder killed with -9 mid-apply,
 * two workspaces at once, the state subcommands, and a password that never
 * shows. Sizes are modest here; bench/state.ts runs them at full size.
 */
import { afterAll, describe, expect, it } from "vitest";
import { PostgresStateStore } from "../../../src/engine/state/postgres-store.ts";
import { holdingProxy } from "../../helpers/holding-proxy.ts";
import { freshSchema, postgresForTests } from "../../helpers/postgres.ts";
import { project, useSandbox } from "./helpers.ts";
import { monitorsYaml } from "./monitors.ts";
import { liveMonitors, startApply } from "./state-postgres.ts";

const server = await postgresForTests();
afterAll(() => server?.stop());
const sandbox = useSandbox();

const shown = (r: { code: number | null; stdout: string; stderr: string }) =>
  `exit ${r.code}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`;

describe.skipIf(!server)("vigil with its state in PostgreSQL", () => {
  const url = (schema = freshSchema()) => server!.url(schema);

  it("concurrent appliers of one configuration: one creates, the others wait and find nothing to do", async () => {
    const p = await project(sandbox(), { "main.yaml": monitorsYaml(30) });
    const env = { VIGIL_STATE: url() };
    const runs = await Promise.all(
      Array.from({ length: 4 }, () => p.run(["apply", "--auto-approve"], { env })),
    );
    for (const r of runs) expect(r.code, shown(r)).toBe(0);
    const creators = runs.filter((r) => r.stdout.includes("Apply complete: 30 created"));
    expect(creators, runs.map(shown).join("\n")).toHaveLength(1);
    expect(runs.filter((r) => r.stdout.includes("Apply complete: nothing to do"))).toHaveLength(3);
    expect(
      runs.filter((r) => r.stderr.includes("Waiting: workspace default of PostgreSQL")).length,
    ).toBeGreaterThan(0);
    expect(await liveMonitors(p)).toHaveLength(30);
    const plan = await p.run(["plan", "--detailed-exitcode"], { env });
    expect(plan.code, shown(plan)).toBe(0);
    for (const r of [...runs, plan]) expect(r.stdout + r.stderr).not.toContain(server!.password);
  }, 180_000);

  it("concurrent appliers of successive configurations are serialised, each change its own version", async () => {
    const p = await project(sandbox(), {});
    const env = { VIGIL_STATE: url() };
    // Each run applies its own directory: configuration k holds 3k monitors. They take the lock in any
    // order, so a smaller configuration may follow a larger one: those deletions are meant.
    for (let k = 1; k <= 4; k++) await p.write(`c${k}.yaml`, monitorsYaml(3 * k));
    const runs = await Promise.all(
      [1, 2, 3, 4].map((k) =>
        p.run(["apply", "--auto-approve", "--allow-mass-delete", `c${k}.yaml`], { env }),
      ),
    );
    for (const r of runs) expect(r.code, shown(r)).toBe(0);
    const history = await p.run(["state", "history", "--limit", "100"], { env });
    expect(history.code, shown(history)).toBe(0);
    const lockIds = [...history.stdout.matchAll(/apply by \S+, lock (\S+)/g)].map((m) => m[1]);
    const changing = runs.filter((r) => !r.stdout.includes("nothing to do")).length;
    // One version per run that changed something, each with its own holder.
    expect(lockIds.length, history.stdout).toBe(changing);
    expect(new Set(lockIds).size).toBe(changing);
    // Whatever ran last is what the account and the state hold, with nothing lost or doubled.
    const state = JSON.parse((await p.run(["state", "pull"], { env })).stdout);
    const live = await liveMonitors(p);
    expect(new Set(live.map((m) => m.name)).size).toBe(live.length);
    expect(
      Object.values(state.resources)
        .map((r: any) => String(r.id))
        .sort(),
    ).toEqual(live.map((m) => String(m.id)).sort());
    const last = live.length / 3;
    const plan = await p.run(["plan", "--detailed-exitcode", `c${last}.yaml`], { env });
    expect(plan.code, shown(plan)).toBe(0);
  }, 180_000);

  it("a holder killed with -9 mid-apply leaves no lock; the next run, elsewhere, converges without duplicates", async () => {
    const p = await project(sandbox(), { "main.yaml": monitorsYaml(60) });
    const state = url();
    const env = { VIGIL_STATE: state, VIGIL_ENDPOINT: sandbox().url, VIGIL_TOKEN: p.account.token };
    // Writes are held on their way to the service: the kill falls while the apply waits on its first one,
    // whatever the machine's speed, and the write then reaches the service with its answer lost.
    const proxy = await holdingProxy(sandbox().url, (method) => method !== "GET");
    const watcher = new PostgresStateStore(state);
    try {
      const apply = startApply(p, { ...env, VIGIL_ENDPOINT: proxy.url });
      await proxy.arrival();
      process.kill(apply.pid, "SIGKILL");
      await apply.done;
      await proxy.release();
      const left = await watcher.read();
      const pending = Object.values(left?.resources ?? {}).filter((r) => r.pending);
      expect(pending.length, "the journal holds the write in flight").toBeGreaterThan(0);
    } finally {
      await watcher.close();
      await proxy.close();
    }
    // The next run is another process with its own connection, as on another machine.
    const next = await p.run(["apply", "--auto-approve", "--lock-timeout", "0"], { env });
    expect(next.code, shown(next)).toBe(0);
    const live = await liveMonitors(p);
    expect(live).toHaveLength(60);
    expect(new Set(live.map((m) => m.name)).size).toBe(60);
    const plan = await p.run(["plan", "--detailed-exitcode"], { env });
    expect(plan.code, shown(plan)).toBe(0);
  }, 180_000);

  it("two workspaces apply at the same moment without waiting for each other", async () => {
    const p = await project(sandbox(), { "a.yaml": monitorsYaml(10, "a"), "b.yaml": monitorsYaml(10, "b") });
    const state = url();
    const [a, b] = await Promise.all([
      p.run(["apply", "--auto-approve", "--workspace", "a", "a.yaml"], { env: { VIGIL_STATE: state } }),
      p.run(["apply", "--auto-approve", "--workspace", "b", "b.yaml"], { env: { VIGIL_STATE: state } }),
    ]);
    for (const r of [a!, b!]) {
      expect(r.code, shown(r)).toBe(0);
      expect(r.stderr).not.toContain("Waiting");
    }
    const listed = await p.run(["state", "workspaces", "--state", state, "--workspace", "a"]);
    expect(listed.stdout).toMatch(/^\* a +serial \d+, saved .*\n {2}b +serial \d+, saved /);
  }, 180_000);

  it("state subcommands: unlock by id only, show --version, pull and push between backends", async () => {
    const p = await project(sandbox(), { "main.yaml": monitorsYaml(2) });
    const state = url();
    const env = { VIGIL_STATE: state };
    expect((await p.run(["apply", "--auto-approve"], { env })).code).toBe(0);
    await p.write("main.yaml", monitorsYaml(3));
    expect((await p.run(["apply", "--auto-approve"], { env })).code).toBe(0);

    const history = await p.run(["state", "history"], { env });
    const serials = [...history.stdout.matchAll(/^(\d+) {2}/gm)].map((m) => Number(m[1]));
    expect(serials).toEqual([...serials].sort((x, y) => y - x));
    const first = serials.at(-1)!;
    const old = await p.run(["state", "show", "--version", String(first)], { env });
    expect(old.code, shown(old)).toBe(0);
    expect(JSON.parse(old.stdout).serial).toBe(first);

    // From PostgreSQL to a file and back: a pushed copy of the same state is accepted, another lineage is not.
    const pulled = await p.run(["state", "pull"], { env });
    await p.write("pulled.json", pulled.stdout);
    const toFile = await p.run(["state", "push", "pulled.json", "--state", "copy.json"]);
    expect(toFile.code, shown(toFile)).toBe(0);
    expect((await p.run(["state", "list", "--state", "copy.json"])).stdout).toContain("monitors.m-2");
    const foreign = JSON.parse(pulled.stdout);
    foreign.lineage = "another";
    await p.write("foreign.json", JSON.stringify(foreign));
    const refused = await p.run(["state", "push", "foreign.json"], { env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("lineage is another");
    expect(refused.stderr).toContain("Pass --force");

    const wrong = await p.run(["state", "unlock", "not-the-id"], { env });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("is not locked");
  }, 180_000);

  it("never shows the password, even when the database refuses it", async () => {
    const p = await project(sandbox(), { "main.yaml": monitorsYaml(1) });
    const bad = server!.url(freshSchema()).replace(server!.password, "s3cret-Pa55word");
    for (const args of [
      ["apply", "--auto-approve"],
      ["state", "workspaces"],
    ]) {
      const r = await p.run(args, { env: { VIGIL_STATE: bad } });
      expect(r.code, shown(r)).toBe(1);
      expect(r.stderr).toContain("postgres://vigil:***@127.0.0.1");
      expect(r.stderr).toContain("password authentication failed");
      expect(r.stdout + r.stderr).not.toContain("s3cret-Pa55word");
      // One clear line, not a stack trace.
      expect(r.stderr).not.toMatch(/^\s+at /m);
    }
  });
});
