/**
 * The GitOps loader on a large configuration (issue 16, point 2).
 *
 *   npm run bench:loader [-- --monitors 20000 --files 20 --keep]
 *
 * Writes a repo of `--monitors` monitors (each with tags, settings, an alert
 * subscription and a `${env:...}` header) split over `--files` files, plus
 * the contacts they name, into a temporary directory. The load then runs in
 * a fresh Node process of its own, so its peak resident memory is the
 * loader's and not this generator's: it prints the files' size, the load's
 * wall time, the process's peak RSS and the V8 heap's peak (sampled by the
 * garbage collector's own accounting after each collection), and the CPU
 * time, which the other processes of a shared machine inflate less than the
 * wall time. `--keep` keeps the generated repo and prints its path, to
 * profile the load on its own (`node --cpu-prof bench/loader.ts --load DIR`).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PerformanceObserver, performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { getHeapStatistics } from "node:v8";

const { values: args } = parseArgs({
  options: {
    monitors: { type: "string", default: "20000" },
    files: { type: "string", default: "20" },
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
const contactCount = 50;
const dir = mkdtempSync(join(tmpdir(), "vigil-bench-loader-"));
try {
  let bytes = 0;
  const write = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    bytes += Buffer.byteLength(text);
  };
  const contacts = ["contacts:"];
  for (let c = 0; c < contactCount; c++)
    contacts.push(
      `  oncall-${c}:`,
      "    type: http",
      `    address: https://hooks.example.com/pager/${c}`,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a vigil placeholder, filled in by the loader
      '    httpHeaders: [{ header: Authorization, value: "Bearer ${env:PAGER_TOKEN}" }]',
    );
  write("contacts.yaml", `${contacts.join("\n")}\n`);
  const perFile = Math.ceil(monitorCount / fileCount);
  for (let f = 0; f < fileCount; f++) {
    const lines = ["monitors:"];
    for (let m = f * perFile; m < Math.min(monitorCount, (f + 1) * perFile); m++)
      lines.push(
        `  shop-${m}:`,
        "    type: http",
        `    url: https://shop-${m}.example.com/health`,
        `    tags: [shop, team-${m % 7}]`,
        "    locations: { pools: [westeurope, northamerica] }",
        "    alerts:",
        `      - { contact: oncall-${m % contactCount}, alertTypes: [down, up] }`,
      );
    write(`monitors-${String(f).padStart(3, "0")}.yaml`, `${lines.join("\n")}\n`);
  }
  const run = spawnSync(
    process.execPath,
    ["--disable-warning=ExperimentalWarning", import.meta.filename, "--load", dir],
    { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
  );
  if (run.status !== 0) throw new Error(`the load process exited ${run.status}`);
  const figures = JSON.parse(run.stdout) as {
    ms: number;
    cpuMs: number;
    resources: number;
    diagnostics: number;
    firstDiagnostic?: string;
    maxRssMb: number;
    heapPeakMb: number;
  };
  if (figures.diagnostics > 0)
    throw new Error(`the generated config has ${figures.diagnostics} problems: ${figures.firstDiagnostic}`);
  const mb = (n: number) => `${n.toFixed(0)} MB`;
  console.log(
    `${monitorCount} monitors in ${fileCount + 1} files, ${(bytes / 2 ** 20).toFixed(1)} MiB of YAML: ${figures.resources} resources`,
  );
  // CPU time as well: on a shared machine the wall time also counts the other processes' turns.
  console.log(`load time: ${(figures.ms / 1000).toFixed(2)} s (CPU ${(figures.cpuMs / 1000).toFixed(2)} s)`);
  console.log(`peak RSS: ${mb(figures.maxRssMb)}, peak V8 heap: ${mb(figures.heapPeakMb)}`);
} finally {
  if (args.keep) console.log(`kept: ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
