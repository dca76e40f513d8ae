/**
 * `npm run bench:export`: `vigil export` of an account of 21,000 objects, in every format the CLI offers. For
 * each, the real CLI runs as its own process against the sandbox (its own process too): the API calls it
 * makes (the sandbox's count; the budget is 50 reads), its wall time (the budget is 20 s a format), its CPU
 * time and its peak RSS (the CLI's own, read at its exit).
 *
 * The account: 10,000 http monitors (tagged by team, one in a hundred with a password), 1,000 contacts,
 * 9,949 alert subscriptions, 20 report subscriptions, 10 contact groups, 10 maintenance windows, 2 status
 * pages with 2 templates each and 5 webhooks, seeded by one engine apply on an unmetered account.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { operations, VigilClient } from "../src/api/index.ts";
import { formatNames } from "../src/cli/export-formats.ts";
import { applyChanges, type DesiredResource, MemoryStateStore } from "../src/engine/index.ts";
import { cappedPolls, countCalls, noPacing, startSandbox } from "./lib.ts";

const counts = { monitors: 10_000, contacts: 1_000, alerts: 9_949 };
const budget = { reads: 50, seconds: 20 };

const ref = (address: string) => ({ $ref: address });

function account(): DesiredResource[] {
  const out: DesiredResource[] = [];
  for (let n = 0; n < counts.contacts; n++)
    out.push({
      address: `contacts.c${n}`,
      kind: "contact",
      // Reports go to email contacts only: the first 20 are.
      members:
        n < 20
          ? { type: "email", name: `Reports ${n}`, address: `reports-${n}@example.com` }
          : { type: "http", name: `Hook ${n}`, address: `https://hooks-${n}.example.com/alert` },
    });
  for (let n = 0; n < counts.monitors; n++)
    out.push({
      address: `monitors.m${n}`,
      kind: "monitor",
      members: {
        type: "http",
        name: `Service ${n}`,
        url: `https://service-${n}.example.com/health`,
        tags: [`team-${n % 10}`],
        locations: { pools: ["allworld"] },
        ...(n % 100 === 0 && { settings: { username: "probe", password: `bench-password-${n}` } }),
      },
    });
  for (let s = 0; s < counts.alerts; s++)
    out.push({
      address: `alertSubscriptions.a${s}`,
      kind: "alertSubscription",
      members: {
        monitorId: ref(`monitors.m${s}`),
        contactId: ref(`contacts.c${s % counts.contacts}`),
        alertTypes: ["down", "up"],
      },
    });
  for (let n = 0; n < 20; n++)
    out.push({
      address: `reportSubscriptions.r${n}`,
      kind: "reportSubscription",
      members: {
        monitorId: ref(`monitors.m${n}`),
        contactId: ref(`contacts.c${n}`),
        frequencies: ["weekly"],
      },
    });
  for (let n = 0; n < 10; n++) {
    out.push({
      address: `contactGroups.g${n}`,
      kind: "contactGroup",
      members: {
        name: `Team ${n}`,
        members: [0, 1, 2].map((i) => ({ contactId: ref(`contacts.c${n * 3 + i}`), events: ["down", "up"] })),
      },
    });
    out.push({
      address: `maintenance.w${n}`,
      kind: "maintenance",
      members: {
        name: `Deploy ${n}`,
        from: 1893895200 + n * 86_400,
        to: 1893902400 + n * 86_400,
        repeat: "weekly",
        monitorIds: [0, 1, 2, 3, 4].map((i) => ref(`monitors.m${n * 5 + i}`)),
      },
    });
  }
  for (let n = 0; n < 2; n++) {
    out.push({
      address: `statusPages.p${n}`,
      kind: "statusPage",
      members: {
        slug: `bench-status-${n}`,
        title: `Status ${n}`,
        components: [0, 1, 2].map((i) => ({
          name: `Service ${i}`,
          monitorId: ref(`monitors.m${n * 3 + i}`),
        })),
      },
    });
    for (let t = 0; t < 2; t++)
      out.push({
        address: `statusPages.p${n}.templates.t${t}`,
        kind: "statusPageTemplate",
        members: { pageId: ref(`statusPages.p${n}`), title: `Outage ${t}`, message: "We are on it." },
      });
  }
  for (let n = 0; n < 5; n++)
    out.push({
      address: `webhooks.h${n}`,
      kind: "webhook",
      members: {
        url: `https://events-${n}.example.net/vigil`,
        events: ["monitor.down", "monitor.up"],
        scope: { monitorIds: [ref(`monitors.m${n}`), ref(`monitors.m${n + 5}`)] },
        secret: `bench-webhook-secret-${n}-0123456789`,
      },
    });
  return out;
}

/**
 * A `--import` hook that says the process's peak RSS (kilobytes) and CPU time (microseconds) on stderr when it
 * exits: the CPU time is the export's own cost, which a loaded machine stretches less than the wall time.
 */
const rssHook = `data:text/javascript,process.on("exit",()=>{const u=process.resourceUsage();process.stderr.write("maxrss="+u.maxRSS+" cpu="+(u.userCPUTime+u.systemCPUTime)+"\\n")})`;

/** Runs `vigil export` as a user would; its wall time, peak RSS and output. */
function runExport(args: string[], cwd: string) {
  const cli = join(import.meta.dirname, "../src/cli/main.ts");
  const started = performance.now();
  const child = spawn(
    process.execPath,
    ["--disable-warning=ExperimentalWarning", "--import", rssHook, cli, "export", ...args],
    { cwd, env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NO_COLOR: "1" } },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  return new Promise<{
    seconds: number;
    cpuSeconds: number;
    rssMb: number;
    stdout: string;
    code: number | null;
  }>((done) =>
    child.once("close", (code) => {
      const kb = Number(/maxrss=(\d+)/.exec(stderr)?.[1] ?? Number.NaN);
      const cpu = Number(/cpu=(\d+)/.exec(stderr)?.[1] ?? Number.NaN);
      if (code !== 0) process.stderr.write(stderr);
      done({
        seconds: (performance.now() - started) / 1000,
        cpuSeconds: cpu / 1e6,
        rssMb: kb / 1024,
        stdout,
        code,
      });
    }),
  );
}

const sandbox = await startSandbox({ data: false, connections: 16 });
const work = await mkdtemp(join(tmpdir(), "vigil-bench-export-"));
try {
  const token = await sandbox.unmeteredAccount();
  const desired = account();
  const client = new VigilClient({
    baseUrl: sandbox.url,
    token,
    pacer: noPacing,
    time: cappedPolls,
    connections: 32,
  });
  const seedStart = performance.now();
  const seeded = await applyChanges({
    ops: operations(client),
    store: new MemoryStateStore(),
    desired,
    time: cappedPolls,
  });
  if (seeded.result.failures.length > 0)
    throw new Error(`seeding failed: ${JSON.stringify(seeded.result.failures.slice(0, 3))}`);
  await client.close();
  console.log(
    `Seeded ${desired.length} objects in ${((performance.now() - seedStart) / 1000).toFixed(1)} s.\n`,
  );

  const admin = {
    get: async (path: string) => ({ body: await sandbox.call("GET", path, sandbox.adminToken) }),
    delete: (path: string) => sandbox.call("DELETE", path, sandbox.adminToken),
  };
  const rows: string[][] = [];
  let pass = true;
  for (const format of formatNames) {
    const out = join(work, format);
    let run!: Awaited<ReturnType<typeof runExport>>;
    const calls = await countCalls(admin, async () => {
      run = await runExport(
        ["--format", format, "--out", out, "--endpoint", sandbox.url, "--token", token],
        work,
      );
    });
    if (run.code !== 0) throw new Error(`vigil export --format ${format} exited ${run.code}`);
    const exported = Number(/Exported (\d+) objects/.exec(run.stdout)?.[1]);
    const files = await readdir(out);
    let bytes = 0;
    for (const f of files) bytes += (await stat(join(out, f))).size;
    const ok = exported === desired.length && calls.reads <= budget.reads && run.seconds < budget.seconds;
    pass &&= ok;
    rows.push([
      format,
      String(exported),
      String(calls.reads),
      String(calls.writes),
      `${run.seconds.toFixed(1)} s`,
      `${run.cpuSeconds.toFixed(1)} s`,
      `${run.rssMb.toFixed(0)} MB`,
      `${files.length} / ${(bytes / 1024 / 1024).toFixed(1)} MB`,
      ok ? "PASS" : "FAIL",
    ]);
    console.log(`--format ${format}: reads by route ${JSON.stringify(calls.byRoute)}`);
  }
  console.log(
    `\n| format | objects | reads (budget ${budget.reads}) | writes | wall time (budget ${budget.seconds} s) | CPU time | peak RSS | files / size | |`,
  );
  console.log("|---|---|---|---|---|---|---|---|---|");
  for (const row of rows) console.log(`| ${row.join(" | ")} |`);
  // Wall times stretch with the machine's load; CPU time less so.
  const load = loadavg().map((l) => l.toFixed(1));
  console.log(`\nLoad average at the end: ${load.join(", ")} on ${cpus().length} CPUs.`);
  if (!pass) process.exitCode = 1;
} finally {
  await rm(work, { recursive: true, force: true });
  await sandbox.stop();
}
