/**
 * npm (from 11.16) reads `allowScripts` in the root package.json: each dependency with an install script is
 * either allowed to run it (`true`) or denied (`false`); one that is neither is "not yet covered by
 * allowScripts", a warning today and skipped by a stricter npm. The declaration must name exactly the
 * packages of the lockfile that have install scripts, so that a new dependency with one fails here until
 * someone decides about it (docs/install.md, "Install scripts").
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";
import { publishedManifest, repositoryRoot } from "../../tools/pack.ts";

const readJson = async (name: string) => JSON.parse(await readFile(join(repositoryRoot, name), "utf8"));

/** A lockfile entry's package name: the last `node_modules/<name>` of its path. */
const nameOf = (path: string) => path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length);

it("allowScripts decides about every package of the lockfile with an install script, and no other", async () => {
  const manifest = await readJson("package.json");
  const lock = (await readJson("package-lock.json")) as {
    packages: Record<string, { hasInstallScript?: boolean }>;
  };
  const withScripts = Object.entries(lock.packages)
    .filter(([path, entry]) => path !== "" && entry.hasInstallScript === true)
    .map(([path]) => nameOf(path));
  // The lockfile does mark install scripts: the pinned Node and esbuild have them.
  expect(withScripts).toEqual(expect.arrayContaining(["node", "esbuild"]));

  const declared = manifest.allowScripts as Record<string, unknown>;
  expect(Object.keys(declared).sort()).toEqual([...new Set(withScripts)].sort());
  // npm takes booleans only, and name-only keys: the lockfile records no resolved URLs, so npm could not
  // verify a pinned version (it refuses an allow it cannot verify).
  for (const [key, value] of Object.entries(declared)) {
    expect(typeof value, key).toBe("boolean");
    expect(key, "a name, not a pinned version").not.toMatch(/.@/);
  }
  // The pinned Node installs its platform's binary, esbuild its platform's executable: both must run.
  expect(declared).toMatchObject({ node: true, esbuild: true });
});

it("the published package leaves allowScripts out: npm reads it only in the project being installed", async () => {
  const manifest = await readJson("package.json");
  expect(manifest.allowScripts).toBeDefined();
  expect(publishedManifest(manifest)).not.toHaveProperty("allowScripts");
});
