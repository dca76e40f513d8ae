/**
 * Ctrl+C (SIGINT) away from the approval prompt: every command ends in one sentence, exit 130, no stack
 * trace, and holds nothing after (docs/cli.md, "Ctrl+C"). An apply that is writing stops starting writes,
 * lets those under way end and be saved, releases the lock and says what it did; a second Ctrl+C exits at
 * once, leaving the write under way to the journal. Each signal is sent at a known moment: when a request
 * the proxy holds has arrived (the run is waiting on it), or when the run has printed a given line.
 */

import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, open, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type HoldingProxy, holdingProxy } from "../../helpers/holding-proxy.ts";
import { startVigil, type VigilRun } from "../vigil.ts";
import { project, sandboxWorkspace, shown, useSandbox } from "./helpers.ts";

const sandbox = useSandbox();

const proxies: HoldingProxy[] = [];
afterEach(async () => {
  await Promise.all(
    proxies.splice(0).map(async (p) => {
      await p.release();
      await p.close();
    }),
  );
});

async function proxied(holds: (method: string, path: string) => boolean) {
  const proxy = await holdingProxy(sandbox().url, holds);
  proxies.push(proxy);
  return proxy;
}

const config = `contacts:
  oncall: { type: http, address: https://hooks.example.com/pager }
maintenance:
  first: { name: First window, from: 2027-01-03T02:00:00Z, to: 2027-01-03T03:00:00Z }
  second: { name: Second window, from: 2027-01-04T02:00:00Z, to: 2027-01-04T03:00:00Z }
`;

const readsAccount = (method: string, path: string) => method === "GET" && path === "/contact";
const createsContact = (method: string, path: string) => method === "POST" && path === "/contact";

/** What a user action must never show. */
function expectNoStackTrace(run: VigilRun) {
  expect(run.stdout + run.stderr).not.toMatch(/\n\s+at |AbortError|Error:|node:internal/);
}

const interruptedLine =
  "Interrupted: stopped before it finished; nothing was changed in the account. Releasing what it held (Ctrl+C again to exit at once).";

async function state(dir: string) {
  return JSON.parse(await readFile(join(dir, ".vigil/state.json"), "utf8")) as {
    resources: Record<string, { id?: string; pending?: { action: string } }>;
  };
}

describe("Ctrl+C while a command reads the account", () => {
  for (const args of [["plan"], ["apply", "--auto-approve"], ["export", "--out", "exported"]]) {
    it(`vigil ${args[0]}: one line, exit 130, nothing held`, { timeout: 60_000 }, async () => {
      const p = await project(sandbox(), { "main.yaml": config });
      const proxy = await proxied(readsAccount);
      const run = startVigil(args, {
        cwd: p.dir,
        env: { VIGIL_ENDPOINT: proxy.url, VIGIL_TOKEN: p.account.token },
      });
      await proxy.arrival();
      process.kill(run.pid, "SIGINT");
      const done = await run.done;
      expect(done.code, shown(done)).toBe(130);
      expect(done.stderr).toContain(`\n${interruptedLine}\n`);
      expectNoStackTrace(done);
      // apply held the state's lock while it read: released, not left for its lease to end.
      expect(existsSync(join(p.dir, ".vigil/state.json.lock"))).toBe(false);
      if (args[0] === "export") expect(existsSync(join(p.dir, "exported/main.yaml"))).toBe(false);
      expect((await p.account.get("/contact")).body.data).toEqual([]);
    });
  }
});

describe("Ctrl+C while apply writes (a sandbox server)", () => {
  it("stops starting writes, saves the one under way, releases the lock, exit 130", {
    timeout: 90_000,
  }, async () => {
    const p = await project(sandbox(), { "main.yaml": config });
    const proxy = await proxied(createsContact);
    const run = startVigil(["apply", "--auto-approve"], {
      cwd: p.dir,
      env: { VIGIL_ENDPOINT: proxy.url, VIGIL_TOKEN: p.account.token },
    });
    await proxy.arrival();
    process.kill(run.pid, "SIGINT");
    await run.printed("Interrupted: no write starts from now");
    await proxy.release();
    const done = await run.done;
    expect(done.code, shown(done)).toBe(130);
    expect(done.stderr).toContain(
      "\nInterrupted: no write starts from now; waiting for the writes under way to end and be saved (Ctrl+C again to exit at once).\n",
    );
    expect(done.stdout).toContain(
      "Apply interrupted: 1 created; 2 planned changes were not started. What was written is saved in the state (file .vigil/state.json). The state's lock is released: run vigil apply again to make the rest.\n",
    );
    expectNoStackTrace(done);
    // The write under way is saved; nothing else was written; the lock is gone.
    const saved = await state(p.dir);
    expect(saved.resources["contacts.oncall"]?.id).toBeTruthy();
    expect(saved.resources["contacts.oncall"]?.pending).toBeUndefined();
    expect(Object.keys(saved.resources)).toEqual(["contacts.oncall"]);
    expect(existsSync(join(p.dir, ".vigil/state.json.lock"))).toBe(false);
    expect((await p.account.get("/contact")).body.data).toHaveLength(1);
    expect((await p.account.get("/maintenance")).body.data).toEqual([]);
    // The next run makes the rest, and only the rest, with no wait for a lock.
    const next = await p.run(["apply", "--auto-approve", "--lock-timeout", "0"]);
    expect(next.code, shown(next)).toBe(0);
    expect(next.stdout).toContain("Apply complete: 2 created.");
  });

  it("a second Ctrl+C exits at once; the journal keeps the write under way for the next run", {
    timeout: 90_000,
  }, async () => {
    const p = await project(sandbox(), { "main.yaml": config });
    const proxy = await proxied(createsContact);
    const run = startVigil(["apply", "--auto-approve"], {
      cwd: p.dir,
      env: { VIGIL_ENDPOINT: proxy.url, VIGIL_TOKEN: p.account.token },
    });
    await proxy.arrival();
    process.kill(run.pid, "SIGINT");
    await run.printed("Interrupted: no write starts from now");
    process.kill(run.pid, "SIGINT");
    const done = await run.done;
    expect(done.code, shown(done)).toBe(130);
    expect(done.stderr).toContain(
      `\nInterrupted again: exiting at once. The writes under way stay pending in the state's journal, and the next run settles them, as after a killed run (docs/state.md, "The journal").\n`,
    );
    expectNoStackTrace(done);
    expect((await state(p.dir)).resources["contacts.oncall"]?.pending?.action).toBe("create");
    // The create it sent reaches the service after all: the next run adopts it, and creates it not twice.
    await proxy.release();
    expect((await p.account.get("/contact")).body.data).toHaveLength(1);
    const next = await p.run(["apply", "--auto-approve", "--lock-timeout", "0"]);
    expect(next.code, shown(next)).toBe(0);
    expect(next.stderr).toMatch(/contacts\.oncall: the create of an earlier run had succeeded; adopted/);
    expect(next.stdout).toContain("Apply complete: 2 created.");
    expect((await p.account.get("/contact")).body.data).toHaveLength(1);
  });
});

describe("Ctrl+C while apply writes to the embedded sandbox", () => {
  it("the writes under way end, the sandbox and the state agree, exit 130", { timeout: 90_000 }, async () => {
    const windows = Array.from(
      { length: 30 },
      (_, i) =>
        `  w${i}: { name: Window ${i}, from: 2027-01-0${1 + (i % 9)}T02:00:00Z, to: 2027-01-0${1 + (i % 9)}T03:00:00Z }`,
    );
    const w = await sandboxWorkspace({ "main.yaml": `maintenance:\n${windows.join("\n")}\n` });
    const run = startVigil(["apply", "--sandbox", "--auto-approve"], { cwd: w.dir });
    // Progress prints a line per resource without a terminal: the first says the writes have begun.
    await run.printed(": create done");
    process.kill(run.pid, "SIGINT");
    const done = await run.done;
    expect(done.code, shown(done)).toBe(130);
    expectNoStackTrace(done);
    const summary = /Apply interrupted: (\d+) created; (\d+) planned changes were not started\./.exec(
      done.stdout,
    );
    expect(summary, shown(done)).not.toBeNull();
    const [made, left] = [Number(summary![1]), Number(summary![2])];
    expect(made + left).toBe(30);
    expect(left, "writes stopped before the end").toBeGreaterThan(0);
    // The embedded sandbox kept what was written, and the state knows exactly that: the plan adds the rest.
    const plan = await w.run(["plan", "--sandbox", "--detailed-exitcode", "--lock-timeout", "0"]);
    expect(plan.code, shown(plan)).toBe(2);
    expect(plan.stdout).toContain(`Plan: ${left} to add, 0 to change, 0 to replace, 0 to destroy.`);
  });
});

describe("Ctrl+C in commands that only read", () => {
  it("vigil validate, while it reads the files", { timeout: 60_000 }, async () => {
    // Enough files that reading them takes a while on any machine; the signal comes once the loader reads.
    const files: Record<string, string> = {};
    for (let i = 0; i < 1500; i++)
      files[`c${i}.yaml`] = `contacts:\n  c${i}: { type: http, address: https://hooks.example.com/${i} }\n`;
    const w = await sandboxWorkspace(files);
    await writeFile(join(w.dir, "trace.mjs"), traceHook);
    const run = startVigil(["validate"], {
      cwd: w.dir,
      env: { NODE_OPTIONS: `--import ${join(w.dir, "trace.mjs")}` },
    });
    await run.printed(".yaml\n");
    process.kill(run.pid, "SIGINT");
    const done = await run.done;
    expect(done.code, shown(done)).toBe(130);
    expect(done.stderr).toContain(`\n${interruptedLine}\n`);
    expect(done.stdout).toBe("");
    expectNoStackTrace(done);
  });

  it("vigil state list, while it reads the state", { timeout: 60_000 }, async () => {
    const w = await sandboxWorkspace({});
    await mkdir(join(w.dir, ".vigil"));
    // A named pipe as the state: reading it waits until the test opens it, which tells the read began.
    const fifo = join(w.dir, ".vigil/state.json");
    execFileSync("mkfifo", [fifo]);
    const run = startVigil(["state", "list"], { cwd: w.dir });
    const writer = await open(fifo, "w");
    process.kill(run.pid, "SIGINT");
    await run.printed(interruptedLine);
    // The read ends once the pipe does; the run ended as it was told, before it could take what came.
    await writer.close();
    const done = await run.done;
    expect(done.code, shown(done)).toBe(130);
    expect(done.stderr).toBe(`\n${interruptedLine}\n`);
    expect(done.stdout).toBe("");
  });

  it("vigil watch: stops as asked, exit 130", { timeout: 60_000 }, async () => {
    const p = await project(sandbox(), { "main.yaml": config });
    const applied = await p.run(["apply", "--auto-approve"]);
    expect(applied.code, shown(applied)).toBe(0);
    const run = startVigil(["watch"], {
      cwd: p.dir,
      env: { VIGIL_ENDPOINT: sandbox().url, VIGIL_TOKEN: p.account.token },
    });
    await run.printed("Cadence: ");
    process.kill(run.pid, "SIGINT");
    const done = await run.done;
    expect(done.code, shown(done)).toBe(130);
    expect(done.stderr).toContain("SIGINT: stopping.\n");
    expectNoStackTrace(done);
  });
});

/**
 * Prints each file the run opens with fs/promises, on stderr: the test's sign that the loader began reading.
 * (Modules would be no sign: the package's program is one bundle.)
 */
const traceHook = `import fs from "node:fs/promises";
import { syncBuiltinESMExports } from "node:module";
const open = fs.open;
fs.open = (path, ...rest) => {
  process.stderr.write("opened " + path + "\\n");
  return open(path, ...rest);
};
syncBuiltinESMExports();
`;
