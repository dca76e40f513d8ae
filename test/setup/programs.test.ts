import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import {
  cp,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  symlink,
  utimes,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { SHIPPED_FILES } from "../../src/shipped.ts";
import { programCommand, programFile } from "../helpers/programs.ts";
import { FROM_SOURCE, PROGRAMS_ENV, programsFolder, removeUnused } from "./programs.ts";

const root = resolve(import.meta.dirname, "../..");
const run = promisify(execFile);
const fromSource = process.env[PROGRAMS_ENV] === FROM_SOURCE;

describe.skipIf(fromSource)("the programs the tests start", () => {
  it("are the package's, built from the sources as they are now", async () => {
    const dir = process.env[PROGRAMS_ENV];
    expect(dir).toBe(programsFolder());
    for (const name of ["vigil", "terraform-provider-vigil", "pulumi-resource-vigil"] as const)
      expect(programFile(name).startsWith(`${dir}/bin/`), name).toBe(true);
    const [node, ...flags] = programCommand("vigil");
    const { stdout } = await run(node, [...flags, "--version"]);
    const { version } = JSON.parse(await readFile(join(root, "package.json"), "utf8"));
    expect(stdout).toContain(version);
  });

  it("find what they read beside them where the package has it", async () => {
    const dir = process.env[PROGRAMS_ENV]!;
    for (const file of SHIPPED_FILES.filter((file) => file !== "package.json"))
      expect(await readFile(join(dir, file), "utf8"), file).toBe(await readFile(join(root, file), "utf8"));
    const manifest = JSON.parse(await readFile(join(dir, "package.json"), "utf8"));
    expect(manifest.type).toBe("module");
    expect(manifest.bin.vigil).toBe("bin/vigil.cjs");
  });
});

describe("the programs' folder", () => {
  const trees: string[] = [];
  afterAll(() => Promise.all(trees.map((tree) => rm(tree, { recursive: true, force: true }))));

  it("is another after an edit of the sources, and the same without one", async () => {
    // A tree of this checkout whose src/ can be edited: the rest links to the checkout's.
    const tree = await mkdtemp(join(tmpdir(), "vigil-programs-"));
    trees.push(tree);
    await cp(join(root, "src"), join(tree, "src"), { recursive: true });
    for (const linked of ["schemas", "tools", "node_modules", "package.json", "package-lock.json"])
      await symlink(join(root, linked), join(tree, linked));
    const before = programsFolder(tree);
    expect(programsFolder(tree)).toBe(before);
    expect(before.startsWith(join(tree, "node_modules/.cache/vigil-test/"))).toBe(true);
    // The key is of what the files hold, not where they are: this tree's is the checkout's.
    expect(basename(before)).toBe(basename(programsFolder()));
    await writeFile(join(tree, "src/cli/main.ts"), "\n", { flag: "a" });
    expect(programsFolder(tree)).not.toBe(before);
  });
});

describe("the programs' cache", () => {
  it("loses the builds unused for a day and their code caches, and keeps the others", async () => {
    const tree = await mkdtemp(join(tmpdir(), "vigil-programs-cache-"));
    const cache = join(tree, "vigil-test");
    const codeCaches = join(tree, "vigil-code-cache");
    await mkdir(codeCaches);
    const build = async (name: string, bundle: string, ageMs: number) => {
      await mkdir(join(cache, name, "bin"), { recursive: true });
      await writeFile(join(cache, name, "bin/vigil.bundle.cjs"), bundle);
      const info = await stat(join(cache, name, "bin/vigil.bundle.cjs"));
      await writeFile(join(codeCaches, `v22-x64-${info.size}-${Math.trunc(info.mtimeMs)}-plan.bin`), "");
      const then = new Date(Date.now() - ageMs);
      await utimes(join(cache, name), then, then);
    };
    try {
      await build("old", "old bundle", 25 * 3600_000);
      await build("recent", "a recent one", 3600_000);
      await build("current", "the one in use", 48 * 3600_000);
      await removeUnused(cache, join(cache, "current"), codeCaches);
      expect((await readdir(cache)).sort()).toEqual(["current", "recent"]);
      const left = await readdir(codeCaches);
      expect(left).toHaveLength(2);
      expect(left.some((file) => file.includes(`-${"old bundle".length}-`))).toBe(false);
      expect(existsSync(join(cache, "current/bin/vigil.bundle.cjs"))).toBe(true);
    } finally {
      await rm(tree, { recursive: true, force: true });
    }
  });
});
