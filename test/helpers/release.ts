/**
 * The release (`npm run release`) for tests: built once for a given state of the sources and shared by every
 * test file and worker (tools/release/build.ts keeps it in dist/release, keyed by a hash of its sources,
 * under a lock), and a PATH on which no `node` can be found.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildRelease, type Release } from "../../tools/release/build.ts";

/** The release, and how long this call took (a build, or finding the one already built). */
export async function testRelease(): Promise<Release & { seconds: number }> {
  const started = performance.now();
  const release = await buildRelease();
  const seconds = (performance.now() - started) / 1000;
  console.info(`release ${release.sourceHash.slice(0, 12)} ready in ${seconds.toFixed(1)} s`);
  return { ...release, seconds };
}

/**
 * A folder for PATH holding only `tools` (links to the ones this machine's PATH finds), and so no node: the
 * binaries must not need one. Tools this machine lacks are left out.
 */
export async function pathWithoutNode(tools: readonly string[] = []): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "vigil-no-node-"));
  for (const tool of tools) {
    const found = (() => {
      try {
        return execFileSync("sh", ["-c", 'command -v "$1"', "sh", tool], { encoding: "utf8" }).trim();
      } catch {
        return "";
      }
    })();
    if (found) await symlink(found, join(dir, tool));
  }
  if (existsSync(join(dir, "node"))) throw new Error("a PATH without node must not hold node");
  return dir;
}
