import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyChanges, FileStateStore, type State } from "../../../src/engine/index.ts";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { type FleetShape, fleetConfig } from "../fixtures/fleet.ts";
import { expectConverged } from "./converged.ts";
import type { CrashChildArgs } from "./crash-child.ts";
import { engineAccount } from "./helpers.ts";

const childScript = fileURLToPath(new URL("./crash-child.ts", import.meta.url));
const shape: FleetShape = { monitors: 200, contacts: 4, subscriptions: 8 };
/** 200 monitors in eight jobs: a kill can fall before, during or between them. */
const maxBulkItems = 25;
/** Kills in all, and kills that interrupted writes (pending operations, or part of the config settled). */
const minKills = 12;
const minMidApply = 10;
/** Kills in a row on one account before the re-run to completion: later kills interrupt recoveries. */
const killsPerCampaign = 3;
const maxRounds = 40;

interface Round {
  campaign: number;
  delay: number;
  killed: boolean;
  /** What the state file held after the run: addresses with a pending write, and settled ones. */
  pending: number;
  settled: number;
  addresses: number;
  liveMonitors: number;
}

let sb: TestSandbox;
let dir: string;
beforeAll(async () => {
  sb = await startTestSandbox();
  dir = mkdtempSync(join(tmpdir(), "vigil-crash-"));
});
afterAll(async () => {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

interface ChildExit {
  signal: NodeJS.Signals | null;
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the child apply; `killAfterMs` sends it SIGKILL that long after its apply started (unless it finished). */
function runChild(args: CrashChildArgs, killAfterMs?: number): Promise<ChildExit> {
  const child = spawn(
    process.execPath,
    ["--disable-warning=ExperimentalWarning", childScript, JSON.stringify(args)],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let stdout = "";
  let stderr = "";
  let timer: NodeJS.Timeout | undefined;
  child.stdout.on("data", (chunk) => {
    stdout += chunk;
    if (killAfterMs !== undefined && !timer && stdout.startsWith("ready\n")) {
      timer = setTimeout(() => child.kill("SIGKILL"), killAfterMs);
    }
  });
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout: stdout.replace(/^ready\n/, ""), stderr });
    });
  });
}

/** The state file as the killed run left it (read without the lock: no run holds it now). */
function stateOnDisk(path: string): State | undefined {
  return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as State) : undefined;
}

describe("crashes during apply", () => {
  it("kill the process at random points during an apply of 200 monitors, at least 10 times, then re-run the apply: it converges with zero duplicates and a consistent state", {
    timeout: 120_000,
  }, async () => {
    // An uninterrupted apply, on an account of its own, gives the span the kills are spread over.
    const calibration = await engineAccount(sb);
    const clean = await runChild({
      url: sb.url,
      token: calibration.account.token,
      statePath: join(dir, "calibration.json"),
      tag: "crash-calibration",
      shape,
      maxBulkItems,
    });
    expect(clean.code, clean.stderr).toBe(0);
    expect(JSON.parse(clean.stdout).failures).toEqual([]);
    const duration: number = JSON.parse(clean.stdout).ms;

    const figures: Round[] = [];
    const kills = () => figures.filter((f) => f.killed);
    const midApply = () => kills().filter((f) => f.pending > 0 || (f.settled > 0 && f.settled < f.addresses));
    // Once a fleet exists there is nothing left to interrupt, so each campaign starts on a fresh account.
    for (
      let campaign = 1;
      (kills().length < minKills || midApply().length < minMidApply) && figures.length < maxRounds;
      campaign++
    ) {
      const { account, ops, time } = await engineAccount(sb);
      const tag = `crash-${campaign}`;
      const desired = fleetConfig(tag, shape);
      const statePath = join(dir, `${tag}.json`);
      const args: CrashChildArgs = { url: sb.url, token: account.token, statePath, tag, shape, maxBulkItems };
      for (let round = 0; round < killsPerCampaign; round++) {
        const delay = Math.floor(Math.random() * duration);
        const exit = await runChild(args, delay);
        const killed = exit.signal === "SIGKILL";
        // A run the kill missed got to the end: it must have got there cleanly.
        if (!killed) expect(exit.code, exit.stderr).toBe(0);
        const entries = Object.values(stateOnDisk(statePath)?.resources ?? {});
        const live = {
          monitors: (await ops.monitor.all({ limit: 500 })).length,
          contacts: (await ops.contact.all()).length,
        };
        figures.push({
          campaign,
          delay,
          killed,
          pending: entries.filter((r) => r.pending).length,
          settled: entries.filter((r) => r.id && !r.pending).length,
          addresses: desired.length,
          liveMonitors: live.monitors,
        });
        // Never more objects than the config holds, at any point of any run.
        expect(live.monitors).toBeLessThanOrEqual(shape.monitors);
        expect(live.contacts).toBeLessThanOrEqual(shape.contacts);
        if (!killed) break;
      }

      // The re-run, to completion, picks up whatever the last kill left (its lock included).
      const store = new FileStateStore(statePath);
      const final = await applyChanges({ ops, store, desired, time });
      expect(final.result.failures).toEqual([]);
      expect(existsSync(`${statePath}.lock`)).toBe(false);
      await expectConverged(ops, store, desired, time);
      expect((await ops.monitor.all({ limit: 500 })).length).toBe(shape.monitors);
    }
    console.info(
      `crash test: uninterrupted apply ${duration} ms; ${figures.length} runs, ${kills().length} kills, ${midApply().length} mid-apply`,
      figures
        .map(
          (f) =>
            `\n  #${f.campaign} +${f.delay} ms ${f.killed ? "killed" : "finished"}: ${f.pending} pending, ${f.settled}/${f.addresses} settled, ${f.liveMonitors} monitors live`,
        )
        .join(""),
    );
    expect(kills().length).toBeGreaterThanOrEqual(minKills);
    expect(midApply().length).toBeGreaterThanOrEqual(minMidApply);
  });
});
