import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { selfSignedCertificate } from "../../src/terraform/plugin/certificate.ts";
import { MAGIC_COOKIE_KEY } from "../../src/terraform/plugin/handshake.ts";
import { terraformPlatform } from "../../tools/release/platform.ts";
import {
  type BuiltMirror,
  cliConfig,
  mirrorOfSource,
  mirrorOfZip,
  repositoryRoot,
  wrapperScript,
} from "../../tools/terraform/build.ts";
import { parseHandshake, spawnProvider, terraformEnv } from "../helpers/plugin.ts";

const run = promisify(execFile);

describe("npm run build:terraform -- --from-source", () => {
  let out: string;
  let built: BuiltMirror;
  beforeAll(async () => {
    out = await mkdtemp(join(tmpdir(), "vigil-build-"));
    built = await mirrorOfSource(join(out, "mirror"));
  });
  afterAll(() => rm(out, { recursive: true, force: true }));

  it("writes the executable where a filesystem mirror's unpacked layout expects it", async () => {
    const { version } = JSON.parse(await readFile(join(repositoryRoot, "package.json"), "utf8"));
    expect(built.version).toBe(version);
    expect(built.file).toBe(
      join(
        out,
        "mirror/registry.terraform.io/vigil/vigil",
        version,
        terraformPlatform(),
        `terraform-provider-vigil_v${version}`,
      ),
    );
    expect((await stat(built.file)).mode & 0o777).toBe(0o755);
  });

  it("runs the provider: the executable hands Terraform the handshake line", async () => {
    const provider = spawnProvider(terraformEnv(selfSignedCertificate()), [built.file]);
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
    const failure = await run(built.file, [], { env }).catch((error) => error);
    expect(failure.code).toBe(1);
    expect(failure.stdout).toBe("");
    expect(failure.stderr).toMatch(/plugin/i);
  });

  it("rebuilding over an older mirror keeps the executable runnable", async () => {
    await writeFile(built.file, "stale", { mode: 0o644 });
    const again = await mirrorOfSource(join(out, "mirror"));
    expect((await stat(again.file)).mode & 0o777).toBe(0o755);
    expect(await readFile(again.file, "utf8")).toMatch(/^#!\/bin\/sh\n/);
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

describe("a mirror of a release zip", () => {
  it("holds the zip in the packed layout, and refuses a file not named as a release zip", async () => {
    const dir = await mkdtemp(join(tmpdir(), "vigil-zip-"));
    try {
      const zip = join(dir, "terraform-provider-vigil_1.2.3_linux_arm64.zip");
      await writeFile(zip, "zip");
      // A source mirror built before is replaced, not left to shadow the zip.
      await mirrorOfSource(join(dir, "mirror"));
      const built = await mirrorOfZip(zip, join(dir, "mirror"));
      expect(built).toEqual({
        mirror: join(dir, "mirror"),
        version: "1.2.3",
        platform: "linux_arm64",
        file: join(
          dir,
          "mirror/registry.terraform.io/vigil/vigil/terraform-provider-vigil_1.2.3_linux_arm64.zip",
        ),
      });
      const { stdout } = await run("find", [join(dir, "mirror"), "-type", "f"]);
      expect(stdout.trim().split("\n")).toEqual([built.file]);
      await expect(mirrorOfZip(join(dir, "vigil.zip"), join(dir, "mirror"))).rejects.toThrow(
        /not named as a release zip/,
      );
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
