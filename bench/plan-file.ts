/**
 * Reading and showing a large saved plan (issue 25, point 14): what the plan file bound
 * (`planFileBytes`, src/cli/plan-file.ts) allows costs this much.
 *
 *   npm run bench:plan-file [-- --monitors 100000]
 *
 * Writes a plan creating `--monitors` monitors (each with the members of bench/loader-config.ts's
 * monitors) to a temporary file, then, in a fresh Node process so that its peak memory is the reader's,
 * reads it as `apply --plan` does (bounded read, nesting check, shape) and renders the human plan. Prints
 * the file's size, the read's and the render's wall and CPU time, and the process's peak RSS.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { PlannedAction } from "../src/engine/index.ts";

const { values: args } = parseArgs({
  options: { monitors: { type: "string", default: "100000" }, read: { type: "string" } },
});

if (args.read) {
  const { readPlanFile } = await import("../src/cli/plan-file.ts");
  const { renderPlan } = await import("../src/cli/render/human.ts");
  const { planInConfigTerms } = await import("../src/gitops/present.ts");
  const time = async <T>(fn: () => T | Promise<T>) => {
    const [started, cpu] = [performance.now(), process.cpuUsage()];
    const value = await fn();
    const used = process.cpuUsage(cpu);
    return { value, ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
  };
  const read = await time(() => readPlanFile(args.read!));
  const shown = await time(() => renderPlan(planInConfigTerms(read.value)));
  process.stdout.write(
    `${JSON.stringify({
      read: { ms: Math.round(read.ms), cpuMs: Math.round(read.cpuMs) },
      render: {
        ms: Math.round(shown.ms),
        cpuMs: Math.round(shown.cpuMs),
        lines: shown.value.split("\n").length,
      },
      maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    })}\n`,
  );
  process.exit(0);
}

const count = Number(args.monitors);
const { serializePlan } = await import("../src/engine/index.ts");
const actions: PlannedAction[] = [];
for (let i = 0; i < count; i++) {
  const members: Record<string, unknown> = {
    type: "http",
    name: `m ${i}`,
    url: `https://m-${i}.bench.example.com/health`,
    interval: 60,
    locations: { pools: ["westeurope"] },
    settings: { timeout: 30000, method: "GET", headers: [{ name: "x-probe", value: "(sensitive)" }] },
    tags: ["bench", `shard-${i % 20}`],
  };
  actions.push({
    address: `monitors.m-${i}`,
    kind: "monitor",
    action: "create",
    reasons: [],
    changes: Object.entries(members).map(([k, value]) => ({ op: "add", path: `/${k}`, value })),
  });
}
const text = serializePlan({
  format_version: "1.0",
  created: 0,
  lineage: "bench",
  serial: 0,
  accountId: "bench",
  configDigest: "sha256:bench",
  syncCursors: {},
  actions,
  summary: { create: count, update: 0, replace: 0, delete: 0, forget: 0, import: 0, "no-op": 0 },
  warnings: [],
});
const dir = mkdtempSync(join(tmpdir(), "vigil-bench-plan-"));
try {
  const file = join(dir, "plan.json");
  writeFileSync(file, text);
  const before = loadavg()[0]!.toFixed(1);
  const run = spawnSync(
    process.execPath,
    ["--disable-warning=ExperimentalWarning", import.meta.filename, "--read", file],
    { encoding: "utf8", maxBuffer: 2 ** 20 },
  );
  if (run.status !== 0) throw new Error(`the read failed: ${run.stderr}`);
  const figures = JSON.parse(run.stdout);
  console.log(
    `${count.toLocaleString("en")} monitor creates: ${(Buffer.byteLength(text) / 2 ** 20).toFixed(1)} MiB; ` +
      `read ${figures.read.ms} ms (${figures.read.cpuMs} ms CPU), rendered ${figures.render.lines.toLocaleString("en")} lines in ${figures.render.ms} ms (${figures.render.cpuMs} ms CPU); ` +
      `peak RSS ${figures.maxRssMb} MB; load average ${before} → ${loadavg()[0]!.toFixed(1)}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
