/**
 * `npm run bench:watch-startup [-- --runs 5]`: how long `vigil watch` takes to become ready on the example
 * configuration (examples/gitops, applied first) against the embedded sandbox (a metered Business account),
 * at the default read budget, as a user runs it: `vigil watch gitops --sandbox --listen 127.0.0.1:PORT`.
 *
 * Per start: from spawn to the listener's first answer, and to `GET /healthz` answering 200, and the CPU
 * the process had used by then. Two cases: a first start (no watch record: the first refresh lists
 * everything) and a restart (the record is recent: the watcher resumes). `vigil plan gitops --sandbox` and
 * `node -e 0` are timed in the same rounds, for what a plan takes on the machine at that moment. Medians.
 */
import { execFile, spawn } from "node:child_process";
import { cp, mkdtemp, readFile, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs, promisify } from "node:util";
import { request } from "undici";
import { freePort } from "./lib.ts";

const run = promisify(execFile);
const { values } = parseArgs({ options: { runs: { type: "string", default: "5" } } });
const runs = Number(values.runs);
const root = resolve(import.meta.dirname, "..");
const node = join(root, "node_modules/.bin/node");
const cli = [node, "--disable-warning=ExperimentalWarning", join(root, "src/cli/main.ts")];
const env = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NO_COLOR: "1" };

/** CPU seconds (user + system) a live process has used, from /proc. */
async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

interface Start {
  listeningMs: number;
  readyMs: number;
  cpuS: number;
}

async function startWatch(dir: string): Promise<Start> {
  const port = await freePort();
  const [file, ...args] = cli;
  const started = performance.now();
  const child = spawn(file!, [...args, "watch", "gitops", "--sandbox", "--listen", `127.0.0.1:${port}`], {
    cwd: dir,
    env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const exited = new Promise((done) => child.once("exit", done));
  let listeningMs: number | undefined;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`vigil watch exited ${child.exitCode}: ${stderr}`);
      try {
        const res = await request(`http://127.0.0.1:${port}/healthz`);
        await res.body.dump();
        listeningMs ??= performance.now() - started;
        if (res.statusCode === 200) {
          const readyMs = performance.now() - started;
          return { listeningMs, readyMs, cpuS: await cpuSeconds(child.pid!) };
        }
      } catch (error) {
        if (listeningMs !== undefined) throw error;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    child.kill("SIGTERM");
    await exited;
  }
}

async function timed(command: readonly string[], cwd: string): Promise<number> {
  const [file, ...args] = command;
  const started = performance.now();
  await run(file!, args, { cwd, env });
  return performance.now() - started;
}

const median = (list: readonly number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

const dir = await mkdtemp(join(tmpdir(), "vigil-watch-startup-"));
try {
  await cp(join(root, "examples/gitops"), join(dir, "gitops"), { recursive: true });
  await run(cli[0]!, [...cli.slice(1), "apply", "gitops", "--sandbox", "--auto-approve"], { cwd: dir, env });
  const record = join(dir, ".vigil/sandbox-states/gitops/state.json.watch.json");
  const first: Start[] = [];
  const restart: Start[] = [];
  const plan: number[] = [];
  const bare: number[] = [];
  const load = loadavg()[0]!;
  for (let round = 0; round < runs; round++) {
    await rm(record, { force: true });
    first.push(await startWatch(dir));
    restart.push(await startWatch(dir));
    plan.push(await timed([...cli, "plan", "gitops", "--sandbox"], dir));
    bare.push(await timed([node, "-e", "0"], dir));
  }
  const row = (label: string, starts: Start[]) =>
    console.log(
      `  ${label}: listening after ${seconds(median(starts.map((s) => s.listeningMs)))}, /healthz 200 after ${seconds(median(starts.map((s) => s.readyMs)))} (${median(starts.map((s) => s.cpuS)).toFixed(2)} s CPU)`,
    );
  console.log(
    `vigil watch examples/gitops --sandbox (Business, --read-budget 10), median of ${runs}; load average ${load.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}:`,
  );
  row("first start (full refresh)", first);
  row("restart (resumed)         ", restart);
  console.log(`  for reference: vigil plan ${seconds(median(plan))}, node -e 0 ${seconds(median(bare))}`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
