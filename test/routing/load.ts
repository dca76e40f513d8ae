import { rm } from "node:fs/promises";
import { afterAll, expect } from "vitest";
import { loadConfig } from "../../src/gitops/load.ts";
import { workspace } from "../cli/vigil.ts";

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

/** The resources of a configuration of one file, loaded as `vigil` loads it; it must be valid. */
export async function resourcesOf(yaml: string) {
  const dir = await workspace({ "monitoring.yaml": yaml });
  dirs.push(dir);
  const config = await loadConfig([dir]);
  expect(config.diagnostics).toEqual([]);
  return config.resources;
}
