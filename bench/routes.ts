/**
 * `vigil routes` on a large configuration (issue 29: 20,000 monitors in under 10 s).
 *
 *   npm run bench:routes [-- --monitors 20000 --runs 3 --keep]
 *
 * Writes the loader benchmark's repository (bench/loader-config.ts: monitors with tags, settings and an
 * alert subscription each, over 20 files, and their contacts), plus a weekly suppressing window over every
 * 500 monitors and a webhook scoped by tag, and a second copy where one contact in ten has a longer delay
 * and one monitor in a hundred lost its subscription, as the base of a diff. Then it runs the real CLI, each
 * run in a fresh process: `vigil routes DIR --json`, the human matrix, and `vigil routes DIR --base BASE
 * --json` (two configurations loaded). Each prints its wall time, CPU time and peak RSS, then the median,
 * and the machine's load average before and after, to judge how shared the machine was.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { contactCount, loaderConfig } from "./loader-config.ts";

const { values: args } = parseArgs({
  options: {
    monitors: { type: "string", default: "20000" },
    runs: { type: "string", default: "3" },
    keep: { type: "boolean", default: false },
  },
});
const monitorCount = Number(args.monitors);
const budgetMs = 10_000;
const main = resolve(import.meta.dirname, "../src/cli/main.ts");

/** The loader's repository, with windows, a webhook and (for the base) changed delays and subscriptions. */
function writeRepository(dir: string, base: boolean): void {
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of loaderConfig(monitorCount, 20)) {
    let out = text;
    if (base && name === "contacts.yaml")
      out = text.replace(/( {2}oncall-(\d+):\n)/g, (all, _head, n) =>
        Number(n) % 10 === 0 ? `${all}    alertDelay: 5\n` : all,
      );
    if (base && name.startsWith("monitors-"))
      out = text.replace(/( {2}shop-(\d+):\n(?: {4}.*\n)*?) {4}alerts:\n.*\n/g, (all, head, n) =>
        Number(n) % 100 === 0 ? head : all,
      );
    writeFileSync(join(dir, name), out);
  }
  const windows = ["maintenance:"];
  for (let w = 0; w * 500 < monitorCount; w++) {
    const covered = Array.from(
      { length: Math.min(500, monitorCount - w * 500) },
      (_, i) => `shop-${w * 500 + i}`,
    );
    windows.push(
      `  deploy-${w}:`,
      `    name: Deploy ${w}`,
      `    from: 2030-01-0${(w % 7) + 1}T02:00:00Z`,
      `    to: 2030-01-0${(w % 7) + 1}T03:00:00Z`,
      "    repeat: weekly",
      `    monitors: [${covered.join(", ")}]`,
    );
  }
  writeFileSync(join(dir, "maintenance.yaml"), `${windows.join("\n")}\n`);
  writeFileSync(
    join(dir, "webhooks.yaml"),
    "webhooks:\n  bot:\n    url: https://hooks.example.com/bot\n    events: [monitor.down, monitor.up]\n    scope: { tags: [team-3] }\n    secret: bench-secret-0123456789\n",
  );
}

interface Figures {
  ms: number;
  cpuMs: number;
  maxRssMb: number;
  bytes: number;
}

/** Prints the process's CPU time and peak RSS as its last stderr line, however it exits. */
const atExit = `data:text/javascript,process.on("exit",()=>{const u=process.resourceUsage();process.stderr.write("\\n"+JSON.stringify({cpuMs:(u.userCPUTime+u.systemCPUTime)/1000,maxRssMb:u.maxRSS/1024}))})`;

function run(cwd: string, routesArgs: string[]): Figures {
  const started = performance.now();
  const child = spawnSync(
    process.execPath,
    ["--disable-warning=ExperimentalWarning", "--import", atExit, main, "routes", ...routesArgs],
    {
      cwd,
      encoding: "utf8",
      env: { ...process.env, PAGER_TOKEN: "bench-token", NO_COLOR: "1" },
      maxBuffer: 2 ** 30,
    },
  );
  const ms = performance.now() - started;
  const lines = child.stderr.trimEnd().split("\n");
  if (child.status !== 0)
    throw new Error(`vigil routes exited ${child.status}: ${lines.slice(0, 5).join("\n")}`);
  return { ms, ...JSON.parse(lines.at(-1)!), bytes: Buffer.byteLength(child.stdout) };
}

const root = mkdtempSync(join(tmpdir(), "vigil-bench-routes-"));
try {
  writeRepository(join(root, "head"), false);
  // The base is read from the same relative path under --base.
  writeRepository(join(root, "base", "head"), true);
  const loadAverage = () =>
    loadavg()
      .map((n) => n.toFixed(2))
      .join(", ");
  const before = loadAverage();
  console.log(
    `${monitorCount} monitors, ${contactCount} contacts, ${Math.ceil(monitorCount / 500)} weekly windows, 1 webhook`,
  );
  const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const line = (f: Figures) =>
    `wall ${seconds(f.ms)} (CPU ${seconds(f.cpuMs)}), peak RSS ${f.maxRssMb.toFixed(0)} MB, output ${(f.bytes / 2 ** 20).toFixed(1)} MiB`;
  const cases: [string, string[]][] = [
    ["vigil routes --json", ["head", "--json"]],
    ["vigil routes", ["head"]],
    ["vigil routes --base --json", ["head", "--base", "base", "--json"]],
  ];
  const medians: number[] = [];
  for (const [name, routesArgs] of cases) {
    const figures: Figures[] = [];
    for (let i = 0; i < Math.max(1, Number(args.runs)); i++) figures.push(run(root, routesArgs));
    figures.sort((a, b) => a.ms - b.ms);
    const median = figures[Math.floor(figures.length / 2)]!;
    medians.push(median.ms);
    console.log(`${name}: median ${line(median)}`);
  }
  const worst = Math.max(...medians);
  console.log(
    `budget ${seconds(budgetMs)}: ${worst <= budgetMs ? "met" : "MISSED"} (slowest median ${seconds(worst)})`,
  );
  console.log(`load average (1, 5, 15 min): ${before} before, ${loadAverage()} after`);
  if (worst > budgetMs) process.exitCode = 1;
} finally {
  if (args.keep) console.log(`kept: ${root}`);
  else rmSync(root, { recursive: true, force: true });
}
