/**
 * A reader that goes away (`vigil state list | head -1`) ends the command quietly with exit 0, as Unix
 * tools do: no `Error: write EPIPE`, no stack trace, on either state backend and for every command that
 * prints. What the command does after printing (an apply's writes, the embedded sandbox saved, a saved
 * plan, export's files) still happens.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { newState } from "../../../src/engine/index.ts";
import { freshSchema, postgresForTests } from "../../helpers/postgres.ts";
import { vigilCommand } from "../vigil.ts";
import { sandboxWorkspace, shown } from "./helpers.ts";
import { monitorsYaml } from "./monitors.ts";

const server = await postgresForTests();
afterAll(() => server?.stop());

interface PipedRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  firstLine: string;
  stderr: string;
}

/**
 * Runs vigil with its stdout on a pipe that is closed as `head -1` closes it: once the first line has
 * arrived, or (`atOnce`) before vigil writes anything.
 */
function piped(args: readonly string[], cwd: string, options: { atOnce?: boolean } = {}): Promise<PipedRun> {
  const [node, ...flags] = vigilCommand;
  const child = spawn(node, [...flags, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let stderr = "";
  if (options.atOnce) child.stdout.destroy();
  else
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      out += d;
      if (out.includes("\n")) child.stdout.destroy();
    });
  child.stderr.setEncoding("utf8").on("data", (d: string) => {
    stderr += d;
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), 90_000);
  return new Promise((done) =>
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      done({ code, signal, firstLine: out.split("\n")[0] ?? "", stderr });
    }),
  );
}

/** A state managing `n` monitors: `state list` prints far more than a pipe holds (64 KiB). */
function bigState(n: number): string {
  const state = newState();
  for (let i = 0; i < n; i++)
    state.resources[`monitors.m${String(i).padStart(5, "0")}`] = {
      kind: "monitor",
      id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
      naturalKey: {},
      managed: {},
    };
  return JSON.stringify(state);
}

const quiet = (run: PipedRun) => `exit ${run.code} signal ${run.signal}\nstderr:\n${run.stderr}`;

describe("a closed stdout", { timeout: 120_000 }, () => {
  const backends = [
    { name: "a state file", state: async (_dir: string) => undefined as string | undefined },
    ...(server
      ? [
          {
            name: "PostgreSQL",
            state: async (_dir: string) => server.url(freshSchema()) as string | undefined,
          },
        ]
      : []),
  ];
  if (!server) it.skip("PostgreSQL: no initdb/pg_ctl on this machine (test/helpers/postgres.ts)", () => {});

  for (const backend of backends)
    it.concurrent(`ends state list and state show quietly with exit 0: ${backend.name}`, async () => {
      const w = await sandboxWorkspace({ "pushed.json": bigState(5000) });
      const url = await backend.state(w.dir);
      const where = url ? ["--state", url] : [];
      const push = await w.run(["state", "push", "pushed.json", ...where]);
      expect(push.code, shown(push)).toBe(0);

      const list = await piped(["state", "list", ...where], w.dir);
      expect(list.firstLine).toMatch(/^monitors\.m00000\s+monitor\s+00000000-/);
      expect(list.stderr, quiet(list)).toBe("");
      expect(list.code, quiet(list)).toBe(0);

      const show = await piped(["state", "show", ...where], w.dir);
      expect(show.firstLine).toBe("{");
      expect(show.stderr, quiet(show)).toBe("");
      expect(show.code, quiet(show)).toBe(0);

      const history = await piped(["state", "history", ...where], w.dir, { atOnce: true });
      expect(history.stderr, quiet(history)).toBe("");
      expect(history.code, quiet(history)).toBe(0);
    });

  it.concurrent("ends plan and validate quietly; apply and export finish their work first", async () => {
    const w = await sandboxWorkspace({ "main.yaml": monitorsYaml(150) });
    const validate = await piped(["validate"], w.dir, { atOnce: true });
    expect(validate.stderr, quiet(validate)).not.toMatch(/EPIPE|Error|\n\s+at /);
    expect(validate.code, quiet(validate)).toBe(0);

    // The apply's plan is longer than a pipe holds: the pipe closes long before the apply ends.
    const apply = await piped(["apply", "--sandbox", "--auto-approve"], w.dir);
    expect(apply.stderr, quiet(apply)).toBe("");
    expect(apply.code, quiet(apply)).toBe(0);
    // Everything was applied and saved, the sandbox included: the next plan has nothing to do.
    const after = await w.run(["plan", "--sandbox", "--detailed-exitcode"]);
    expect(after.code, shown(after)).toBe(0);

    const plan = await piped(["plan", "--sandbox", "--json"], w.dir);
    expect(plan.firstLine).toBe("{");
    expect(plan.stderr, quiet(plan)).toBe("");
    expect(plan.code, quiet(plan)).toBe(0);

    // What a plan does after printing still happens: the saved plan is written.
    await w.write("main.yaml", monitorsYaml(150).replaceAll("interval: 60", "interval: 120"));
    const saved = await piped(["plan", "--sandbox", "--out", "saved.json"], w.dir);
    expect(saved.code, quiet(saved)).toBe(0);
    expect(existsSync(join(w.dir, "saved.json"))).toBe(true);

    const exported = await piped(["export", "--sandbox", "--out", "exported"], w.dir, { atOnce: true });
    expect(exported.stderr, quiet(exported)).toBe("");
    expect(exported.code, quiet(exported)).toBe(0);
    expect((await readdir(join(w.dir, "exported"))).sort()).toContain("imports.yaml");
    expect(existsSync(join(w.dir, "exported", "monitors.yaml"))).toBe(true);
  });
});
