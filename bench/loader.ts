/**
 * The GitOps loader on a large configuration (issue 16, point 2).
 *
 *   npm run bench:loader [-- --monitors 20000 --files 20 --runs 3 --keep]
 *
 * Writes a repo of `--monitors` monitors split over `--files` files, plus the
 * contacts they name (bench/loader-config.ts), into a temporary directory. The load then runs
 * `--runs` times, each in a fresh Node process of its own, so its peak
 * resident memory is the loader's and not this generator's: each run prints
 * the load's wall time, its CPU time (which the other processes of a shared
 * machine inflate less than the wall time), the process's peak RSS and the
 * V8 heap's peak (sampled by the garbage collector's own accounting after
 * each collection); then the median of each, and the machine's load average
 * before and after, to judge how shared the machine was. `--keep` keeps the
 * generated repo and prints its path, to profile the load on its own
 * (`node --cpu-prof bench/loader.ts --load DIR`).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { PerformanceObserver, performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { getHeapStatistics } from "node:v8";
import { loaderConfig } from "./loader-config.ts";

const { values: args } = parseArgs({
  options: {
    monitors: { type: "string", default: "20000" },
    files: { type: "string", default: "20" },
    runs: { type: "string", default: "3" },
    keep: { type: "boolean", default: false },
    /** Internal: load this directory and print the figures as JSON. */
    load: { type: "string" },
  },
});

if (args.load) {
  // The heap's peak: the largest used size seen after any collection, and at the end.
  let heapPeak = 0;
  const sample = () => {
    heapPeak = Math.max(heapPeak, getHeapStatistics().used_heap_size);
  };
  new PerformanceObserver(sample).observe({ entryTypes: ["gc"] });
  const { loadConfig } = await import("../src/gitops/load.ts");
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const config = await loadConfig([args.load], { env: { PAGER_TOKEN: "bench-token" } });
  const ms = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  sample();
  process.stdout.write(
    `${JSON.stringify({
      ms,
      cpuMs: (cpu.user + cpu.system) / 1000,
      resources: config.resources.length,
      diagnostics: config.diagnostics.length,
      firstDiagnostic: config.diagnostics[0]?.message,
      maxRssMb: process.resourceUsage().maxRSS / 1024,
      heapPeakMb: heapPeak / 2 ** 20,
    })}\n`,
  );
  process.exit(0);
}

const monitorCount = Number(args.monitors);
const fileCount = Number(args.files);
const dir = mkdtempSync(join(tmpdir(), "vigil-bench-loader-"));
try {
  let bytes = 0;
  const write = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    bytes += Buffer.byteLength(text);
  };
  for (const [name, text] of loaderConfig(monitorCount, fileCount)) write(name, text);
  type Figures = {
    ms: number;
    cpuMs: number;
    resources: number;
    diagnostics: number;
    firstDiagnostic?: string;
    maxRssMb: number;
    heapPeakMb: number;
  };
  const load = (): Figures => {
    const run = spawnSync(
      process.execPath,
      ["--disable-warning=ExperimentalWarning", import.meta.filename, "--load", dir],
      { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
    );
    if (run.status !== 0) throw new Error(`the load process exited ${run.status}`);
    const figures = JSON.parse(run.stdout) as Figures;
    if (figures.diagnostics > 0)
      throw new Error(`the generated config has ${figures.diagnostics} problems: ${figures.firstDiagnostic}`);
    return figures;
  };
  const loadAverage = () =>
    loadavg()
      .map((n) => n.toFixed(2))
      .join(", ");
  const before = loadAverage();
  const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const mb = (n: number) => `${n.toFixed(0)} MB`;
  const line = (f: Omit<Figures, "resources" | "diagnostics">) =>
    `load time ${seconds(f.ms)} (CPU ${seconds(f.cpuMs)}), peak RSS ${mb(f.maxRssMb)}, peak V8 heap ${mb(f.heapPeakMb)}`;
  const runs: Figures[] = [];
  for (let i = 0; i < Math.max(1, Number(args.runs)); i++) {
    runs.push(load());
    if (i === 0)
      console.log(
        `${monitorCount} monitors in ${fileCount + 1} files, ${(bytes / 2 ** 20).toFixed(1)} MiB of YAML: ${runs[0]!.resources} resources`,
      );
    console.log(`run ${i + 1}: ${line(runs[i]!)}`);
  }
  const median = (pick: (f: Figures) => number) => {
    const sorted = runs.map(pick).sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  };
  console.log(
    `median: ${line({ ms: median((f) => f.ms), cpuMs: median((f) => f.cpuMs), maxRssMb: median((f) => f.maxRssMb), heapPeakMb: median((f) => f.heapPeakMb) })}`,
  );
  // On a shared machine the wall time also counts the other processes' turns: the load average says how many.
  console.log(`load average (1, 5, 15 min): ${before} before, ${loadAverage()} after`);
} finally {
  if (args.keep) console.log(`kept: ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
