import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatDiagnostic, loadConfig } from "../../src/gitops/load.ts";
import { vigil } from "../cli/vigil.ts";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";
import { type HostileCase, hostileCases } from "./hostile/cases.ts";

/**
 * The hostile-config corpus (test/gitops/hostile/cases.ts): each case is
 * refused with its exact problems at file:line:column, by the loader in a
 * bounded time, and by the real binary's `plan` and `apply` with exit 1 and
 * without a single API call, which the sandbox's /_sandbox/stats counts. One
 * case (`monitors: {__proto__: ...}`) runs against a workspace whose state
 * manages a live monitor: apply must refuse and the monitor must survive.
 */

const dirs: string[] = [];
// Removing the cases' trees (10,000 directories among them) outlasts the default 10 s on a loaded machine.
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
}, 120_000);

async function build(c: HostileCase): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "vigil-hostile-"));
  dirs.push(root);
  for (const [name, content] of Object.entries(c.files)) {
    await mkdir(dirname(join(root, name)), { recursive: true });
    await writeFile(join(root, name), content);
  }
  for (const [name, target] of Object.entries(c.links ?? {})) {
    await mkdir(dirname(join(root, name)), { recursive: true });
    await symlink(target, join(root, name));
  }
  return root;
}

/** The directory vigil runs in: the `repo` folder when the case has one (links point out of it). */
const repoOf = (c: HostileCase, root: string) =>
  Object.keys(c.files).some((f) => f.startsWith("repo/")) ? join(root, "repo") : root;

/** Expected lines, `…` standing for any text. */
function matchers(lines: readonly string[]): unknown[] {
  return lines.map((line) => {
    if (!line.includes("…")) return line;
    const parts = line.split("…").map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    return expect.stringMatching(new RegExp(`^${parts.join(".*")}$`, "s"));
  });
}

const closing = (n: number) =>
  `Error: ${n} problem${n === 1 ? "" : "s"} in the configuration; nothing was sent to the API.`;

it("covers every loader point of issue 16, and point 8 of issue 25", () => {
  expect(new Set(hostileCases.map((c) => c.point))).toEqual(
    new Set(["1", "2", "3", "4", "5", "6", "7", "25.8"]),
  );
});

describe("the loader", () => {
  for (const c of hostileCases) {
    it(`${c.name}: refused with its problems at file:line:column within ${c.withinMs} ms`, async () => {
      const root = await build(c);
      const cwd = process.cwd();
      process.chdir(repoOf(c, root));
      try {
        const started = performance.now();
        const config = await loadConfig(["."], { env: {} });
        const elapsed = performance.now() - started;
        expect(config.diagnostics.map(formatDiagnostic)).toEqual(matchers(c.expected));
        expect(elapsed).toBeLessThan(c.withinMs);
        if (c.declares) expect(config.resources.map((r) => r.address).sort()).toEqual(c.declares);
      } finally {
        process.chdir(cwd);
      }
      // Building a case (10,000 directories for one) is set-up, not the time measured: a timeout here would
      // start the next case while this one still holds the working directory.
    }, 120_000);
  }

  it("a file it refuses is a problem of the file, even when the refusal is at a member", async () => {
    const c = hostileCases.find((h) => h.name === "alias-bomb-in-tags")!;
    const config = await loadConfig([await build(c)], { env: {} });
    // Commands that only read the files' addresses (destroy with paths) stop on file problems alone.
    expect(config.diagnostics).toHaveLength(1);
    expect(config.diagnostics[0]!.address).toBeUndefined();
    expect(config.resources).toEqual([]);
  });

  it("resolves placeholders only from the environment's own variables", async () => {
    const c = hostileCases.find((h) => h.name === "env-proto-and-constructor")!;
    const root = await build(c);
    const config = await loadConfig([root], { env: { constructor: "set", hasOwnProperty: "also set" } });
    expect(config.diagnostics).toEqual([]);
    const web = config.resources.find((r) => r.address === "monitors.web")!;
    expect(web.members.name).toBe("set");
    expect(web.members.tags).toEqual(["fallback", "also set"]);
  });
});

describe("the binary", () => {
  let sb: TestSandbox;
  let connection: Record<string, string>;
  /** A workspace whose state manages monitors.web, live in the account. */
  let managed: string;
  let webId: string;
  beforeAll(async () => {
    sb = await startTestSandbox();
    const account = await sb.account({ plan: "enterprise" });
    connection = { VIGIL_ENDPOINT: sb.url, VIGIL_TOKEN: account.token };
    managed = await build({
      name: "managed",
      point: "3",
      files: {
        "monitors.yaml":
          "monitors:\n  web:\n    type: http\n    url: https://web.example.com/health\n    locations: { pools: [westeurope] }\n",
      },
      expected: [],
      withinMs: 0,
    });
    const apply = await vigil(["apply", "--auto-approve"], { cwd: managed, env: connection });
    expect(apply.code, apply.stderr).toBe(0);
    const monitors = await account.get("/monitor");
    webId = monitors.body.data[0].id;
    expect(monitors.body.data).toHaveLength(1);
    // From here on, no case may make a single call.
    expect((await sb.admin.delete("/_sandbox/stats")).status).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await sb?.close();
  });

  /** At most two binaries at a time: the machine is shared. */
  const running: Promise<unknown>[] = [];
  async function limited<T>(run: () => Promise<T>): Promise<T> {
    while (running.length >= 2) await Promise.race(running);
    const done = run();
    const slot = done.finally(() => running.splice(running.indexOf(slot), 1));
    running.push(slot);
    return done;
  }

  describe.concurrent("plan and apply refuse each case, exit 1", () => {
    for (const c of hostileCases) {
      it(c.name, async ({ expect }) => {
        const root = await build(c);
        const cwd = repoOf(c, root);
        for (const args of [["plan"], ["apply", "--auto-approve"]]) {
          const run = await limited(() => vigil(args, { cwd, env: connection, timeoutMs: 60_000 }));
          const label = `vigil ${args.join(" ")} on ${c.name}`;
          expect(run.stderr.trimEnd().split("\n"), label).toEqual(
            matchers([...c.expected.map((l) => `Error: ${l}`), closing(c.expected.length)]),
          );
          expect(run.code, label).toBe(1);
          // Never raw bytes or a flood: every line is short and printable.
          for (const line of run.stderr.split("\n")) expect(line).toMatch(/^[^\p{Cc}]{0,600}$/u);
        }
      }, 180_000);
    }
  });

  it("apply with monitors: {__proto__: ...} over a state that manages the monitor deletes nothing", async () => {
    const c = hostileCases.find((h) => h.name === "proto-under-monitors")!;
    await writeFile(join(managed, "monitors.yaml"), c.files["monitors.yaml"]!);
    const run = await vigil(["apply", "--auto-approve"], { cwd: managed, env: connection });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('"__proto__" is not a valid name');
  }, 60_000);

  it("sent nothing to the API, and the live monitor is still there", async () => {
    // Runs after the cases above (vitest runs a file's tests in order, the concurrent group as one).
    const stats = await sb.admin.get("/_sandbox/stats");
    expect(stats.body).toMatchObject({ total: 0, byRoute: {} });
    const state = JSON.parse(await readFile(join(managed, ".vigil/state.json"), "utf8"));
    expect(state.resources["monitors.web"].id).toBe(webId);
    const live = await fetch(`${sb.url}/monitor/${webId}`, {
      headers: { authorization: `Bearer ${connection.VIGIL_TOKEN}` },
    });
    expect(live.status).toBe(200);
  });
});
