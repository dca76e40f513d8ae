/**
 * The secret scan, refusals (issue 25, point 7): every place a refusal is said, with the refused value
 * holding a secret. The loader's diagnostics, the plan's account checks, the service's problems (one
 * call's, and a bulk job's items) in the CLI, where the secret came from `${env:...}`; Terraform's
 * diagnostics, where it is a credential (the provider is told of no other secret); Pulumi's errors and
 * check failures, where the program made it a secret or it is a credential; and the API token, given where
 * the endpoint goes. Each refusal must still be said (its code, the member at its place), and no secret may
 * be, in anything printed or written.
 *
 * test/secret-scan.test.ts scans the flows that succeed, for every credential of every kind.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHandlers as pulumiHandlers } from "../src/pulumi/provider/handlers.ts";
import { secret } from "../src/pulumi/provider/values.ts";
import { project, shown } from "./cli/e2e/helpers.ts";
import type { VigilRun } from "./cli/vigil.ts";
import { startTestSandbox, type TestSandbox } from "./helpers/sandbox.ts";
import { filesUnder, printedBy, secretsIn } from "./helpers/secret-scan.ts";
import { configuredCore } from "./helpers/terraform-core.ts";

const random = () => Math.random().toString(36).slice(2, 12);
/** Distinctive secrets, so finding one anywhere is no coincidence. */
const secrets = {
  token: `Tok-${random()}-refusal`,
  pool: `Pool-${random()}-refusal`,
  contact: `oncall-${random()}-refusal`,
  password: `Pw-${random()}-refusal`,
  pulumiUrlToken: `PuTok-${random()}-refusal`,
  pulumiPool: `PuPool-${random()}-refusal`,
  apiToken: `ApiTok-${random()}-refusal`,
};

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(async () => {
  await sb?.close();
});

function expectNoSecret(texts: Record<string, string>) {
  expect(secretsIn(texts, secrets, { ignoreCase: true })).toEqual([]);
}

const monitor = (name: string, members: string) => `  ${name}:
    type: http
    locations: { pools: [westeurope] }
${members}`;

/** A monitor whose url carries the token from the environment, on a host the service refuses. */
const blocked = (name: string) =>
  monitor(name, `    url: "https://${name}.blocked.test/health?token=\${env:SCAN_TOKEN}"\n`);

/** Each CLI flow: its files, the commands run on them, and what each one's refusal must say. */
const flows = {
  "the loader (a reference to a name no contact has)": {
    files: `contacts:\n  pager:\n    type: email\n    address: pager@example.com\nmonitors:\n${monitor(
      "web",
      `    url: https://web.example.com/\n    alerts: [{ contact: "\${env:SCAN_CONTACT}", alertTypes: [down] }]\n`,
    )}`,
    runs: [["validate"], ["plan"]],
    says: /main\.yaml:\d+:\d+: monitors\.web\.alerts\.\(sensitive\) contact: \S*\(sensitive\)\S* is not declared; declared contacts: pager/,
  },
  "the plan's account checks (an unknown pool)": {
    files: `monitors:\n  web:\n    type: http\n    url: https://web.example.com/\n    locations: { pools: ["\${env:SCAN_POOL}"] }\n`,
    runs: [["plan"], ["plan", "--json"], ["plan", "--markdown"]],
    says: /main\.yaml:\d+:\d+: monitors\.web locations\.pools\[0\]: 422 unknown_pool: "\(sensitive\)" is not a location pool/,
  },
  "a refused call": {
    files: `monitors:\n${blocked("single")}`,
    runs: [["apply", "--auto-approve"]],
    says: /POST \/monitor: 403 url_blacklisted[^\n]*\n {2}main\.yaml:\d+:\d+: monitors\.single url: got "\(sensitive\)"/,
  },
  "a bulk job's refused items": {
    files: `monitors:\n${blocked("one")}${blocked("two")}${blocked("three")}`,
    runs: [["apply", "--auto-approve"]],
    says: /monitor bulk create: 403 url_blacklisted[^\n]*\n {2}main\.yaml:\d+:\d+: monitors\.\w+ url: got "\(sensitive\)"/,
  },
};

describe("secret scan: refusals", { timeout: 180_000 }, () => {
  it.each(Object.entries(flows))("the CLI: %s", async (_name, flow) => {
    const env = { SCAN_TOKEN: secrets.token, SCAN_POOL: secrets.pool, SCAN_CONTACT: secrets.contact };
    const p = await project(sb, { "main.yaml": flow.files }, env);
    const runs: Record<string, VigilRun> = {};
    for (const args of flow.runs) {
      const r = await p.run(args);
      runs[args.join(" ")] = r;
      expect(r.code, shown(r)).toBe(1);
      expect(r.stderr, shown(r)).toMatch(flow.says);
    }
    const written = await filesUnder(p.dir, (name) => name.endsWith(".yaml"));
    expectNoSecret({ ...written, ...printedBy(runs) });
  });

  it("the CLI: the API token given where the endpoint goes is refused without being shown", async () => {
    const p = await project(sb, {
      "main.yaml": `monitors:\n${monitor("web", "    url: https://web.example.com/\n")}`,
    });
    const r = await p.run(["plan", "--endpoint", secrets.apiToken, "--token", secrets.apiToken]);
    expect(r.code, shown(r)).toBe(1);
    expect(r.stderr).toContain('--endpoint must be an http(s) URL, not "(sensitive)"');
    expectNoSecret({ stdout: r.stdout, stderr: r.stderr });
  });

  it("Terraform: an account check and a refused create echoing a credential say it masked", async () => {
    const account = await sb.account({ plan: "enterprise" });
    const diagnostics: unknown[] = [];
    const core = await configuredCore({ VIGIL_ENDPOINT: sb.url, VIGIL_TOKEN: account.token }, diagnostics);
    // The credential reaches the refused members too: the service echoes them, and nothing may show it.
    const members = (url: string, pools: string[]) =>
      core.config("vigil_monitor", {
        type: "http",
        url,
        locations: { pools },
        settings: { method: "G", username: "probe", password: secrets.password, authSchema: "Basic" },
      });
    const thrown: string[] = [];
    const fails = (promise: Promise<unknown>) =>
      promise.then(
        () => expect.unreachable("refused"),
        (error: Error) => thrown.push(error.message),
      );
    await fails(core.plan("vigil_monitor", null, members("https://ok.example.com/", [secrets.password])));
    const refused = members(`https://tf.blocked.test/?p=${secrets.password}`, ["westeurope"]);
    await fails(core.apply("vigil_monitor", null, await core.plan("vigil_monitor", null, refused), refused));
    expect(thrown[0]).toContain("unknown_pool");
    expect(thrown[1]).toContain("url_blacklisted");
    expect(thrown[1]).toContain('got \\"https://tf.blocked.test/?p=(sensitive)\\"');
    expectNoSecret({ diagnostics: JSON.stringify(diagnostics), thrown: thrown.join("\n") });
  });

  it("Pulumi: check failures and a refused create say no secret input nor credential", async () => {
    const account = await sb.account({ plan: "enterprise" });
    const p = pulumiHandlers({});
    p.Configure({ args: { endpoint: sb.url, token: secret(account.token) } });
    const urn = (name: string) => `urn:pulumi:dev::scan::vigil:index:Monitor::${name}`;
    const checked = await p.Check({
      urn: urn("pools"),
      news: {
        type: "http",
        url: "https://ok.example.com/",
        locations: { pools: [secret(secrets.pulumiPool)] },
      },
    });
    expect(checked.failures.map((f) => f.reason)).toEqual([expect.stringContaining("422 unknown_pool")]);
    const said: string[] = [JSON.stringify(checked.failures)];
    for (const [name, url] of [
      ["secret-url", secret(`https://pu.blocked.test/?token=${secrets.pulumiUrlToken}`)],
      // A credential given plainly (no pulumi.secret()), echoed inside a refused url.
      ["credential-url", `https://pu2.blocked.test/?p=${secrets.password}`],
    ] as const) {
      const news = {
        type: "http",
        url,
        locations: { pools: ["westeurope"] },
        settings: { method: "G", username: "probe", password: secrets.password, authSchema: "Basic" },
      };
      const inputs = (await p.Check({ urn: urn(name), news })).inputs;
      const error = await p.Create({ urn: urn(name), properties: inputs }).then(
        () => expect.unreachable("refused"),
        (e: Error) => e,
      );
      expect(error.message).toMatch(/403 url_blacklisted[\s\S]*url: got "[^"]*\(sensitive\)"/);
      said.push(error.message, String(error.stack));
    }
    expectNoSecret({ pulumi: said.join("\n") });
  });
});
