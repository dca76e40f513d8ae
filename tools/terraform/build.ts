/**
 * `npm run build:terraform [-- --out DIR] [--cli-config FILE]`: writes terraform-provider-vigil into a Terraform filesystem
 * mirror (the unpacked layout), so `terraform init` installs it without a registry. The executable is a
 * shell wrapper that runs this checkout's src/terraform/main.ts on the repository's pinned Node 22: the
 * mirror points into this checkout by absolute paths, so rebuild it after moving the checkout.
 */
import { existsSync, realpathSync } from "node:fs";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";

export const repositoryRoot = resolve(import.meta.dirname, "../..");

/** The provider's source address; the mirror's first three folders. */
export const PROVIDER_SOURCE = "registry.terraform.io/vigil/vigil";

/** Terraform's platform names are Go's GOOS_GOARCH. */
const goOs: Partial<Record<NodeJS.Platform, string>> = {
  linux: "linux",
  darwin: "darwin",
  freebsd: "freebsd",
  openbsd: "openbsd",
};
const goArch: Partial<Record<NodeJS.Architecture, string>> = {
  x64: "amd64",
  arm64: "arm64",
  ia32: "386",
  arm: "arm",
};

export function terraformPlatform(platform = process.platform, arch = process.arch): string {
  const os = goOs[platform];
  const cpu = goArch[arch];
  if (!os || !cpu) {
    // Windows would need an .exe: Terraform does not run script providers there.
    throw new Error(`terraform-provider-vigil: no Terraform platform for ${platform}/${arch}`);
  }
  return `${os}_${cpu}`;
}

/**
 * The Node that runs the provider: the repository's pinned one (the `node` devDependency), resolved to its
 * real path; else this Node when it can strip types itself (22.6 and later), as after `npm ci --omit=dev`.
 */
export function providerNode(root = repositoryRoot): string {
  const pinned = join(root, "node_modules/node/bin/node");
  if (existsSync(pinned)) return realpathSync(pinned);
  const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
  if (major > 22 || (major === 22 && minor >= 6)) return process.execPath;
  throw new Error(
    `terraform-provider-vigil needs Node 22.6 or later: run \`npm ci\` to install the pinned Node (${pinned})`,
  );
}

/** Single-quoted for sh: a quote inside becomes '\''. */
const shellQuote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

export function wrapperScript(node: string, main: string, version: string): string {
  return [
    "#!/bin/sh",
    `# terraform-provider-vigil ${version}, written by npm run build:terraform: runs the provider from its checkout.`,
    `exec ${shellQuote(node)} --disable-warning=ExperimentalWarning ${shellQuote(main)} "$@"`,
    "",
  ].join("\n");
}

/** An HCL string: JSON's escapes, and template sequences (`${`, `%{`) doubled so they stay literal. */
const hclString = (text: string) => JSON.stringify(text).replace(/([$%])\{/g, "$1$1{");

/** The CLI configuration that installs vigil from `mirror` and every other provider from its registry. */
export function cliConfig(mirror: string): string {
  return `provider_installation {
  filesystem_mirror {
    path    = ${hclString(mirror)}
    include = ["${PROVIDER_SOURCE}"]
  }
  direct {
    exclude = ["${PROVIDER_SOURCE}"]
  }
}
`;
}

export interface BuiltMirror {
  /** The mirror's root: what `filesystem_mirror { path }` names. */
  mirror: string;
  version: string;
  platform: string;
  executable: string;
}

export async function buildMirror(out: string, root = repositoryRoot): Promise<BuiltMirror> {
  const { version } = JSON.parse(await readFile(join(root, "package.json"), "utf8")) as { version: string };
  const mirror = resolve(out);
  const platform = terraformPlatform();
  const dir = join(mirror, PROVIDER_SOURCE, version, platform);
  await mkdir(dir, { recursive: true });
  const executable = join(dir, `terraform-provider-vigil_v${version}`);
  await writeFile(
    executable,
    wrapperScript(providerNode(root), join(root, "src/terraform/main.ts"), version),
  );
  // writeFile's mode applies only to a new file; a rebuild over an older one must be executable too.
  await chmod(executable, 0o755);
  return { mirror, version, platform, executable };
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  const { values } = parseArgs({ options: { out: { type: "string" }, "cli-config": { type: "string" } } });
  const built = await buildMirror(values.out ?? join(repositoryRoot, "dist/terraform-mirror"));
  console.log(`wrote ${built.executable}`);
  const config = cliConfig(built.mirror);
  if (values["cli-config"]) {
    await writeFile(values["cli-config"], config);
    console.log(`wrote ${resolve(values["cli-config"])}: point TF_CLI_CONFIG_FILE at it`);
  } else {
    console.log(
      `\nInstall it with this CLI configuration (TF_CLI_CONFIG_FILE or ~/.terraformrc):\n\n${config}`,
    );
  }
}
