import { readdirSync, readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";
import { type VigilRun, vigil, workspace } from "./vigil.ts";

/**
 * The corpus of configurations (test/cli/corpus/README.md): the real binary
 * refuses every bad one with each problem's location and message, on stderr,
 * exit 1, and sends nothing to the API, which /_sandbox/stats counts.
 */
const corpus = resolve(import.meta.dirname, "corpus");

interface Case {
  name: string;
  files: Record<string, string>;
  /** Expected stderr lines of a bad configuration. */
  expected?: string[];
  /** Expected stdout of `validate` for a positive control. */
  valid?: string;
}

function readCase(name: string): Case {
  const dir = join(corpus, name);
  const entries = readdirSync(dir);
  const text = (file: string) => readFileSync(join(dir, file), "utf8");
  const files = Object.fromEntries(entries.filter((f) => /\.ya?ml$/.test(f)).map((f) => [f, text(f)]));
  return {
    name,
    files,
    ...(entries.includes("expected.txt") && { expected: text("expected.txt").trimEnd().split("\n") }),
    ...(entries.includes("valid.txt") && { valid: text("valid.txt") }),
  };
}

const cases = readdirSync(corpus, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => readCase(e.name));
const bad = cases.filter((c) => c.expected);
const positive = cases.filter((c) => c.valid !== undefined);

/** A line of expected.txt: exact, or with `…` standing for any text. */
function lineMatcher(line: string): unknown {
  if (!line.includes("…")) return line;
  const parts = line.split("…").map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return expect.stringMatching(new RegExp(`^${parts.join(".*")}$`));
}

/** At most four binaries at a time: each is a Node process that spends most of its time starting. */
const running: Promise<unknown>[] = [];
async function limited(run: () => Promise<VigilRun>): Promise<VigilRun> {
  while (running.length >= 4) await Promise.race(running);
  const done = run();
  const slot = done.finally(() => running.splice(running.indexOf(slot), 1));
  running.push(slot);
  return done;
}

/** Each run's workspace, removed when the file's tests end. */
const workspaces: string[] = [];
async function workspaceOf(c: Case): Promise<string> {
  const dir = await workspace(c.files);
  workspaces.push(dir);
  return dir;
}

let sb: TestSandbox;
let connection: string[];
beforeAll(async () => {
  sb = await startTestSandbox();
  const account = await sb.account();
  connection = ["--endpoint", sb.url, "--token", account.token];
  expect((await sb.admin.delete("/_sandbox/stats")).status).toBe(200);
});
afterAll(async () => {
  await sb.close();
  await Promise.all(workspaces.map((dir) => rm(dir, { recursive: true, force: true })));
});

/**
 * Every case runs `plan`; every third one also runs `validate` or, in turn,
 * `apply --auto-approve` (each run is a Node start-up of most of a second).
 */
function commandsFor(index: number): string[][] {
  if (index % 6 === 0) return [["plan"], ["validate"]];
  if (index % 6 === 3) return [["plan"], ["apply", "--auto-approve"]];
  return [["plan"]];
}

it("holds at least 45 bad configurations and the positive controls", () => {
  expect(bad.length).toBeGreaterThanOrEqual(45);
  expect(positive.length).toBeGreaterThanOrEqual(2);
  // A directory without an expectation would pass without checking anything.
  for (const c of cases) expect(c.expected ?? c.valid, c.name).toBeDefined();
  for (const c of cases) expect(Object.keys(c.files).length, c.name).toBeGreaterThan(0);
});

describe.concurrent("bad configurations", () => {
  bad.forEach((c, index) => {
    it(c.name, async ({ expect }) => {
      const cwd = await workspaceOf(c);
      const expected = c.expected!;
      // The closing line counts the problems listed above it.
      const n = expected.length - 1;
      expect(expected.at(-1)).toBe(
        `Error: ${n} problem${n === 1 ? "" : "s"} in the configuration; nothing was sent to the API.`,
      );
      for (const args of commandsFor(index)) {
        const command = args[0] === "validate" ? args : [...args, ...connection];
        const run = await limited(() => vigil(command, { cwd }));
        const label = `vigil ${args.join(" ")} on ${c.name}`;
        expect(run.stderr.trimEnd().split("\n"), label).toEqual(expected.map(lineMatcher));
        expect(run.stdout, label).toBe("");
        expect(run.code, label).toBe(1);
      }
    });
  });
});

describe.concurrent("positive controls", () => {
  for (const c of positive) {
    it(c.name, async ({ expect }) => {
      const cwd = await workspaceOf(c);
      const run = await limited(() => vigil(["validate"], { cwd }));
      // Only the note naming the checks a plan makes against the account.
      expect(run.stderr).toMatch(
        /^Note: only a plan checks the configuration against the account: [^\n]+\n$/,
      );
      expect(run.stdout).toBe(c.valid);
      expect(run.code).toBe(0);
    });
  }
});

it("sent nothing to the API: validation comes before connecting, so /_sandbox/stats counts no call at all", async () => {
  const stats = await sb.admin.get("/_sandbox/stats");
  expect(stats.status).toBe(200);
  const writes = Object.keys(stats.body.byRoute).filter((route) => !route.startsWith("GET "));
  expect(writes).toEqual([]);
  expect(stats.body).toMatchObject({ total: 0, byRoute: {} });
});
