/**
 * The release's three single executables, run as a user without Node runs them: with a PATH on which no
 * `node` can be found. The CLI validates and applies the GitOps example to its embedded sandbox; Terraform
 * installs the provider from a mirror of the release zip and plans examples/terraform with it; the Pulumi
 * plugin, unpacked from its tarball, announces its port and answers over gRPC.
 */
import { execFile, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { cp, mkdir, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unzipOne } from "../../tools/release/archives.ts";
import type { Release } from "../../tools/release/build.ts";
import { repositoryRoot } from "../../tools/terraform/build.ts";
import { firstLine, pluginInfo } from "../helpers/pulumi-plugin.ts";
import { pathWithoutNode, testRelease } from "../helpers/release.ts";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";
import { described, terraformWorkspace, type Workspace } from "../helpers/terraform.ts";
import { describeWithTerraform } from "../terraform/e2e/describe.ts";

const exec = promisify(execFile);

let release: Release;
let work: string;
let noNode: NodeJS.ProcessEnv;

beforeAll(async () => {
  release = await testRelease();
  work = await mkdtemp(join(tmpdir(), "vigil-release-"));
  noNode = { ...process.env, PATH: await pathWithoutNode(["terraform"]) };
}, 15 * 60_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
  if (noNode?.PATH) await rm(noNode.PATH, { recursive: true, force: true });
});

const artifact = (name: string) => join(release.dir, name);

/** Runs a file; its exit code and output, whatever the code. */
const run = (file: string, args: string[], options: { cwd?: string } = {}) =>
  exec(file, args, { env: noNode, ...options }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );

describe("the release's vigil", () => {
  it("runs with no node on PATH: --version", async () => {
    const shell = await exec("/bin/sh", ["-c", "command -v node"], { env: noNode }).catch((e) => e);
    expect(shell.code, "the PATH of these tests holds no node").not.toBe(0);

    const version = await run(artifact(release.names.vigil), ["--version"]);
    expect(version.code, version.stderr).toBe(0);
    expect(version.stdout).toMatch(
      new RegExp(`^vigil ${release.version.replaceAll(".", "\\.")}\\nNode\\.js v22\\.\\d+\\.\\d+\\n`),
    );
    expect(version.stderr).toBe("");
  });

  it("validates, applies to its embedded sandbox and plans no change on the GitOps example", async () => {
    const repo = join(work, "gitops");
    await cp(join(repositoryRoot, "examples/gitops"), repo, { recursive: true });
    const vigil = artifact(release.names.vigil);
    const validate = await run(vigil, ["validate"], { cwd: repo });
    expect(validate.stdout, validate.stderr).toMatch(/^The configuration is valid: \d+ resources/m);
    const apply = await run(vigil, ["apply", "--sandbox", "--auto-approve"], { cwd: repo });
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stdout).toMatch(/Apply complete: \d+ created\./);
    // The embedded sandbox's node:sqlite is experimental in Node 22: its warning is not the program's output.
    expect(apply.stderr).not.toContain("Warning");
    const plan = await run(vigil, ["plan", "--sandbox", "--detailed-exitcode"], { cwd: repo });
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  }, 120_000);
});

describe("the release's notices", () => {
  it("hold the licence of every bundled package, and Node's", async () => {
    const notices = await readFile(artifact("THIRD-PARTY-NOTICES.txt"), "utf8");
    expect(notices).toContain(`Node.js ${process.versions.node} (MIT`);
    for (const name of ["zod", "yaml", "commander", "@grpc/grpc-js", "fastify"])
      expect(notices).toMatch(new RegExp(`^${name.replace("/", "\\/")}@\\d+\\.\\d+\\.\\d+ \\(`, "m"));
    expect(notices).toContain("Permission is hereby granted, free of charge");
  });
});

describe("the release's Terraform provider", () => {
  it("is a zip holding the executable terraform-provider-vigil_v<version>, named in SHA256SUMS by its hash", async () => {
    const zip = await readFile(artifact(release.names.terraformZip));
    const sums = await readFile(artifact(release.names.terraformSums), "utf8");
    expect(sums).toBe(`${createHash("sha256").update(zip).digest("hex")}  ${release.names.terraformZip}\n`);
    const { name, mode, data } = unzipOne(zip);
    expect(name).toBe(`terraform-provider-vigil_v${release.version}`);
    expect(mode).toBe(0o100755);
    expect(data.subarray(0, 4)).toEqual(Buffer.from("\x7fELF", "latin1"));
  });
});

describeWithTerraform("terraform init and plan with the provider from a mirror of the release zip", () => {
  let sb: TestSandbox;
  let ws: Workspace;

  beforeAll(async () => {
    sb = await startTestSandbox();
    const account = await sb.account({ plan: "enterprise" });
    ws = await terraformWorkspace({
      zip: artifact(release.names.terraformZip),
      env: { PATH: noNode.PATH!, VIGIL_ENDPOINT: sb.url, VIGIL_TOKEN: account.token },
      vars: {
        pager_token: "pager-token-release",
        checkout_password: "probe-password-release",
        webhook_secret: "webhook-secret-release-0123456789",
      },
    });
  }, 60_000);
  afterAll(async () => {
    await ws?.remove();
    await sb?.close();
  });

  it("installs the zip (locked by its hash) and plans examples/terraform against the sandbox", async () => {
    const dir = await ws.copy(join(repositoryRoot, "examples/terraform"), "example");
    await ws.ok(dir, "init", "-input=false");
    // The lock names the provider by Terraform's h1 hash of the package's contents: the release's executable.
    const { name, data } = unzipOne(await readFile(artifact(release.names.terraformZip)));
    const lock = await readFile(join(dir, ".terraform.lock.hcl"), "utf8");
    expect(lock).toContain(`"${h1Hash(name, data)}"`);

    const plan = await ws.run(dir, "plan", "-input=false", "-detailed-exitcode");
    // 2: the plan has changes (everything to create), and the data sources were read through the provider.
    expect(plan.code, described(plan)).toBe(2);
    expect(plan.stdout).toMatch(/Plan: \d+ to add, 0 to change, 0 to destroy\./);
    expect(plan.stderr).toBe("");
  }, 180_000);
});

/** Terraform's "h1:" hash of a package of one file (golang.org/x/mod/sumdb/dirhash, Hash1). */
function h1Hash(name: string, data: Buffer): string {
  const summary = `${createHash("sha256").update(data).digest("hex")}  ${name}\n`;
  return `h1:${createHash("sha256").update(summary).digest("base64")}`;
}

describe("the release's Pulumi plugin", () => {
  it("unpacks to pulumi-resource-vigil, which announces its port with no node on PATH and answers", async () => {
    const dir = join(work, "plugin");
    await mkdir(dir);
    await exec("tar", ["-xzf", artifact(release.names.pulumiTarball), "-C", dir]);
    expect(await readdir(dir)).toEqual(["pulumi-resource-vigil"]);
    const child = spawn(join(dir, "pulumi-resource-vigil"), ["127.0.0.1:1"], { env: noNode, stdio: "pipe" });
    try {
      const port = await firstLine(child);
      expect(port).toMatch(/^\d+$/);
      expect(await pluginInfo(Number(port))).toBe(release.version);
    } finally {
      child.kill();
    }
  });
});
