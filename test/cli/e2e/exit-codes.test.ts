import { mkdir } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FileStateStore } from "../../../src/engine/index.ts";
import { startTestSandbox } from "../../helpers/sandbox.ts";
import { vigil } from "../vigil.ts";
import { project, sandboxWorkspace, shown, useSandbox } from "./helpers.ts";

/** Exit codes: 0 success or no changes, 1 an error, 2 changes (only with --detailed-exitcode). */
const sandbox = useSandbox();

const config = `contacts:
  oncall: { type: http, address: https://hooks.example.com/pager }
monitors:
  web:
    type: http
    url: https://web.example.com/health
    name: Web
    interval: 60
    locations: { pools: [westeurope] }
    alerts: [{ contact: oncall, alertTypes: [down, up] }]
`;

const needsApproval = "vigil apply needs --auto-approve when it does not run in a terminal";

describe("without an account", () => {
  it("refuses apply and destroy without a terminal or --auto-approve, before any call", async () => {
    // A sandbox of its own: its request counts are this test's alone.
    const quiet = await startTestSandbox();
    try {
      const account = await quiet.account();
      const env = { VIGIL_ENDPOINT: quiet.url, VIGIL_TOKEN: account.token };
      const { dir } = await sandboxWorkspace({ "main.yaml": config });
      const before = (await quiet.admin.get("/_sandbox/stats")).body;
      const apply = await vigil(["apply"], { cwd: dir, env });
      expect(apply.code, shown(apply)).toBe(1);
      expect(apply.stderr).toContain(needsApproval);
      expect(apply.stdout).toBe("");
      const destroy = await vigil(["destroy"], { cwd: dir, env });
      expect(destroy.code, shown(destroy)).toBe(1);
      expect(destroy.stderr).toContain("vigil destroy needs --auto-approve");
      const after = (await quiet.admin.get("/_sandbox/stats")).body;
      // The first stats read counts itself; nothing else may have reached the sandbox.
      expect(publicCalls(after.byRoute)).toEqual(publicCalls(before.byRoute));
      expect(publicCalls(after.byRoute)).toEqual({});
    } finally {
      await quiet.close();
    }
  });
});

/** Request counts of the public API, without the sandbox's own `/_sandbox/` routes. */
function publicCalls(byRoute: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(byRoute).filter(([route]) => !route.includes(" /_sandbox/")));
}

describe.concurrent("exit codes", { timeout: 90_000 }, () => {
  it("validate: 0 for a valid config, 1 with file:line:column for a bad one", async () => {
    const p = await project(sandbox(), { "main.yaml": config });
    const ok = await p.run(["validate"]);
    expect(ok.code, shown(ok)).toBe(0);
    expect(ok.stdout).toBe("The configuration is valid: 3 resources in 1 file.\n");

    await p.write("main.yaml", config.replace("interval: 60", "intervall: 60"));
    const bad = await p.run(["validate"]);
    expect(bad.code, shown(bad)).toBe(1);
    expect(bad.stderr).toMatch(/^Error: main\.yaml:8:5: monitors\.web intervall: .*did you mean "interval"/m);
    expect(bad.stderr).toContain("1 problem in the configuration; nothing was sent to the API.");
  });

  it("plan: 0 with changes, 2 with --detailed-exitcode; 0 either way once applied", async () => {
    const p = await project(sandbox(), { "main.yaml": config });
    const plan = await p.run(["plan"]);
    expect(plan.code, shown(plan)).toBe(0);
    expect(plan.stdout).toContain("Plan: 3 to add, 0 to change, 0 to replace, 0 to destroy.");
    const detailed = await p.run(["plan", "--detailed-exitcode"]);
    expect(detailed.code, shown(detailed)).toBe(2);

    const apply = await p.run(["apply", "--auto-approve"]);
    expect(apply.code, shown(apply)).toBe(0);
    expect(apply.stdout).toContain("Apply complete: 3 created.");

    for (const args of [["plan"], ["plan", "--detailed-exitcode"]]) {
      const again = await p.run(args);
      expect(again.code, shown(again)).toBe(0);
      expect(again.stdout).toContain("No changes. The account matches the configuration.");
    }
  });

  it("a bad config is 1 for plan and apply too, and nothing is sent", async () => {
    const p = await project(sandbox(), {
      "main.yaml": config.replace("contact: oncall", "contact: on-call"),
    });
    for (const args of [["plan"], ["apply", "--auto-approve"]]) {
      const run = await p.run(args);
      expect(run.code, shown(run)).toBe(1);
      expect(run.stderr).toMatch(/main\.yaml:10:\d+: .*on-call/);
      expect(run.stderr).toContain("nothing was sent to the API");
    }
    expect((await p.account.get("/monitor")).body.data).toEqual([]);
  });

  it("an unreachable endpoint is 1 with a clear message, not a stack trace", async () => {
    const p = await project(sandbox(), { "main.yaml": config });
    // Port 1 on loopback: nothing listens there, so every connection is refused at once.
    const run = await p.run(["plan"], { env: { VIGIL_ENDPOINT: "http://127.0.0.1:1" } });
    expect(run.code, shown(run)).toBe(1);
    expect(run.stderr).toMatch(
      /^Error: Cannot reach the API: GET \/account\/quota failed .*ECONNREFUSED 127\.0\.0\.1:1$/m,
    );
    expect(run.stderr).not.toMatch(/^\s+at /m);
    // The refusal is said at the first attempt, then each retry with its wait: never a silent wait.
    const lines = run.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(8);
    for (const [i, line] of lines.slice(0, 7).entries())
      expect(line).toMatch(
        new RegExp(
          `^Cannot reach the API at http://127\\.0\\.0\\.1:1 \\(GET /account/quota: connect ECONNREFUSED 127\\.0\\.0\\.1:1\\); retry ${i + 1} of 7 in \\d+\\.\\d s\\.$`,
        ),
      );
    expect(lines[7]).toMatch(/^Error: Cannot reach the API/);
  });

  it("a missing token or endpoint is 1 and says how to give one", async () => {
    const p = await project(sandbox(), { "main.yaml": config });
    const noToken = await p.run(["plan"], { env: { VIGIL_TOKEN: "" } });
    expect(noToken.code, shown(noToken)).toBe(1);
    expect(noToken.stderr).toBe("Error: No API token: pass --token TOKEN or set VIGIL_TOKEN.\n");
    const noEndpoint = await p.run(["plan"], { env: { VIGIL_ENDPOINT: "" } });
    expect(noEndpoint.code, shown(noEndpoint)).toBe(1);
    expect(noEndpoint.stderr).toBe(
      "Error: No API endpoint: pass --endpoint URL or set VIGIL_ENDPOINT (or use --sandbox).\n",
    );
    // Flags work as well as the environment.
    const flags = await p.run(["plan", "--endpoint", sandbox().url, "--token", p.account.token], {
      env: { VIGIL_ENDPOINT: "", VIGIL_TOKEN: "" },
    });
    expect(flags.code, shown(flags)).toBe(0);
  });

  it("a wrong token is 1 with the API's answer", async () => {
    const p = await project(sandbox(), { "main.yaml": config });
    const run = await p.run(["plan"], { env: { VIGIL_TOKEN: "not-a-token" } });
    expect(run.code, shown(run)).toBe(1);
    expect(run.stderr).toMatch(/^Error: The API refused GET \/account\/quota: 401 /);
  });

  it("apply --plan applies a saved plan without --auto-approve, and refuses a stale one with 1", async () => {
    const p = await project(sandbox(), { "main.yaml": config });
    const saved = await p.run(["plan", "--out", "plan.json"]);
    expect(saved.code, shown(saved)).toBe(0);
    expect(saved.stderr).toContain("Saved the plan to plan.json; apply it with vigil apply --plan plan.json");
    const apply = await p.run(["apply", "--plan", "plan.json"]);
    expect(apply.code, shown(apply)).toBe(0);
    expect(apply.stdout).toContain("Apply complete: 3 created.");

    await p.write("main.yaml", config.replace("interval: 60", "interval: 300"));
    expect((await p.run(["plan", "--out", "plan.json"])).code).toBe(0);
    // Someone edits the monitor between the plan and its apply.
    const edit = await p.account.patch(`/monitor/${await p.idOf("monitors.web")}`, { name: "Web (edited)" });
    expect(edit.status).toBe(200);
    const stale = await p.run(["apply", "--plan", "plan.json"]);
    expect(stale.code, shown(stale)).toBe(1);
    expect(stale.stderr).toMatch(/stale/i);
    expect(stale.stderr).toContain("monitors.web");
    expect(stale.stdout).not.toContain("Apply complete");
    expect((await p.account.get(`/monitor/${await p.idOf("monitors.web")}`)).body.interval).toBe(60);
  });

  it("a missing or foreign plan file is 1", async () => {
    const p = await project(sandbox(), { "main.yaml": config, "not-a-plan.json": '{"hello": 1}' });
    const missing = await p.run(["apply", "--plan", "nowhere.json"]);
    expect(missing.code, shown(missing)).toBe(1);
    expect(missing.stderr).toBe("Error: Cannot read the plan file nowhere.json: no such file\n");
    const foreign = await p.run(["apply", "--plan", "not-a-plan.json"]);
    expect(foreign.code, shown(foreign)).toBe(1);
    expect(foreign.stderr).toContain("not-a-plan.json is not a vigil plan");
  });

  it("a held state lock is 1 after --lock-timeout, naming its holder; plans and reads take no lock", async () => {
    const p = await project(sandbox(), { "main.yaml": config });
    await mkdir(join(p.dir, ".vigil"));
    const lock = await new FileStateStore(join(p.dir, ".vigil/state.json"), { operation: "apply" }).lock();
    try {
      const started = Date.now();
      const apply = await p.run(["apply", "--auto-approve", "--lock-timeout", "1s"]);
      expect(apply.code, shown(apply)).toBe(1);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
      const who = `@${hostname()} (pid ${process.pid}, vigil `;
      expect(apply.stderr).toContain(`Waiting: state ${join(p.dir, ".vigil/state.json")} is locked by `);
      expect(apply.stderr).toContain(who);
      expect(apply.stderr).toContain("Gave up after waiting 1s (--lock-timeout)");
      expect(apply.stderr).toMatch(/vigil state unlock [0-9a-f-]{36} releases it now/);
      for (const args of [["plan"], ["state", "list"]]) {
        const run = await p.run(args);
        expect(run.stderr, shown(run)).not.toContain("locked");
      }
    } finally {
      await lock.release();
    }
    expect((await p.account.get("/monitor")).body.data).toEqual([]);
  });

  it("usage errors are 1", async () => {
    const p = await project(sandbox(), { "main.yaml": config });
    const both = await p.run(["plan", "--json", "--markdown"]);
    expect(both.code, shown(both)).toBe(1);
    expect(both.stderr).toBe("Error: --json and --markdown cannot be used together.\n");
    const refresh = await p.run(["plan", "--refresh=maybe"]);
    expect(refresh.code, shown(refresh)).toBe(1);
    expect(refresh.stderr).toContain('--refresh takes true or false, not "maybe"');
    const unknown = await p.run(["plan", "--frobnicate"]);
    expect(unknown.code, shown(unknown)).toBe(1);
    expect(unknown.stderr).toContain("unknown option '--frobnicate'");
  });
});
