/**
 * The state backends' figures and proofs of issue 19.
 *
 *   npm run bench:state [-- --monitors 10000 --contacts 1000 --subscriptions 10000
 *                          --appliers 8 --applier-monitors 200 --kills 10 --kill-monitors 300
 *                          --sections 1,2,3,4,5,6,7]
 *
 * PostgreSQL is a throwaway cluster (fsync on); the sandbox is the real CLI
 * in its own process, as are the `vigil apply` runs of the proofs.
 *
 * 1. Load and save of a 21,000-resource state (the real state of an account
 *    seeded by one engine apply), file and PostgreSQL, median of 7.
 * 2. Lock acquire and release latency, median and p95 of 50.
 * 3. A no-op plan over that account, its state in the file and in
 *    PostgreSQL, 9 rounds alternated, each opening its store as a CLI run
 *    does: wall times (minimum and median), and the overhead PostgreSQL adds
 *    as the difference of the part that differs (opening the store and
 *    reading the state) against the file's median plan.
 * 4. 8 concurrent `vigil apply` of one 200-monitor configuration.
 * 5. 8 concurrent `vigil apply` of 8 successive configurations (+10 monitors each).
 * 6. kill -9 at 10 random points of a 300-monitor apply; the next run converges.
 * 7. Two workspaces applying at the same moment.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { operations, VigilClient } from "../src/api/index.ts";
import {
  applyChanges,
  FileStateStore,
  MemoryStateStore,
  planChanges,
  type State,
  type StateLock,
} from "../src/engine/index.ts";
import { PostgresStateStore } from "../src/engine/state/postgres-store.ts";
import { startPostgres } from "../test/helpers/postgres.ts";
import { cappedPolls, largeAccountOptions, largeConfig, noPacing, startSandbox } from "./lib.ts";

const { values: args } = parseArgs({
  options: {
    ...largeAccountOptions,
    appliers: { type: "string", default: "8" },
    "applier-monitors": { type: "string", default: "200" },
    kills: { type: "string", default: "10" },
    "kill-monitors": { type: "string", default: "300" },
    /** Which figures to run: 1-3 need the large account, 4-7 are the CLI proofs. */
    sections: { type: "string", default: "1,2,3,4,5,6,7" },
  },
});
const sections = new Set(args.sections.split(",").map(Number));
const monitorCount = Number(args.monitors);
const contactCount = Number(args.contacts);
const subscriptionCount = Number(args.subscriptions);
const appliers = Number(args.appliers);
const applierMonitors = Number(args["applier-monitors"]);
const kills = Number(args.kills);
const killMonitors = Number(args["kill-monitors"]);

const work = mkdtempSync(join(tmpdir(), "vigil-bench-state-"));
const pg = await startPostgres({ durable: true });
const sandbox = await startSandbox({ data: false, connections: 32 });
const cli = join(import.meta.dirname, "../src/cli/main.ts");
const node = join(import.meta.dirname, "../node_modules/.bin/node");

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p95 = (xs: number[]) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))]!;
const ms = (x: number) => `${x.toFixed(x < 10 ? 2 : 0)} ms`;
const verdict = (ok: boolean) => (ok ? "PASS" : "FAIL");
const failures: string[] = [];
const check = (ok: boolean, what: string) => {
  if (!ok) failures.push(what);
  return verdict(ok);
};

if ([1, 2, 3].some((n) => sections.has(n))) {
  // --- The large account and its state ---------------------------------------------------------
  const bigClient = new VigilClient({
    baseUrl: sandbox.url,
    token: await sandbox.unmeteredAccount(),
    pacer: noPacing,
    time: cappedPolls,
    connections: 32,
  });
  const bigOps = operations(bigClient);
  const desired = largeConfig({
    tag: "bench",
    monitors: monitorCount,
    contacts: contactCount,
    subscriptions: subscriptionCount,
  });
  const memory = new MemoryStateStore();
  const seedStart = performance.now();
  const seeded = await applyChanges({ ops: bigOps, store: memory, desired, time: cappedPolls });
  if (seeded.result.failures.length > 0) throw new Error("seeding failed");
  const bigState = memory.saved!;
  const resourceCount = Object.keys(bigState.resources).length;
  console.log(
    `seed: ${resourceCount} resources applied in ${((performance.now() - seedStart) / 1000).toFixed(1)} s; state JSON ${(JSON.stringify(bigState).length / 1e6).toFixed(1)} MB`,
  );

  const fileStore = new FileStateStore(join(work, "big", "state.json"));
  const pgStore = new PostgresStateStore(pg.url("bench"));
  const backends: [string, FileStateStore | PostgresStateStore][] = [
    ["file", fileStore],
    ["postgres", pgStore],
  ];

  // --- 1. Load and save -----------------------------------------------------------------------------
  // The backends alternate, so a burst of load on a shared machine weighs on both alike.
  if (sections.has(1)) {
    const saves: Record<string, number[]> = { file: [], postgres: [] };
    const loads: Record<string, number[]> = { file: [], postgres: [] };
    const locks = new Map<string, StateLock>();
    for (const [name, store] of backends) locks.set(name, await store.lock());
    const state: State = structuredClone(bigState);
    for (let i = 0; i < 7; i++) {
      state.serial = bigState.serial + i + 1;
      for (const [name] of backends) {
        const t = performance.now();
        await locks.get(name)!.write(state);
        saves[name]!.push(performance.now() - t);
      }
    }
    for (const lock of locks.values()) await lock.release();
    for (let i = 0; i < 7; i++)
      for (const [name, store] of backends) {
        const t = performance.now();
        await store.read();
        loads[name]!.push(performance.now() - t);
      }
    for (const [name] of backends)
      console.log(
        `1. ${name}: load ${ms(median(loads[name]!))}, save ${ms(median(saves[name]!))} (median of 7, alternated with the other backend; ${resourceCount} resources, validated on load, history kept on save)`,
      );
  }

  // --- 2. Lock latency ----------------------------------------------------------------------------
  if (sections.has(2)) {
    for (const [name, store] of backends) {
      const acquireTimes: number[] = [];
      const releaseTimes: number[] = [];
      for (let i = 0; i < 50; i++) {
        const t = performance.now();
        const lock = await store.lock();
        const u = performance.now();
        await lock.release();
        acquireTimes.push(u - t);
        releaseTimes.push(performance.now() - u);
      }
      console.log(
        `2. ${name}: lock acquire ${ms(median(acquireTimes))} (p95 ${ms(p95(acquireTimes))}), release ${ms(median(releaseTimes))} (p95 ${ms(p95(releaseTimes))}), 50 rounds`,
      );
    }
  }

  // --- 3. No-op plan --------------------------------------------------------------------------------
  if (sections.has(3)) {
    // Each plan opens its store afresh, as a CLI run does (PostgreSQL: connect and check the schema too).
    const planTimes: Record<string, number[]> = { file: [], postgres: [] };
    /** Opening the store and reading the state: the only part of a plan that differs between backends. */
    const readTimes: Record<string, number[]> = { file: [], postgres: [] };
    const openStore = (name: string): FileStateStore | PostgresStateStore =>
      name === "file" ? new FileStateStore(fileStore.path) : new PostgresStateStore(pg.url("bench"));
    for (let round = 0; round < 9; round++) {
      for (const [name] of backends) {
        const t = performance.now();
        const store = openStore(name);
        const outcome = await planChanges({ ops: bigOps, store, desired, time: cappedPolls });
        await store.close();
        planTimes[name]!.push(performance.now() - t);
        if (outcome.plan.actions.some((a) => a.action !== "no-op"))
          throw new Error(`${name}: the plan is not empty`);
        const u = performance.now();
        const reader = openStore(name);
        await reader.read();
        await reader.close();
        readTimes[name]!.push(performance.now() - u);
      }
    }
    const pct = (x: number) => `${x >= 0 ? "+" : ""}${(x * 100).toFixed(1)} %`;
    const [fileMin, pgMin] = [Math.min(...planTimes.file!), Math.min(...planTimes.postgres!)];
    const [fileMed, pgMed] = [median(planTimes.file!), median(planTimes.postgres!)];
    const [fileRead, pgRead] = [median(readTimes.file!), median(readTimes.postgres!)];
    const list = (xs: number[]) => xs.map((t) => (t / 1000).toFixed(2)).join("/");
    // Wall times swing with whatever else a shared machine runs; the read is where the backends differ.
    const added = (pgRead - fileRead) / fileMed;
    console.log(
      `3. no-op plan of ${resourceCount} resources, 9 rounds alternated, each opening its store as a CLI run does:\n` +
        `   file: min ${(fileMin / 1000).toFixed(2)} s, median ${(fileMed / 1000).toFixed(2)} s (${list(planTimes.file!)})\n` +
        `   PostgreSQL: min ${(pgMin / 1000).toFixed(2)} s, median ${(pgMed / 1000).toFixed(2)} s (${list(planTimes.postgres!)})\n` +
        `   wall: ${pct((pgMin - fileMin) / fileMin)} (min), ${pct((pgMed - fileMed) / fileMed)} (median); ` +
        `opening the store and reading the state: file ${ms(fileRead)}, PostgreSQL ${ms(pgRead)} (medians), ` +
        `so PostgreSQL adds ${pct(added)} to the file's median plan, target < 20 %: ${check(added < 0.2, "no-op plan overhead")}`,
    );
  }
  await bigClient.close();
  await fileStore.close();
  await pgStore.close();
}

// --- The CLI proofs -------------------------------------------------------------------------------
function monitorsYaml(count: number, prefix = "m"): string {
  let text = "monitors:\n";
  for (let i = 0; i < count; i++)
    text += `  ${prefix}-${i}:\n    type: http\n    url: https://${prefix}-${i}.example.com/health\n    name: ${prefix} ${i}\n    interval: 60\n    locations: { pools: [westeurope] }\n`;
  return text;
}

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}
/** Starts `vigil` as a user would; `done` settles when it exits. */
function start(argv: string[], env: Record<string, string>, cwd: string) {
  const started = performance.now();
  const child = spawn(node, ["--disable-warning=ExperimentalWarning", cli, ...argv], {
    cwd,
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
  const done = new Promise<Run>((resolve) =>
    child.once("close", (code, signal) =>
      resolve({ code, signal, stdout, stderr, ms: performance.now() - started }),
    ),
  );
  return { kill: () => child.kill("SIGKILL"), done };
}

function vigil(argv: string[], env: Record<string, string>, cwd: string, killAfterMs?: number): Promise<Run> {
  const run = start(argv, env, cwd);
  if (killAfterMs !== undefined) setTimeout(run.kill, killAfterMs);
  return run.done;
}

async function account() {
  const token = await sandbox.unmeteredAccount();
  const env = { VIGIL_ENDPOINT: sandbox.url, VIGIL_TOKEN: token };
  const live = async () => {
    const out: { id: string; name: string }[] = [];
    let cursor: string | null = null;
    do {
      const page: { data: { id: string; name: string }[]; hasMore: boolean; nextCursor: string | null } =
        await sandbox.call("GET", `/monitor?limit=500${cursor ? `&cursor=${cursor}` : ""}`, token);
      out.push(...page.data);
      cursor = page.hasMore ? page.nextCursor : null;
    } while (cursor);
    return out;
  };
  return { env, live };
}

let schemaCount = 0;
const freshUrl = () => pg.url(`proof_${++schemaCount}`);
const dirFor = (files: Record<string, string>) => {
  const dir = mkdtempSync(join(work, "proof-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
};
const duplicates = (live: { name: string }[]) => live.length - new Set(live.map((m) => m.name)).size;
const secs = (x: number) => `${(x / 1000).toFixed(1)} s`;

// 4. Concurrent appliers of one configuration.
if (sections.has(4)) {
  const { env, live } = await account();
  const dir = dirFor({ "main.yaml": monitorsYaml(applierMonitors) });
  const runEnv = { ...env, VIGIL_STATE: freshUrl() };
  const t = performance.now();
  const runs = await Promise.all(
    Array.from({ length: appliers }, () => vigil(["apply", "--auto-approve"], runEnv, dir)),
  );
  const wall = performance.now() - t;
  const creators = runs.filter((r) => r.stdout.includes(`Apply complete: ${applierMonitors} created`)).length;
  const idle = runs.filter((r) => r.stdout.includes("Apply complete: nothing to do")).length;
  const waited = runs.filter((r) => r.stderr.includes("Waiting:")).length;
  const monitors = await live();
  const plan = await vigil(["plan", "--detailed-exitcode"], runEnv, dir);
  const ok =
    runs.every((r) => r.code === 0) &&
    creators === 1 &&
    idle === appliers - 1 &&
    monitors.length === applierMonitors &&
    plan.code === 0;
  console.log(
    `4. ${appliers} concurrent applies of ${applierMonitors} monitors: exits ${runs.map((r) => r.code).join(",")}; ${creators} created, ${idle} found nothing to do, ${waited} waited for the lock; account holds ${monitors.length} monitors, final plan exit ${plan.code}; wall ${secs(wall)}: ${check(ok, "concurrent appliers")}`,
  );
}

// 5. Concurrent appliers of successive configurations.
if (sections.has(5)) {
  const { env, live } = await account();
  const files: Record<string, string> = {};
  for (let k = 1; k <= appliers; k++) files[`c${k}.yaml`] = monitorsYaml(applierMonitors + 10 * k);
  const dir = dirFor(files);
  const runEnv = { ...env, VIGIL_STATE: freshUrl() };
  const t = performance.now();
  const runs = await Promise.all(
    Array.from({ length: appliers }, (_, i) =>
      vigil(["apply", "--auto-approve", `c${i + 1}.yaml`], runEnv, dir),
    ),
  );
  const wall = performance.now() - t;
  const history = await vigil(["state", "history", "--limit", "1000"], runEnv, dir);
  const versionsByLock = new Map<string, number>();
  for (const m of history.stdout.matchAll(/apply by \S+, lock (\S+)/g))
    versionsByLock.set(m[1]!, (versionsByLock.get(m[1]!) ?? 0) + 1);
  const changing = runs.filter((r) => !r.stdout.includes("nothing to do")).length;
  const state = JSON.parse((await vigil(["state", "pull"], runEnv, dir)).stdout) as State;
  const monitors = await live();
  const stateIds = Object.values(state.resources)
    .map((r) => String(r.id))
    .sort();
  const liveIds = monitors.map((m) => String(m.id)).sort();
  const last = (monitors.length - applierMonitors) / 10;
  const plan = await vigil(["plan", "--detailed-exitcode", `c${last}.yaml`], runEnv, dir);
  const ok =
    runs.every((r) => r.code === 0) &&
    versionsByLock.size === changing &&
    JSON.stringify(stateIds) === JSON.stringify(liveIds) &&
    duplicates(monitors) === 0 &&
    plan.code === 0;
  console.log(
    `5. ${appliers} concurrent applies of successive configurations (${applierMonitors + 10}..${applierMonitors + 10 * appliers} monitors): exits ${runs.map((r) => r.code).join(",")}; ${changing} changed something, each its own lock in the history (${versionsByLock.size} holders, ${[...versionsByLock.values()].reduce((a, b) => a + b, 0)} versions); the account holds ${monitors.length} monitors = the state's ${stateIds.length} (config c${last} ran last), ${duplicates(monitors)} duplicates, its plan exit ${plan.code}; wall ${secs(wall)}: ${check(ok, "successive configurations")}`,
  );
}

// 6. kill -9 at random points of an apply: half at a random moment of the whole run, half at a
// random moment after the journal first records writes in flight (so the kills fall mid-write too).
if (sections.has(6)) {
  const dir = dirFor({ "main.yaml": monitorsYaml(killMonitors) });
  // How long a whole apply takes here, to spread the kills over it.
  const probe = await account();
  const full = await vigil(["apply", "--auto-approve"], { ...probe.env, VIGIL_STATE: freshUrl() }, dir);
  const rounds: string[] = [];
  let allOk = full.code === 0;
  let slowest = 0;
  let midWrite = 0;
  let killedCount = 0;
  // A run that finished before its kill time is reported but not counted: kills are counted, not rounds.
  for (let k = 0; killedCount < kills && k < 3 * kills; k++) {
    const { env, live } = await account();
    const url = freshUrl();
    const runEnv = { ...env, VIGIL_STATE: url };
    const afterJournal = k % 2 === 1;
    let at = Math.round(full.ms * (0.15 + 0.8 * Math.random()));
    let killed: Run;
    if (afterJournal) {
      const watcher = new PostgresStateStore(url);
      const run = start(["apply", "--auto-approve"], runEnv, dir);
      const started = performance.now();
      let done = false;
      void run.done.then(() => {
        done = true;
      });
      // Polls the journal without a lock, as any reader may.
      while (!done) {
        const state = await watcher.read().catch(() => undefined);
        if (state && Object.values(state.resources).some((r) => r.pending)) break;
        await new Promise((r) => setTimeout(r, 25));
      }
      at = Math.round(performance.now() - started + Math.random() * 1500);
      await new Promise((r) => setTimeout(r, Math.max(0, at - (performance.now() - started))));
      run.kill();
      killed = await run.done;
      await watcher.close();
    } else killed = await vigil(["apply", "--auto-approve"], runEnv, dir, at);
    const left = JSON.parse((await vigil(["state", "pull"], runEnv, dir)).stdout || "{}") as Partial<State>;
    const entries = Object.values(left.resources ?? {});
    if (killed.signal === "SIGKILL") killedCount++;
    const pending = entries.filter((r) => r.pending).length;
    if (pending > 0) midWrite++;
    const next = await vigil(["apply", "--auto-approve", "--lock-timeout", "2m"], runEnv, dir);
    slowest = Math.max(slowest, next.ms);
    const monitors = await live();
    const plan = await vigil(["plan", "--detailed-exitcode"], runEnv, dir);
    const ok =
      next.code === 0 &&
      !next.stderr.includes("Waiting:") &&
      monitors.length === killMonitors &&
      duplicates(monitors) === 0 &&
      plan.code === 0;
    allOk &&= ok;
    rounds.push(
      `killed at ${at} ms${afterJournal ? " (after the journal's first pending write)" : ""} (${killed.signal ?? `exit ${killed.code}`}; the state then held ${entries.length - pending} settled, ${pending} pending) -> next run exit ${next.code} in ${secs(next.ms)}${next.stderr.includes("Waiting:") ? " after waiting" : ", no wait"}, ${monitors.length} monitors, ${duplicates(monitors)} duplicates, plan exit ${plan.code}`,
    );
  }
  console.log(
    `6. kill -9 at ${killedCount} random points of a ${killMonitors}-monitor apply (a whole apply takes ${secs(full.ms)}; ${midWrite} kills left writes pending): every next run took the lock at once and converged: ${check(allOk && killedCount >= kills, "kill -9")}; slowest next run ${secs(slowest)}`,
  );
  for (const r of rounds) console.log(`   ${r}`);
}

// 7. Two workspaces at the same moment.
if (sections.has(7)) {
  const { env } = await account();
  const dir = dirFor({
    "a.yaml": monitorsYaml(applierMonitors, "a"),
    "b.yaml": monitorsYaml(applierMonitors, "b"),
  });
  const state = freshUrl();
  const solo = await vigil(
    ["apply", "--auto-approve", "--workspace", "solo", "a.yaml"],
    { ...env, VIGIL_STATE: state },
    dir,
  );
  await vigil(["destroy", "--auto-approve", "--workspace", "solo"], { ...env, VIGIL_STATE: state }, dir);
  const t = performance.now();
  const [a, b] = await Promise.all(
    ["a", "b"].map((w) =>
      vigil(["apply", "--auto-approve", "--workspace", w, `${w}.yaml`], { ...env, VIGIL_STATE: state }, dir),
    ),
  );
  const wall = performance.now() - t;
  const ok =
    a!.code === 0 && b!.code === 0 && !a!.stderr.includes("Waiting:") && !b!.stderr.includes("Waiting:");
  console.log(
    `7. two workspaces applying ${applierMonitors} monitors each at the same moment: exits ${a!.code},${b!.code}, neither waited; wall ${secs(wall)} together (one alone: ${secs(solo.ms)}): ${check(ok, "workspaces")}`,
  );
}

await sandbox.stop();
await pg.stop();
rmSync(work, { recursive: true, force: true });
if (failures.length > 0) {
  console.log(`FAILED: ${failures.join(", ")}`);
  process.exitCode = 1;
}
