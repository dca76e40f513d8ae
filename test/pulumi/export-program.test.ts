/**
 * `vigil export --format pulumi` of an account holding every kind, with references between them and
 * credentials set: the program type-checks against the SDK with the real tsc, and runs under Pulumi's mocks
 * (the real @pulumi/pulumi runtime, no Pulumi CLI), which give each resource's inputs as the engine would
 * send them, references resolved to the imported ids. Then what `pulumi up` does for `{ import: id }`, over
 * the provider's gRPC protocol: Read by id, Check the program's inputs against the inputs read, Diff them
 * against the live object: no change for any resource, or the import would fail.
 */
import { execFile } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DesiredResource } from "../../src/engine/index.ts";
import { getAt, toPointer } from "../../src/engine/pointer.ts";
import type { Props } from "../../src/pulumi/provider/values.ts";
import { vigil, workspace } from "../cli/vigil.ts";
import {
  appliedFixture,
  exportFixture,
  exportWith,
  fixtureCredentials,
} from "../helpers/exported-account.ts";
import { linkPackages, nodeBin, tscBin } from "../helpers/linked-project.ts";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";
import { Engine, ProviderProcess } from "./harness.ts";

const run = promisify(execFile);
const tag = "puexport";
const fixture = exportFixture(tag, '{"user":"${USER}","quote":"`\\\\"}');
const credentialValues = fixtureCredentials(tag);

interface Registration {
  type: string;
  name: string;
  id: string;
  inputs: Props;
}

describe("vigil export --format pulumi", () => {
  let sb: TestSandbox;
  let dir: string;
  let endpoint: { endpoint: string; token: string };
  /** Live id → the fixture's resource. */
  let byId: Map<string, DesiredResource>;
  let exported: Awaited<ReturnType<typeof vigil>>;
  let files: Record<string, string>;
  /** Config key → the value the fixture applied there. */
  let config: Record<string, string>;

  beforeAll(async () => {
    sb = await startTestSandbox();
    const applied = await appliedFixture(sb, fixture);
    const { account } = applied;
    byId = applied.byId;
    endpoint = { endpoint: sb.url, token: account.token };
    const home = await workspace();
    dir = join(home, "program");
    ({ exported, files } = await exportWith(sb, account.token, { format: "pulumi", dir, cwd: home }));
    const imports = new Map(
      [
        ...files["index.ts"]!.matchAll(
          /new vigil\.(\w+)\(\n {2}"([^"]+)",[\s\S]*?\{ import: "([^"]+)" \},\n\);/g,
        ),
      ].map(([, type, name, id]) => [`${type} ${name}`, id!]),
    );
    config = {};
    for (const [, key, address, member] of exported.stdout.matchAll(/^ {2}(\w+) {2}\((\w+ \S+) (\S+)\)$/gm)) {
      const resource = byId.get(imports.get(address!)!)!;
      config[key!] = String(getAt(resource.members, toPointer(member!)));
    }
    await linkPackages(dir, ["@pulumi", "@types"]);
  }, 300_000);

  afterAll(async () => sb?.close());

  it("writes the program, the project, its package and tsconfig; no credential, no null, ids only in imports", () => {
    expect(Object.keys(files).sort()).toEqual(
      [
        ".vigil-export.json",
        "Pulumi.yaml",
        "index.ts",
        "node_modules",
        "package.json",
        "tsconfig.json",
      ].filter((f) => f !== "node_modules"),
    );
    const manifest = JSON.parse(files["package.json"]!);
    expect(manifest.dependencies).toEqual({ "@pulumi/pulumi": expect.any(String), vigil: "^0.1.0" });
    expect(files["Pulumi.yaml"]).toContain("path: ./node_modules/vigil/bin");
    expect(exported.stdout).toContain(`Exported ${byId.size} objects, each with its import.`);
    // The webhook's own secret and its header values read back masked: nobody can know them, and the import
    // leaves them unset, as Terraform's does.
    expect(exported.stdout).toContain(
      `Left out, since the API never shows them (the objects keep their values; add them to manage them):\n  Webhook events-${tag} secret\n  Webhook events-${tag} headers\n`,
    );
    const text = Object.values(files).join("\n");
    for (const secret of credentialValues) expect(text).not.toContain(secret);
    expect(files["index.ts"]).not.toMatch(/\bnull\b/);
    for (const id of byId.keys()) {
      const uses = files["index.ts"]!.split(`"${id}"`).length - 1;
      expect(uses, `${id} appears outside its import`).toBe(1);
      expect(files["index.ts"]).toContain(`{ import: "${id}" }`);
    }
  });

  it("writes references as expressions and credentials as config secrets", () => {
    const program = files["index.ts"]!;
    expect(program).toContain(
      "\nnew vigil.AlertSubscription(\n" +
        `  "http-full-${tag}-hook-${tag}",\n` +
        "  {\n" +
        `    monitorId: httpFull${cap(tag)}.id,\n` +
        `    contactId: hook${cap(tag)}.id,\n` +
        '    alertTypes: ["repeatedlyDown", "down", "up"],\n' +
        "  },\n",
    );
    expect(program).toContain(
      `const monitorsHttpFull${cap(tag)}SettingsPassword = config.requireSecret("monitorsHttpFull${cap(tag)}SettingsPassword");`,
    );
    expect(program).toContain(`      password: monitorsHttpFull${cap(tag)}SettingsPassword,\n`);
    expect(program).toMatch(/ {4}from: 1893895200, \/\/ 2030-01-06T02:00:00Z\n/);
    // A program's exports are its stack's outputs: none; a constant only for what others reference.
    expect(program).not.toMatch(/^export /m);
    expect(program).toContain(`\nconst httpFull${cap(tag)} = new vigil.Monitor(\n`);
  });

  it("type-checks against the SDK with tsc --noEmit", { timeout: 180_000 }, async () => {
    const result = await run(tscBin, ["-p", dir], { cwd: dir }).catch((e: { stdout: string }) => e);
    expect(result.stdout).toBe("");
  });

  it("imports every resource with no change: Read, Check and Diff over the provider's gRPC protocol", {
    timeout: 300_000,
  }, async () => {
    const registrations = await runMocked(dir, config);
    expect(registrations.map((r) => r.id).sort()).toEqual([...byId.keys()].sort());
    const provider = await ProviderProcess.launch();
    try {
      await provider.configure(endpoint);
      const engine = new Engine(provider);
      const changed: string[] = [];
      for (const r of registrations) {
        const urn = engine.urnOf(r.type, r.name);
        const read = await provider.read(urn, r.id);
        expect(read.id, `${r.type} ${r.name}`).toBe(r.id);
        const checked = await provider.check(urn, read.inputs, r.inputs);
        expect(checked.failures, `${r.type} ${r.name}`).toEqual([]);
        const diff = await provider.diff(urn, r.id, read.properties ?? {}, checked.inputs, read.inputs ?? {});
        if (diff.changes !== "DIFF_NONE")
          changed.push(`${r.type} ${r.name}: ${JSON.stringify(diff.detailedDiff)}`);
      }
      expect(changed).toEqual([]);
    } finally {
      await provider.close();
    }
  });

  it("exports the same files again, byte for byte", { timeout: 120_000 }, async () => {
    const other = join(dir, "..", "again");
    const again = await vigil(
      [
        "export",
        "--format",
        "pulumi",
        "--out",
        other,
        "--endpoint",
        endpoint.endpoint,
        "--token",
        endpoint.token,
      ],
      { cwd: join(dir, ".."), timeoutMs: 120_000 },
    );
    expect(again.code, again.stderr).toBe(0);
    for (const [name, text] of Object.entries(files))
      expect(await readFile(join(other, name), "utf8"), name).toBe(text);
  });
});

const cap = (word: string) => `${word.charAt(0).toUpperCase()}${word.slice(1)}`;

/**
 * Runs the program with the pinned Node under Pulumi's mocks, its config set: each resource registers with
 * its inputs as the engine receives them (secrets marked), and its import id, which the mock answers as its
 * id, so references resolve to the live ids.
 */
async function runMocked(dir: string, config: Record<string, string>): Promise<Registration[]> {
  const runner = join(dir, "mocked.ts");
  const keys = Object.fromEntries(Object.entries(config).map(([k, v]) => [`vigil-account:${k}`, v]));
  await writeFile(
    runner,
    `import * as pulumi from "@pulumi/pulumi";
const registered: { type: string; name: string; id: string; inputs: Record<string, unknown> }[] = [];
pulumi.runtime.setAllConfig(${JSON.stringify(keys)}, ${JSON.stringify(Object.keys(keys))});
await pulumi.runtime.setMocks(
  {
    newResource: (args) => {
      registered.push({ type: args.type, name: args.name, id: args.id ?? "", inputs: args.inputs });
      return { id: args.id ?? "", state: args.inputs };
    },
    call: () => ({}),
  },
  "vigil-account",
  "dev",
  false,
);
await import("./index.ts");
// Every registration (those waiting on a referenced resource's id included) is an RPC it waits for.
await pulumi.runtime.disconnect();
process.stdout.write(JSON.stringify(registered));
`,
  );
  const { stdout } = await run(nodeBin, ["--disable-warning=ExperimentalWarning", runner], {
    cwd: dir,
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(stdout) as Registration[];
}
