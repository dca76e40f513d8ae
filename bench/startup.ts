/**
 * `npm run bench:startup [-- --runs 20]`: how fast vigil starts, as a ratio to a bare `node -e 0` (the pinned
 * Node 22) measured in the same run, so that the figures hold on a busy machine. Median of `runs` starts,
 * taken in rounds (one start of each command per round), after two rounds of warm-up:
 *
 * - `vigil --version`, `vigil validate examples/gitops`, and terraform-provider-vigil to its handshake line
 *   (launched as Terraform launches it);
 * - for the release's single executables (`npm run release`, built when stale), and for the npm package
 *   (`npm run pack`) installed into an empty folder; from the checkout's sources too, for reference.
 *
 * The budget is 5x a bare Node start for the binaries and the npm install; the exit code is 1 when one is
 * over it. It also prints the binaries' sizes and the size of the npm install.
 */
import { execFile, spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs, promisify } from "node:util";
import { selfSignedCertificate } from "../src/terraform/plugin/certificate.ts";
import { terraformEnv } from "../test/helpers/plugin.ts";
import { pack } from "../tools/pack.ts";
import { unzipOne } from "../tools/release/archives.ts";
import { buildRelease } from "../tools/release/build.ts";
import { pinnedNode } from "../tools/release/sea.ts";
import { median } from "./lib.ts";

const run = promisify(execFile);
const { values } = parseArgs({ options: { runs: { type: "string", default: "20" } } });
const runs = Number(values.runs);
const BUDGET = 5;
const root = resolve(import.meta.dirname, "..");
const example = join(root, "examples/gitops");
const node = pinnedNode(root);
/** The pinned Node first on PATH: the package's bin files run on the `node` PATH finds. */
const env = { ...process.env, PATH: `${join(root, "node_modules/.bin")}:${process.env.PATH ?? ""}` };
const providerEnv = { ...terraformEnv(selfSignedCertificate()), PATH: env.PATH };

interface Target {
  label: string;
  command: readonly string[];
  /** Until the first line of stdout (a plugin's handshake), else until the process exits. */
  firstLine?: boolean;
  /** Held to the budget. */
  judged: boolean;
}

/** Milliseconds from spawn to exit, or to the first line (then the process is killed). */
function time(target: Target): Promise<number> {
  const [file, ...args] = target.command;
  const started = performance.now();
  const child = spawn(file!, args, {
    env: target.firstLine ? providerEnv : env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  return new Promise((done, fail) => {
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
      if (target.firstLine && stdout.includes("\n")) {
        done(performance.now() - started);
        child.kill();
      }
    });
    child.on("exit", (code) => {
      if (!target.firstLine && code === 0) done(performance.now() - started);
      else fail(new Error(`${target.label}: exited ${code}: ${stderr}`));
    });
  });
}

const work = await mkdtemp(join(tmpdir(), "vigil-startup-"));
try {
  console.log("building the release (when stale) and the npm package…");
  const release = await buildRelease();
  const provider = unzipOne(await readFile(join(release.dir, release.names.terraformZip)));
  const providerBinary = join(work, provider.name);
  await writeFile(providerBinary, provider.data, { mode: 0o755 });
  const tarball = await pack(root);
  const install = join(work, "install");
  await mkdir(install);
  await run("npm", ["init", "-y"], { cwd: install, env });
  await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", tarball], {
    cwd: install,
    env,
  });
  const bin = (name: string) => join(install, "node_modules/.bin", name);
  const vigilBinary = join(release.dir, release.names.vigil);
  const source = [node, "--disable-warning=ExperimentalWarning"];

  const bare: Target = { label: "node -e 0", command: [node, "-e", "0"], judged: false };
  const targets: Target[] = [
    bare,
    { label: "binary: vigil --version", command: [vigilBinary, "--version"], judged: true },
    { label: "binary: vigil validate", command: [vigilBinary, "validate", example], judged: true },
    { label: "binary: provider handshake", command: [providerBinary], firstLine: true, judged: true },
    { label: "npm install: vigil --version", command: [bin("vigil"), "--version"], judged: true },
    { label: "npm install: vigil validate", command: [bin("vigil"), "validate", example], judged: true },
    {
      label: "npm install: provider handshake",
      command: [bin("terraform-provider-vigil")],
      firstLine: true,
      judged: true,
    },
    {
      label: "source: vigil --version",
      command: [...source, join(root, "src/cli/main.ts"), "--version"],
      judged: false,
    },
    {
      label: "source: vigil validate",
      command: [...source, join(root, "src/cli/main.ts"), "validate", example],
      judged: false,
    },
    {
      label: "source: provider handshake",
      command: [...source, join(root, "src/terraform/main.ts")],
      firstLine: true,
      judged: false,
    },
  ];

  const times = new Map<Target, number[]>(targets.map((target) => [target, []]));
  for (let round = -2; round < runs; round++) {
    for (const target of targets) {
      const ms = await time(target);
      if (round >= 0) times.get(target)!.push(ms);
    }
  }
  const baseline = median(times.get(bare)!);
  let over = false;
  console.log(`\nstart-up, median of ${runs} (budget ${BUDGET}x node -e 0):`);
  for (const target of targets) {
    const ms = median(times.get(target)!);
    const ratio = ms / baseline;
    const verdict = !target.judged ? "" : ratio <= BUDGET ? "  ok" : "  OVER BUDGET";
    if (target.judged && ratio > BUDGET) over = true;
    console.log(
      `  ${target.label.padEnd(34)} ${ms.toFixed(0).padStart(5)} ms  ${ratio.toFixed(1).padStart(4)}x${verdict}`,
    );
  }

  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
  console.log("\nsizes:");
  for (const name of [release.names.vigil, release.names.terraformZip, release.names.pulumiTarball])
    console.log(`  ${name.padEnd(52)} ${mb((await stat(join(release.dir, name))).size)}`);
  console.log(`  ${`${provider.name} (unpacked)`.padEnd(52)} ${mb(provider.data.length)}`);
  console.log(`  ${tarball.split("/").at(-1)!.padEnd(52)} ${mb((await stat(tarball)).size)}`);
  const { stdout } = await run("du", ["-sb", join(install, "node_modules")]);
  const { stdout: count } = await run("npm", ["ls", "--all", "--parseable"], { cwd: install, env });
  console.log(
    `  ${"npm install ./vigil-<version>.tgz (node_modules)".padEnd(52)} ${mb(Number(stdout.split("\t")[0]))}, ${count.trim().split("\n").length - 1} packages`,
  );
  if (over) process.exitCode = 1;
} finally {
  await rm(work, { recursive: true, force: true });
}
