/**
 * `npm run release [-- --out DIR] [--force]`: vigil's release for this machine's platform, in dist/release:
 *
 * - `vigil-<version>-<platform>-<arch>`: the CLI;
 * - `terraform-provider-vigil_<version>_<os>_<arch>.zip`, holding `terraform-provider-vigil_v<version>`,
 *   and `terraform-provider-vigil_<version>_SHA256SUMS`: the layout of Terraform's registry and mirrors;
 * - `pulumi-resource-vigil-v<version>-<os>-<arch>.tar.gz`, holding `pulumi-resource-vigil`: Pulumi's plugin
 *   layout (`pulumi plugin install resource vigil <version> --file …`);
 * - `SHA256SUMS` of all of them, and `THIRD-PARTY-NOTICES.txt`, the licence comments of the bundled code.
 *
 * Each executable is a single executable application on the pinned Node 22: it runs where no Node is
 * installed. A build is skipped when dist/release already holds one of the same sources (a hash of src,
 * schemas, the lock file, this folder and the pinned Node), so tests and `npm run build:terraform` share it.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { SHIPPED_FILES } from "../../src/shipped.ts";
import { publishedManifest } from "../pack.ts";
import { tarGzOne, zipOne } from "./archives.ts";
import { bundlePrograms } from "./bundle.ts";
import { withLock } from "./lock.ts";
import { thirdPartyNotices } from "./notices.ts";
import { terraformPlatform } from "./platform.ts";
import { baseExecutable, nodeVersion, pinnedNode, singleExecutable } from "./sea.ts";

export const repositoryRoot = resolve(import.meta.dirname, "../..");
export const defaultReleaseDir = join(repositoryRoot, "dist/release");

/** The three programs, by their package.json `bin` names. */
export const PROGRAMS = ["vigil", "terraform-provider-vigil", "pulumi-resource-vigil"] as const;

export interface ReleaseNames {
  vigil: string;
  terraformZip: string;
  /** The executable inside the zip. */
  terraformExecutable: string;
  terraformSums: string;
  pulumiTarball: string;
  /** The executable inside the tarball. */
  pulumiExecutable: string;
}

/** The artifacts' names: Node's platform names for the CLI, Go's for the plugins, as each tool expects. */
export function releaseNames(
  version: string,
  platform = process.platform,
  arch = process.arch,
): ReleaseNames {
  const goPlatform = terraformPlatform(platform, arch);
  return {
    vigil: `vigil-${version}-${platform}-${arch}`,
    terraformZip: `terraform-provider-vigil_${version}_${goPlatform}.zip`,
    terraformExecutable: `terraform-provider-vigil_v${version}`,
    terraformSums: `terraform-provider-vigil_${version}_SHA256SUMS`,
    pulumiTarball: `pulumi-resource-vigil-v${version}-${goPlatform.replace("_", "-")}.tar.gz`,
    pulumiExecutable: "pulumi-resource-vigil",
  };
}

export interface Release {
  dir: string;
  version: string;
  names: ReleaseNames;
  /** Whether the base Node was stripped of its symbols (the machine had `strip`). */
  stripped: boolean;
  /** The hash of the sources it was built from. */
  sourceHash: string;
}

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );

/** What a release is built from; a change to any of it makes another release. */
export function sourceHash(root = repositoryRoot): string {
  const hash = createHash("sha256");
  const inputs = [
    ...filesUnder(join(root, "src")),
    ...filesUnder(join(root, "schemas")),
    ...filesUnder(join(root, "tools/release")),
    join(root, "tools/pack.ts"),
    join(root, "package.json"),
    join(root, "package-lock.json"),
  ].sort();
  for (const file of inputs)
    hash
      .update(`${relative(root, file)}\0`)
      .update(readFileSync(file))
      .update("\0");
  const node = pinnedNode(root);
  hash.update(`${node}\0${statSync(node).size}`);
  return hash.digest("hex");
}

const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");
const STAMP = ".release.json";
/** The files of a release, of any version and platform: a new build replaces them. */
const RELEASE_FILE =
  /^(vigil-|terraform-provider-vigil_|pulumi-resource-vigil-|SHA256SUMS$|THIRD-PARTY-NOTICES\.txt$|\.release\.json$|\.build$)/;

async function built(dir: string, hash: string): Promise<Release | undefined> {
  const stamp = join(dir, STAMP);
  if (!existsSync(stamp)) return undefined;
  const release = JSON.parse(await readFile(stamp, "utf8")) as Release;
  const names = Object.entries(release.names)
    .filter(([key]) => !key.endsWith("Executable"))
    .map(([, name]) => name);
  return release.sourceHash === hash && names.every((name) => existsSync(join(dir, name)))
    ? release
    : undefined;
}

export async function buildRelease(
  options: { out?: string; force?: boolean; log?: (line: string) => void } = {},
): Promise<Release> {
  const root = repositoryRoot;
  const dir = resolve(options.out ?? defaultReleaseDir);
  const log = options.log ?? (() => {});
  await mkdir(dir, { recursive: true });
  return withLock(`${dir}.lock`, async () => {
    const hash = sourceHash(root);
    const existing = options.force ? undefined : await built(dir, hash);
    if (existing) return { ...existing, dir };

    const manifest = JSON.parse(await readFile(join(root, "package.json"), "utf8"));
    const version = manifest.version as string;
    const names = releaseNames(version);
    const work = join(dir, ".build");
    // Only what a release writes goes: --out may name a folder that holds other things too.
    for (const entry of readdirSync(dir).filter((name) => RELEASE_FILE.test(name)))
      await rm(join(dir, entry), { recursive: true, force: true });
    await mkdir(work, { recursive: true });

    log("bundling with esbuild");
    const entries = Object.fromEntries(PROGRAMS.map((name) => [name, manifest.bin[name] as string]));
    // vigil starts from a snapshot of its loaded modules (cli-snapshot.ts); the providers, which answer
    // their handshake before loading the provider, from the code cache.
    entries.vigil = "tools/release/cli-snapshot.ts";
    const bundles = await bundlePrograms(root, entries, work);
    await writeFile(join(work, "package.json"), JSON.stringify(publishedManifest(manifest), null, 2));
    const assets = Object.fromEntries(
      SHIPPED_FILES.map((file) => [file, file === "package.json" ? join(work, file) : join(root, file)]),
    );

    const base = join(work, "node");
    const { stripped } = await baseExecutable(root, base);
    const executables: Record<string, string> = {};
    for (const program of PROGRAMS) {
      log(`making ${program} a single executable`);
      executables[program] = join(work, program);
      await singleExecutable({
        root,
        main: bundles.files[program]!,
        base,
        output: executables[program]!,
        assets,
        workDir: work,
        snapshot: program === "vigil",
      });
    }

    log("archiving");
    await rename(executables.vigil!, join(dir, names.vigil));
    const provider = await readFile(executables["terraform-provider-vigil"]!);
    const zip = zipOne(names.terraformExecutable, provider);
    await writeFile(join(dir, names.terraformZip), zip);
    await writeFile(join(dir, names.terraformSums), `${sha256(zip)}  ${names.terraformZip}\n`);
    const plugin = await readFile(executables["pulumi-resource-vigil"]!);
    await writeFile(join(dir, names.pulumiTarball), tarGzOne(names.pulumiExecutable, plugin));
    await writeFile(
      join(dir, "THIRD-PARTY-NOTICES.txt"),
      thirdPartyNotices(root, bundles.inputs, nodeVersion(root)),
    );
    const sums = [names.vigil, names.terraformZip, names.pulumiTarball].map(
      (name) => `${sha256(readFileSync(join(dir, name)))}  ${name}`,
    );
    await writeFile(join(dir, "SHA256SUMS"), `${sums.join("\n")}\n`);
    await rm(work, { recursive: true, force: true });

    const release: Release = { dir, version, names, stripped, sourceHash: hash };
    await writeFile(join(dir, STAMP), JSON.stringify(release, null, 2));
    return release;
  });
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  const { values } = parseArgs({ options: { out: { type: "string" }, force: { type: "boolean" } } });
  const started = performance.now();
  const release = await buildRelease({ ...values, log: (line) => console.log(line) });
  for (const name of [
    release.names.vigil,
    release.names.terraformZip,
    release.names.terraformSums,
    release.names.pulumiTarball,
  ]) {
    const { size } = statSync(join(release.dir, name));
    console.log(`${join(relative(process.cwd(), release.dir), name)}  ${(size / 1e6).toFixed(1)} MB`);
  }
  console.log(
    `in ${((performance.now() - started) / 1000).toFixed(1)} s${release.stripped ? "" : " (no strip on this machine: the binaries keep Node's symbols)"}`,
  );
}
