import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { selfSignedCertificate } from "../../src/terraform/plugin/certificate.ts";
import { MAGIC_COOKIE_KEY } from "../../src/terraform/plugin/handshake.ts";
import {
  type BuiltMirror,
  buildMirror,
  cliConfig,
  repositoryRoot,
  terraformPlatform,
  wrapperScript,
} from "../../tools/terraform/build.ts";
import { parseHandshake, spawnProvider, terraformEnv } from "../helpers/plugin.ts";

const run = promisify(execFile);

describe("npm run build:terraform", () => {
  let out: string;
  let built: BuiltMirror;
  beforeAll(async () => {
    out = await mkdtemp(join(tmpdir(), "vigil-build-"));
    built = await buildMirror(join(out, "mirror"));
  });
  afterAll(() => rm(out, { recursive: true, force: true }));

  it("writes the executable where a filesystem mirror's unpacked layout expects it", async () => {
    const { version } = JSON.parse(await readFile(join(repositoryRoot, "package.json"), "utf8"));
    expect(built.version).toBe(version);
    expect(built.executable).toBe(
      join(
        out,
        "mirror/registry.terraform.io/vigil/vigil",
        version,
        terraformPlatform(),
        `terraform-provider-vigil_v${version}`,
      ),
    );
    expect((await stat(built.executable)).mode & 0o777).toBe(0o755);
  });

  it("runs the provider: the executable hands Terraform the handshake line", async () => {
    const provider = spawnProvider(terraformEnv(selfSignedCertificate()), [built.executable]);
    while (!provider.output.stdout.includes("\n")) {
      if (provider.child.exitCode !== null) throw new Error(`exited: ${provider.output.stderr}`);
      await new Promise((resolve) => provider.child.stdout!.once("data", resolve));
    }
    const handshake = parseHandshake(provider.output.stdout.trim());
    expect([handshake.core, handshake.protocol, handshake.network, handshake.transport]).toEqual([
      "1",
      "6",
      "tcp",
      "grpc",
    ]);
    provider.child.kill();
    await provider.exited;
    // Node's experimental warnings would land in Terraform's log as provider errors.
    expect(provider.output.stderr).toBe("");
  });

  it("without the go-plugin cookie, the executable refuses to run as a plain command", async () => {
    const env = { ...process.env };
    delete env[MAGIC_COOKIE_KEY];
    const failure = await run(built.executable, [], { env }).catch((error) => error);
    expect(failure.code).toBe(1);
    expect(failure.stdout).toBe("");
    expect(failure.stderr).toMatch(/plugin/i);
  });

  it("rebuilding over an older mirror keeps the executable runnable", async () => {
    await writeFile(built.executable, "stale", { mode: 0o644 });
    const again = await buildMirror(join(out, "mirror"));
    expect((await stat(again.executable)).mode & 0o777).toBe(0o755);
    expect(await readFile(again.executable, "utf8")).toMatch(/^#!\/bin\/sh\n/);
  });
});

describe("the wrapper script", () => {
  it("passes the arguments and quotes paths for sh, even with a quote or a space in them", async () => {
    const dir = await mkdtemp(join(tmpdir(), "vigil it's here "));
    try {
      const main = join(dir, "main.ts");
      await writeFile(main, "process.stdout.write(JSON.stringify(process.argv.slice(2)));\n");
      const script = join(dir, "provider");
      await writeFile(script, wrapperScript(process.execPath, main, "0.0.0"), { mode: 0o755 });
      const { stdout } = await run(script, ["a b", "$HOME"]);
      expect(JSON.parse(stdout)).toEqual(["a b", "$HOME"]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("terraformPlatform", () => {
  it("names Node's platforms as Go does", () => {
    expect(terraformPlatform("linux", "x64")).toBe("linux_amd64");
    expect(terraformPlatform("darwin", "arm64")).toBe("darwin_arm64");
    expect(terraformPlatform("linux", "ia32")).toBe("linux_386");
    expect(() => terraformPlatform("win32", "x64")).toThrow(/win32\/x64/);
  });
});

describe("cliConfig", () => {
  it("installs vigil from the mirror only, and keeps template sequences in the path literal", () => {
    // Built by concatenation: neither sequence is meant as a JavaScript template here.
    const text = cliConfig("/tmp/a $" + "{b} %" + "{c}/mirror");
    expect(text).toContain('path    = "/tmp/a $$' + "{b} %%" + '{c}/mirror"');
    expect(text).toContain('include = ["registry.terraform.io/vigil/vigil"]');
    expect(text).toContain('exclude = ["registry.terraform.io/vigil/vigil"]');
  });
});
