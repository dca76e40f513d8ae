/**
 * The published package as a Pulumi program gets it: `npm run pack`'s tarball installed into a temporary
 * project beside @pulumi/pulumi, then its exports imported by Node, its types checked by tsc, the example
 * program run against it under Pulumi's mocks, its provider entry point launched as Pulumi launches it, and
 * the CLI and the Terraform provider run from its bin.
 */
import { execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resourceClassNames } from "../../src/pulumi/tokens.ts";
import { pack } from "../../tools/pack.ts";
import { launchProvider } from "../helpers/plugin.ts";
import { firstLine, pluginInfo } from "../helpers/pulumi-plugin.ts";

const run = promisify(execFile);
const root = resolve(import.meta.dirname, "../..");
/** The repository's Node 22 first on PATH: the package's entry points run on whatever `node` PATH finds. */
const env = { ...process.env, PATH: `${join(root, "node_modules/.bin")}:${process.env.PATH ?? ""}` };
const { version } = JSON.parse(await readFile(join(root, "package.json"), "utf8")) as { version: string };

let project: string;
let tarball: string;

beforeAll(async () => {
  tarball = await pack(root);
  project = await mkdtemp(join(tmpdir(), "vigil-package-"));
  const example = join(root, "examples/pulumi");
  for (const file of ["index.ts", "Pulumi.yaml", "package.json"])
    await cp(join(example, file), join(project, file));
  const manifest = JSON.parse(await readFile(join(project, "package.json"), "utf8"));
  manifest.dependencies.vigil = `file:${tarball}`;
  await writeFile(join(project, "package.json"), JSON.stringify(manifest, null, 2));
  // The npm cache that `npm ci` filled serves every dependency; the registry only for what it lacks.
  await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts"], {
    cwd: project,
    env,
  });
}, 600_000);

afterAll(async () => {
  if (project) await rm(project, { recursive: true, force: true });
}, 120_000);

describe("the npm package", () => {
  it("holds compiled modules with declarations, the provider's folder, the schemas, and no sources or tests", async () => {
    const { stdout } = await run("tar", ["-tzf", tarball]);
    const files = stdout.split("\n").filter(Boolean);
    for (const file of [
      "package/package.json",
      "package/bin/pulumi-resource-vigil",
      "package/bin/pulumi-resource-vigil.mjs",
      "package/bin/vigil.cjs",
      "package/bin/vigil.bundle.cjs",
      "package/bin/terraform-provider-vigil",
      "package/bin/terraform-provider-vigil.mjs",
      "package/src/pulumi/sdk/index.js",
      "package/src/pulumi/sdk/index.d.ts",
      "package/src/pulumi/provider/main.js",
      "package/src/cli/main.js",
      "package/src/terraform/plugin/proto/descriptor.json",
      "package/schemas/pulumi-schema.json",
      "package/provider.json",
      "package/THIRD-PARTY-NOTICES.txt",
    ])
      expect(files).toContain(file);
    expect(files.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))).toEqual([]);
    expect(
      files.filter((f) => f.startsWith("package/test/") || f.startsWith("package/node_modules/")),
    ).toEqual([]);
    const manifest = JSON.parse(await readFile(join(project, "node_modules/vigil/package.json"), "utf8"));
    expect(manifest.private).toBeUndefined();
    expect(manifest.scripts).toBeUndefined();
    expect(manifest.devDependencies).toBeUndefined();
    expect(manifest.peerDependencies).toHaveProperty("@pulumi/pulumi");
    expect(manifest.peerDependenciesMeta["@pulumi/pulumi"]).toEqual({ optional: true });
    expect(manifest.engines).toEqual({ node: ">=22.13" });
    expect(manifest.bin).toEqual({
      vigil: "bin/vigil.cjs",
      "terraform-provider-vigil": "bin/terraform-provider-vigil",
      "pulumi-resource-vigil": "bin/pulumi-resource-vigil",
    });
  });

  it("exports vigil/pulumi (every class and function) and vigil/cdktf to Node", async () => {
    const script = [
      'const pulumi = await import("vigil/pulumi");',
      'const cdktf = await import("vigil/cdktf");',
      "console.log(JSON.stringify({ pulumi: Object.keys(pulumi), cdktf: Object.keys(cdktf) }));",
    ].join("\n");
    const { stdout } = await run("node", ["--input-type=module", "-e", script], { cwd: project, env });
    const exported = JSON.parse(stdout) as { pulumi: string[]; cdktf: string[] };
    expect(exported.pulumi).toEqual(
      expect.arrayContaining([
        ...Object.values(resourceClassNames),
        "Provider",
        "getMonitorTypes",
        "getAgentPools",
        "getAccount",
      ]),
    );
    expect(exported.cdktf).toEqual(expect.arrayContaining(["VigilProvider", "Monitor", "Webhook"]));
  });

  it("types the example program, and refuses a wrong member type or value", async () => {
    await writeFile(
      join(project, "wrong.ts"),
      [
        'import { Monitor } from "vigil/pulumi";',
        "// @ts-expect-error: url is a string",
        'new Monitor("wrong", { type: "http", name: "Wrong", url: 42 });',
        "// @ts-expect-error: type is required",
        'new Monitor("typeless", { url: "https://example.com" });',
        "// @ts-expect-error: no such monitor type (the kinds' enums are the SDK's unions)",
        'new Monitor("typo", { type: "htp", url: "https://example.com" });',
        "",
      ].join("\n"),
    );
    await writeFile(
      join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "es2023",
          module: "nodenext",
          moduleResolution: "nodenext",
          strict: true,
          noEmit: true,
          allowImportingTsExtensions: true,
          types: [],
          skipLibCheck: true,
        },
        include: ["index.ts", "wrong.ts"],
      }),
    );
    const tsc = join(root, "node_modules/.bin/tsc");
    const result = await run(tsc, ["-p", project], { cwd: project, env }).catch((e: { stdout: string }) => e);
    expect(result.stdout).toBe("");
  });

  it("runs the example program under Pulumi's mocks: every kind registered with its inputs", async () => {
    await writeFile(
      join(project, "mocked.ts"),
      `import * as pulumi from "@pulumi/pulumi";
const registered: { type: string; name: string; inputs: Record<string, unknown> }[] = [];
pulumi.runtime.setAllConfig({
  "shop-api-monitoring:pagerToken": "pager-token",
  "shop-api-monitoring:webhookSecret": "webhook-secret-0123456789",
  "shop-api-monitoring:apiPassword": "password",
}, ["shop-api-monitoring:pagerToken", "shop-api-monitoring:webhookSecret", "shop-api-monitoring:apiPassword"]);
await pulumi.runtime.setMocks(
  {
    newResource: (args) => {
      registered.push({ type: args.type, name: args.name, inputs: args.inputs });
      return { id: \`\${args.name}-id\`, state: { ...args.inputs, state: "up" } };
    },
    call: (args) =>
      args.token.endsWith("getAccount")
        ? { plan: "enterprise" }
        : args.token.endsWith("getAgentPools")
          ? { pools: [{ id: "westeurope" }] }
          : { types: [{ type: "browser", fleet: "waterfall" }] },
  },
  "shop-api-monitoring",
  "dev",
  false,
);
const program = await import("./index.ts");
const plan = await new Promise((done) => program.accountPlan.apply(done));
const settled = await new Promise((done) => program.statusPageUrl.apply(done));
// The template registers once its page has an id: the last of the chain.
await new Promise((done) => program.apiDownTemplateId.apply(done));
console.log(JSON.stringify({ registered, plan, settled }));
`,
    );
    const { stdout } = await run("node", ["mocked.ts"], { cwd: project, env });
    const { registered, plan, settled } = JSON.parse(stdout.trim().split("\n").at(-1)!) as {
      registered: { type: string; name: string; inputs: Record<string, unknown> }[];
      plan: string;
      settled: string;
    };
    expect(new Set(registered.map((r) => r.type))).toEqual(
      new Set(Object.values(resourceClassNames).map((name) => `vigil:index:${name}`)),
    );
    const api = registered.find((r) => r.name === "api")!;
    expect(api.inputs).toMatchObject({
      type: "http",
      url: "https://api.example.com/health",
      name: "Shop API",
    });
    const subscription = registered.find((r) => r.name === "api-pager")!;
    expect(subscription.inputs).toMatchObject({ monitorId: "api-id", contactId: "pager-id" });
    expect(plan).toBe("enterprise");
    expect(settled).toBe("https://status.example.com/example-shop-api-status");
  });

  it("launches the provider from bin/ as Pulumi does: the port on stdout, then gRPC answers", async () => {
    for (const entry of [
      "node_modules/vigil/bin/pulumi-resource-vigil",
      "node_modules/.bin/pulumi-resource-vigil",
    ]) {
      const child = spawn(join(project, entry), ["127.0.0.1:1"], { cwd: project, env, stdio: "pipe" });
      try {
        const port = await firstLine(child);
        expect(port).toMatch(/^\d+$/);
        const info = await pluginInfo(Number(port));
        expect(info).toBe(version);
      } finally {
        child.kill();
      }
    }
  });
});

describe("the package's other entry points", () => {
  it("npx vigil --version answers from the installed package", async () => {
    const { stdout } = await run("npx", ["vigil", "--version"], { cwd: project, env });
    expect(stdout).toBe(`vigil ${version}\nNode.js ${process.version}\nMonitoring Service REST API v2\n`);
  });

  it("on an older Node, vigil says which Node it needs", async (context) => {
    const machinePath = (process.env.PATH ?? "").split(":").filter((dir) => !dir.includes("node_modules"));
    const older = await run("node", ["-p", "process.version"], {
      env: { ...env, PATH: machinePath.join(":") },
    })
      .then(({ stdout }) => stdout.trim())
      .catch(() => "");
    const [major = 0, minor = 0] = older.slice(1).split(".").map(Number);
    if (!older || major > 22 || (major === 22 && minor >= 13)) {
      console.warn(`SKIPPED: this machine's own node (${older || "none"}) is not older than 22.13`);
      return context.skip();
    }
    const vigil = join(project, "node_modules/.bin/vigil");
    const result = await run(vigil, ["--version"], { env: { ...env, PATH: machinePath.join(":") } }).catch(
      (error) => error,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `vigil needs Node.js 22.13 or later; this is ${older}. Install a newer Node, or use the single-file binary of the release.\n`,
    );
  });

  it("vigil apply --sandbox applies the GitOps example, and a plan then has no changes", async () => {
    const repo = join(project, "gitops");
    await cp(join(root, "examples/gitops"), repo, { recursive: true });
    const vigil = join(project, "node_modules/.bin/vigil");
    const apply = await run(vigil, ["apply", "--sandbox", "--auto-approve"], { cwd: repo, env });
    expect(apply.stdout).toMatch(/Apply complete: \d+ created\./);
    const plan = await run(vigil, ["plan", "--sandbox", "--detailed-exitcode"], { cwd: repo, env });
    expect(plan.stdout).toMatch(/^No changes\./m);
  }, 120_000);

  it("terraform-provider-vigil hands Terraform its handshake and serves tfplugin6", async () => {
    const bin = join(project, "node_modules/.bin/terraform-provider-vigil");
    const provider = await launchProvider({ PATH: env.PATH }, [bin]);
    try {
      expect(provider.handshake.protocol).toBe("6");
      const metadata = await provider.provider("GetMetadata");
      expect(metadata.resources.map((r: { type_name: string }) => r.type_name)).toContain("vigil_monitor");
      // Node's experimental warnings would land in Terraform's log as provider errors.
      expect(provider.output.stderr).toBe("");
    } finally {
      provider.close();
      provider.child.kill();
      await provider.exited;
    }
  });

  it("installs globally (npm install -g) without Pulumi's SDK, an optional peer: vigil and the providers run", async () => {
    const prefix = join(project, "global");
    await run(
      "npm",
      [
        "install",
        "-g",
        "--prefix",
        prefix,
        "--prefer-offline",
        "--no-audit",
        "--no-fund",
        "--ignore-scripts",
        tarball,
      ],
      { cwd: project, env },
    );
    const { stdout } = await run(join(prefix, "bin/vigil"), ["--version"], { env });
    expect(stdout).toMatch(new RegExp(`^vigil ${version.replaceAll(".", "\\.")}\n`));
    const installed = join(prefix, "lib/node_modules/vigil");
    expect(existsSync(join(installed, "node_modules/@pulumi/pulumi"))).toBe(false);
    // Its Pulumi provider is a bundle: it needs no @pulumi/pulumi beside it.
    const child = spawn(join(installed, "bin/pulumi-resource-vigil"), ["127.0.0.1:1"], {
      env,
      stdio: "pipe",
    });
    try {
      expect(await pluginInfo(Number(await firstLine(child)))).toBe(version);
    } finally {
      child.kill();
    }
  }, 300_000);

  it("is what examples/*/package.json install: their vigil is the packed tarball", async () => {
    const examples = join(root, "examples");
    const depending = [];
    for (const example of await readdir(examples)) {
      const file = join(examples, example, "package.json");
      if (!existsSync(file)) continue;
      const manifest = JSON.parse(await readFile(file, "utf8"));
      const spec = manifest.dependencies?.vigil ?? manifest.devDependencies?.vigil;
      depending.push(example);
      expect(spec, file).toMatch(/^file:/);
      expect(resolve(examples, example, spec.slice("file:".length)), file).toBe(tarball);
    }
    expect(depending.sort()).toEqual(["gitops", "pulumi"]);
  });

  it("vigil validates a GitOps repo from the installed package", async () => {
    const vigil = join(project, "node_modules/.bin/vigil");
    const { stdout } = await run(vigil, ["validate", join(root, "examples/gitops")], { cwd: project, env });
    expect(stdout).toMatch(/^The configuration is valid: \d+ resources in \d+ files\.$/m);
  });

  it("vigil keeps a code cache per command in a folder of its user's own, and the next run takes it", async () => {
    const vigil = join(project, "node_modules/.bin/vigil");
    const example = join(root, "examples/gitops");
    const temp = await mkdtemp(join(tmpdir(), "vigil-code-cache-test-"));
    // os.tmpdir() follows TMPDIR: each case has a temporary folder of its own.
    const inTemp = async (name: string, extra: Record<string, string> = {}) => {
      const dir = join(temp, name);
      await mkdir(dir);
      return { dir, cache: join(dir, "vigil-code-cache"), env: { ...env, TMPDIR: dir, ...extra } };
    };
    try {
      const own = await inTemp("own");
      await run(vigil, ["validate", example], { env: own.env });
      const [file, ...others] = await readdir(own.cache);
      expect(others).toEqual([]);
      expect(file).toMatch(new RegExp(`^${process.version}-${process.arch}-.*-validate\\.bin$`));
      expect((await stat(own.cache)).mode & 0o777).toBe(0o700);
      const saved = await stat(join(own.cache, file!));
      // The second run takes the cache: V8 accepts it, so there is nothing to save again.
      const again = await run(vigil, ["validate", example], { env: own.env });
      expect(again.stdout).toMatch(/^The configuration is valid/);
      expect((await stat(join(own.cache, file!))).mtimeMs).toBe(saved.mtimeMs);
      // Another command has its own: what it runs differs.
      await run(vigil, ["--version"], { env: own.env });
      expect((await readdir(own.cache)).sort()).toEqual([expect.stringMatching(/---version\.bin$/), file]);

      // A folder others may write to could hand vigil code: it is not used, and the command runs anyway.
      const shared = await inTemp("shared");
      await mkdir(shared.cache);
      await chmod(shared.cache, 0o777);
      expect((await run(vigil, ["validate", example], { env: shared.env })).stdout).toMatch(/is valid/);
      expect(await readdir(shared.cache)).toEqual([]);

      // NODE_DISABLE_COMPILE_CACHE turns it off, as it does Node's own.
      const off = await inTemp("off", { NODE_DISABLE_COMPILE_CACHE: "1" });
      await run(vigil, ["validate", example], { env: off.env });
      expect(existsSync(off.cache)).toBe(false);
    } finally {
      await rm(temp, { recursive: true, force: true });
    }
  });

  it("terraform-provider-vigil, run by hand, says it is a plugin for Terraform", async () => {
    const provider = join(project, "node_modules/.bin/terraform-provider-vigil");
    const result = await run(provider, [], { cwd: project, env }).then(
      () => ({ code: 0, stderr: "" }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/This binary is a plugin/);
  });
});
