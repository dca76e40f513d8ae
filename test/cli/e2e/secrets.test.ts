import { stat } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { filesUnder, printedBy } from "../../helpers/secret-scan.ts";
import type { VigilRun } from "../vigil.ts";
import { project, shown, useSandbox } from "./helpers.ts";

/**
 * Credentials come in through `${env:...}` and must appear nowhere vigil
 * writes: stdout, stderr, a saved plan or the state. (`--sandbox`'s
 * `.vigil/sandbox.json` is the account's own data, credentials included, as
 * the service keeps them: it is not vigil's output and is not checked here;
 * these runs use an endpoint and token, so it does not exist.)
 *
 * Contact `httpHeaders` and monitor `settings.headers` are not credentials in
 * the API (they read back in full), yet a value that came from the
 * environment is kept secret all the same.
 */
const sandbox = useSandbox();

const secrets = {
  VIGIL_TEST_MONITOR_PW: "pw-Zq8xT3mK9vL2wQ7r",
  VIGIL_TEST_WEBHOOK_SECRET: "whsec-Yh4nB8cR2tX6jP0s",
  VIGIL_TEST_WEBHOOK_AUTH: "Bearer tok-Kd7fG1vN5mW3qZ9e",
  VIGIL_TEST_PAGER_TOKEN: "pager-Wv3Hs9Lq2Ty6",
  VIGIL_TEST_STATUS_TOKEN: "status-Pn5Dc1Rk8Mz4",
};
/** A new password, for a plan that changes one. */
const rotatedPassword = "pw-Rotated-Lm2Xc8Vb4Nq6";

const config = (webhookUrl = "https://hooks.example.com/vigil-secrets") => `monitors:
  login:
    type: http
    url: https://login.example.com/health
    name: Login
    interval: 60
    locations: { pools: [westeurope] }
    settings: { method: G, username: probe, password: "\${env:VIGIL_TEST_MONITOR_PW}", authSchema: Basic }
  status:
    type: http
    url: https://status.example.com/health
    locations: { pools: [westeurope] }
    settings: { headers: [{ name: Authorization, value: "Bearer \${env:VIGIL_TEST_STATUS_TOKEN}" }] }
contacts:
  pager:
    type: http
    address: https://pager.example.com/hook
    httpHeaders: [{ header: X-Token, value: "\${env:VIGIL_TEST_PAGER_TOKEN}" }]
webhooks:
  ops:
    url: ${webhookUrl}
    events: [monitor.down, monitor.up]
    scope: { all: true }
    secret: "\${env:VIGIL_TEST_WEBHOOK_SECRET}"
    headers: [{ header: Authorization, value: "\${env:VIGIL_TEST_WEBHOOK_AUTH}" }]
`;

/** Every file vigil wrote in the project: the saved plans and `.vigil/` (state, its history, and its lock if left). */
const writtenFiles = (dir: string) => filesUnder(dir, (name) => name.endsWith(".yaml"));

function expectNoSecret(texts: Record<string, string>, values: readonly string[]) {
  for (const [where, text] of Object.entries(texts))
    for (const value of values) expect(text.includes(value), `${value} in ${where}`).toBe(false);
}

describe.concurrent("secret masking", { timeout: 90_000 }, () => {
  it("validate, plan (human, JSON, Markdown, --out), apply, a changed password, state: no secret anywhere", async () => {
    const p = await project(sandbox(), { "main.yaml": config() }, secrets);
    const runs: Record<string, VigilRun> = {};
    const run = async (name: string, args: string[], env?: Record<string, string>) => {
      const r = await p.run(args, env ? { env } : {});
      runs[name] = r;
      return r;
    };
    expect((await run("validate", ["validate"])).code).toBe(0);
    const human = await run("plan", ["plan"]);
    expect(human.code, shown(human)).toBe(0);
    expect(human.stdout).toContain("+ settings.password: (sensitive)");
    expect(human.stdout).toContain("+ secret: (sensitive)");
    expect(human.stdout).toContain('+ headers: [{"header":"Authorization","value":(sensitive)}]');
    expect((await run("plan --json", ["plan", "--json"])).code).toBe(0);
    expect((await run("plan --markdown", ["plan", "--markdown"])).code).toBe(0);
    expect((await run("plan --out", ["plan", "--out", "plan.json"])).code).toBe(0);
    const apply = await run("apply", ["apply", "--auto-approve"]);
    expect(apply.code, shown(apply)).toBe(0);
    expect(apply.stdout).toContain("Apply complete: 4 created.");
    const again = await run("plan again", ["plan", "--detailed-exitcode"]);
    expect(again.code, shown(again)).toBe(0);

    // A new password is a change, shown masked; neither the old value nor the new one is printed.
    const rotated = { VIGIL_TEST_MONITOR_PW: rotatedPassword };
    const changed = await run("plan with a new password", ["plan", "--out", "rotated.json"], rotated);
    expect(changed.code, shown(changed)).toBe(0);
    expect(changed.stdout).toContain("~ settings.password: (sensitive)");
    expect(changed.stdout).toContain("Plan: 0 to add, 1 to change, 0 to replace, 0 to destroy.");
    expect((await run("plan --json with a new password", ["plan", "--json"], rotated)).code).toBe(0);
    const applyRotated = await run("apply rotated", ["apply", "--plan", "rotated.json"], rotated);
    expect(applyRotated.code, shown(applyRotated)).toBe(0);

    expect((await run("state list", ["state", "list"])).code).toBe(0);
    for (const address of ["monitors.login", "monitors.status", "contacts.pager", "webhooks.ops"]) {
      const show = await run(`state show ${address}`, ["state", "show", address]);
      expect(show.code, shown(show)).toBe(0);
    }

    const files = await writtenFiles(p.dir);
    // The state's history holds copies of the state: they are checked for secrets like the rest.
    const history = Object.keys(files).filter((n) => n.startsWith(".vigil/state.history/"));
    expect(history.length).toBeGreaterThan(0);
    expect(
      Object.keys(files)
        .filter((n) => !history.includes(n))
        .sort(),
    ).toEqual([".vigil/state.json", "plan.json", "rotated.json"]);
    expectNoSecret({ ...printedBy(runs), ...files }, [...Object.values(secrets), rotatedPassword]);
    for (const name of Object.keys(files)) expect((await stat(join(p.dir, name))).mode & 0o777).toBe(0o600);
    // The credentials did reach the account: masking is vigil's, not an empty value.
    const monitor = await p.account.get(`/monitor/${await p.idOf("monitors.login")}?expand=settings`);
    expect(monitor.body.settings.password).toBe(rotatedPassword);
    const contact = await p.account.get(`/contact/${await p.idOf("contacts.pager")}`);
    expect(contact.body.httpHeaders).toEqual([{ header: "X-Token", value: secrets.VIGIL_TEST_PAGER_TOKEN }]);
  });

  it("a config error on a credential and a refused apply print no secret", async () => {
    // A webhook secret must be 16 characters at least: this one is refused before any call.
    const short = "Sh0rt-Qx7Kp2Wz9";
    const p = await project(
      sandbox(),
      { "main.yaml": config() },
      { ...secrets, VIGIL_TEST_WEBHOOK_SECRET: short },
    );
    const runs: Record<string, VigilRun> = {};
    for (const args of [["validate"], ["plan"], ["apply", "--auto-approve"]]) {
      const r = await p.run(args);
      runs[args.join(" ")] = r;
      expect(r.code, shown(r)).toBe(1);
      expect(r.stderr).toMatch(/main\.yaml:\d+:\d+: webhooks\.ops secret: /);
    }

    // The service refuses a loopback address (a policy vigil leaves to it: a sandbox may take one): the
    // monitors and the contact are created, the webhook fails with a 422.
    await p.write("main.yaml", config("https://127.0.0.1/vigil"));
    const valid = { VIGIL_TEST_WEBHOOK_SECRET: secrets.VIGIL_TEST_WEBHOOK_SECRET };
    const refused = await p.run(["apply", "--auto-approve"], { env: valid });
    runs["refused apply"] = refused;
    expect(refused.code, shown(refused)).toBe(1);
    expect(refused.stderr).toContain("Error: webhooks.ops: create failed:");
    expect(refused.stdout).toContain("Apply finished with 1 failure(s): 3 created.");

    const files = await writtenFiles(p.dir);
    expect(Object.keys(files).filter((n) => !n.startsWith(".vigil/state.history/"))).toEqual([
      ".vigil/state.json",
    ]);
    expectNoSecret({ ...printedBy(runs), ...files }, [...Object.values(secrets), short]);
  });
});
