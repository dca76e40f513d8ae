/**
 * `npm run build:terraform [-- --out DIR] [--cli-config FILE] [--zip FILE] [--from-source]`: a Terraform
 * filesystem mirror holding terraform-provider-vigil, so `terraform init` installs it without a registry.
 *
 * By default the mirror holds the release zip (`npm run release`, built first when dist/release is stale)
 * in the mirror's packed layout: a single executable that runs without Node, and the very file a registry
 * or a network mirror would serve, so `.terraform.lock.hcl` records the same hashes everywhere. The mirror
 * can be copied to another machine of the same platform, or served as a network mirror.
 *
 * `--from-source` writes instead, in the unpacked layout, a shell wrapper that runs this checkout's
 * src/terraform/main.ts on the pinned Node: for developing the provider, with no rebuild after a change. That
 * mirror points into the checkout by absolute paths.
 */
import { existsSync, realpathSync } from "node:fs";
import { chmod, copyFile, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { buildRelease } from "../release/build.ts";
import { terraformPlatform } from "../release/platform.ts";

export const repositoryRoot = resolve(import.meta.dirname, "../..");

/** The provider's source address; the mirror's first three folders. */
export const PROVIDER_SOURCE = "registry.terraform.io/vigil/vigil";

/**
 * The Node that runs the provider from source: the repository's pinned one (the `node` devDependency),
 * resolved to its real path; else this Node when it can strip types itself (22.6 and later).
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
    `# terraform-provider-vigil ${version}, written by npm run build:terraform -- --from-source: runs the provider from its checkout.`,
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
  /** What the mirror holds: the release zip (packed layout), or the source wrapper (unpacked layout). */
  file: string;
}

/** A release zip's name: `terraform-provider-vigil_<version>_<os>_<arch>.zip`. */
const RELEASE_ZIP =
  /^terraform-provider-vigil_(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)_([a-z0-9]+_[a-z0-9]+)\.zip$/;

/** A mirror holds one build of vigil: an older packed or unpacked one would shadow or confuse the new one. */
const clearMirror = (mirror: string) => rm(join(mirror, PROVIDER_SOURCE), { recursive: true, force: true });

/** A mirror of a release zip, in the packed layout: `<mirror>/registry.terraform.io/vigil/vigil/<zip>`. */
export async function mirrorOfZip(zip: string, out: string): Promise<BuiltMirror> {
  const match = RELEASE_ZIP.exec(basename(zip));
  if (!match)
    throw new Error(
      `${zip} is not named as a release zip (terraform-provider-vigil_<version>_<os>_<arch>.zip)`,
    );
  const mirror = resolve(out);
  await clearMirror(mirror);
  const dir = join(mirror, PROVIDER_SOURCE);
  await mkdir(dir, { recursive: true });
  const file = join(dir, basename(zip));
  await copyFile(zip, file);
  return { mirror, version: match[1]!, platform: match[2]!, file };
}

/** A mirror of this checkout's sources, in the unpacked layout, for developing the provider. */
export const mirrorOfSource = (out: string, root = repositoryRoot) =>
  mirrorOfProgram(out, join(root, "src/terraform/main.ts"), root);

/**
 * A mirror, in the unpacked layout, of a wrapper that runs `main` on the pinned Node: the provider's source,
 * or the npm package's launcher of it (what the tests run, test/setup/programs.ts).
 */
export async function mirrorOfProgram(
  out: string,
  main: string,
  root = repositoryRoot,
): Promise<BuiltMirror> {
  const { version } = JSON.parse(await readFile(join(root, "package.json"), "utf8")) as { version: string };
  const mirror = resolve(out);
  await clearMirror(mirror);
  const platform = terraformPlatform();
  const dir = join(mirror, PROVIDER_SOURCE, version, platform);
  await mkdir(dir, { recursive: true });
  const file = join(dir, `terraform-provider-vigil_v${version}`);
  await writeFile(file, wrapperScript(providerNode(root), main, version));
  // writeFile's mode applies only to a new file; a rebuild over an older one must be executable too.
  await chmod(file, 0o755);
  return { mirror, version, platform, file };
}

/** The mirror `npm run build:terraform` writes: of `zip`, else of this checkout's release (built if stale). */
export async function buildMirror(out: string, options: { zip?: string } = {}): Promise<BuiltMirror> {
  if (options.zip) return mirrorOfZip(options.zip, out);
  const release = await buildRelease();
  return mirrorOfZip(join(release.dir, release.names.terraformZip), out);
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  const { values } = parseArgs({
    options: {
      out: { type: "string" },
      "cli-config": { type: "string" },
      zip: { type: "string" },
      "from-source": { type: "boolean" },
    },
  });
  const out = values.out ?? join(repositoryRoot, "dist/terraform-mirror");
  const built = values["from-source"]
    ? await mirrorOfSource(out)
    : await buildMirror(out, values.zip ? { zip: values.zip } : {});
  console.log(`wrote ${built.file}`);
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
