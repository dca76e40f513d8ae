/**
 * Runs a configuration of the refused corpus (test/gitops/refused) on a sandbox account, twice: through
 * `vigil plan`'s own path (load, plan with the account checks, the CLI's located messages), and through
 * apply with the checks bypassed (every resource created in dependency order), which shows what the
 * service itself answers.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative as relativePath, resolve } from "node:path";
import { operations, VigilClient } from "../../src/api/index.ts";
import { accountCheckLines } from "../../src/cli/config.ts";
import {
  AccountCheckError,
  applyActions,
  engineKinds,
  kindRank,
  MemoryStateStore,
  newState,
  type PlannedAction,
  planChanges,
} from "../../src/engine/index.ts";
import { formatDiagnostic, loadConfig } from "../../src/gitops/load.ts";
import type { TestSandbox } from "./sandbox.ts";

export const refusedCorpus = resolve(import.meta.dirname, "../gitops/refused");
export type PlanName = "trial" | "business" | "enterprise";

export interface Expected {
  /** The API's code, as plan shows it and the service answers it. */
  code: string;
  /** `vigil.yaml:line:column` of the refusal. */
  at: string;
  /** Texts the refusal must show: what is allowed, the feature. */
  shows: string[];
}

export interface RefusedCase {
  name: string;
  dir: string;
  /** Feature overrides of the account, on every plan (a quota of 1 or 2 makes a small case). */
  overrides?: Record<string, number | boolean>;
  plans: Partial<Record<PlanName, Expected>>;
}

export function refusedCases(): RefusedCase[] {
  return readdirSync(refusedCorpus, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => {
      const dir = join(refusedCorpus, e.name);
      const spec = JSON.parse(readFileSync(join(dir, "expect.json"), "utf8")) as Omit<
        RefusedCase,
        "name" | "dir"
      >;
      return { name: e.name, dir, ...spec };
    });
}

export interface PlanRun {
  /** The lines `vigil plan` prints for the refusal (file names relative to the case). */
  lines: string[];
  /** Non-GET API calls the plan made. */
  writes: number;
}

/** Messages name files as the loader does (relative to the working directory): here, relative to the case. */
const relative = (dir: string, text: string) =>
  text.replaceAll(`${dir}/`, "").replaceAll(`${relativePath(process.cwd(), dir)}/`, "");

function writeCalls(stats: { byRoute: Record<string, number> }): number {
  return Object.entries(stats.byRoute)
    .filter(([route]) => !route.startsWith("GET ") && !route.includes("/_sandbox"))
    .reduce((n, [, count]) => n + count, 0);
}

/** `vigil plan` in process: offline problems end it at load, the account checks after the refresh. */
export async function planCase(sb: TestSandbox, dir: string, token: string): Promise<PlanRun> {
  const before = writeCalls((await sb.admin.get("/_sandbox/stats")).body);
  const config = await loadConfig([dir]);
  let lines: string[] = [];
  if (config.diagnostics.length > 0) lines = config.diagnostics.map(formatDiagnostic);
  else {
    const ops = operations(new VigilClient({ baseUrl: sb.url, token }));
    try {
      await planChanges({ ops, store: new MemoryStateStore(), desired: config.resources });
    } catch (error) {
      if (!(error instanceof AccountCheckError)) throw error;
      lines = accountCheckLines(config, error.diagnostics);
    }
  }
  const after = writeCalls((await sb.admin.get("/_sandbox/stats")).body);
  return { lines: lines.map((l) => relative(dir, l)), writes: after - before };
}

/** Applies the case with no check at all: what the service answers each create. */
export async function applyUnchecked(sb: TestSandbox, dir: string, token: string): Promise<string[]> {
  const config = await loadConfig([dir]);
  const ops = operations(new VigilClient({ baseUrl: sb.url, token }));
  const store = new MemoryStateStore();
  const lock = await store.lock();
  const desired = [...config.resources].sort((a, b) => kindRank(a.kind) - kindRank(b.kind));
  const actions: PlannedAction[] = desired.map((r) => ({
    address: r.address,
    kind: r.kind,
    action: "create",
    reasons: [],
    changes: [],
  }));
  const result = await applyActions({
    ops,
    lock,
    state: newState(),
    actions,
    desired,
    live: new Map(engineKinds.map((k) => [k.name, new Map()])),
    complete: new Set(),
    maxBulkItems: 100,
    concurrency: 1,
  });
  await lock.release();
  // A refusal the engine explains in its own words (an adoptable duplicate) still names the code.
  return result.failures.map((f) =>
    String(f.problem?.code ?? /\b\d{3} ([a-z_]+)\b/.exec(f.message)?.[1] ?? f.message),
  );
}
