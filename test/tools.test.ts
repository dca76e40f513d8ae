/**
 * The published package is `src` compiled (tools/pack.ts); what only builds the repository lives in `tools/`.
 * These checks keep that line: `src` never reaches into `tools/`, and never loads a development dependency,
 * which an installed package would not have.
 */
import { readdir, readFile } from "node:fs/promises";
import { builtinModules } from "node:module";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { repositoryRoot } from "../tools/generate.ts";
import { CLI_EXTERNALS } from "../tools/release/bundle.ts";

/** Every module `src` loads at run time: static and dynamic imports and re-exports; `import type` is erased. */
async function runtimeImports(): Promise<{ file: string; specifier: string }[]> {
  const dir = join(repositoryRoot, "src");
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const found: { file: string; specifier: string }[] = [];
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.endsWith(".ts") || entry.name.endsWith(".d.ts")) continue;
    const path = join(entry.parentPath, entry.name);
    const text = await readFile(path, "utf8");
    const pattern = /^\s*(?:import|export)\s+(?!type\b)[^;]*?from\s+"([^"]+)"|\bimport\(\s*"([^"]+)"\s*\)/gm;
    for (const match of text.matchAll(pattern)) {
      found.push({ file: relative(repositoryRoot, path), specifier: (match[1] ?? match[2])! });
    }
  }
  return found;
}

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`. */
const packageOf = (specifier: string) =>
  specifier
    .split("/")
    .slice(0, specifier.startsWith("@") ? 2 : 1)
    .join("/");

describe("src and tools", () => {
  it("src imports nothing from tools/", async () => {
    const imports = await runtimeImports();
    expect(imports.length).toBeGreaterThan(100);
    const intoTools = imports.filter(({ file, specifier }) => {
      if (!specifier.startsWith(".")) return false;
      return relative(repositoryRoot, join(repositoryRoot, file, "..", specifier)).startsWith("tools/");
    });
    expect(intoTools).toEqual([]);
  });

  it("src loads only the package's dependencies, peer dependencies and Node's own modules", async () => {
    const manifest = JSON.parse(await readFile(join(repositoryRoot, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
      peerDependencies: Record<string, string>;
    };
    const allowed = new Set([
      ...Object.keys(manifest.dependencies),
      ...Object.keys(manifest.peerDependencies),
      ...builtinModules,
    ]);
    const outside = (await runtimeImports()).filter(
      ({ specifier }) =>
        !specifier.startsWith(".") && !specifier.startsWith("node:") && !allowed.has(packageOf(specifier)),
    );
    expect(outside).toEqual([]);
  });

  it("what the npm package's CLI leaves out of its bundle is a dependency, so that an install has it", async () => {
    const manifest = JSON.parse(await readFile(join(repositoryRoot, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    for (const name of CLI_EXTERNALS) expect(Object.keys(manifest.dependencies), name).toContain(name);
  });
});
