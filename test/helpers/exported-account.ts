/**
 * What the tests of `vigil export`'s program formats share (test/terraform/e2e/export-hcl.test.ts,
 * export-cdktf.test.ts, test/pulumi/export-program.test.ts): an account holding every kind, with references
 * between them and credentials set, exported by the real CLI into a directory.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "vitest";
import { applyChanges, type DesiredResource, MemoryStateStore } from "../../src/engine/index.ts";
import { type VigilRun, vigil } from "../cli/vigil.ts";
import { engineAccount } from "../engine/e2e/helpers.ts";
import { everyKindFixture } from "../engine/fixtures/every-kind.ts";
import type { TestSandbox } from "./sandbox.ts";

/**
 * Every kind, plus an http contact without templates (it reads them back [], which an unset member must
 * equal: the known case, `templates = [] -> null` on import) and a monitor whose body holds
 * `templated`, text the target language would read as a template and must keep literal.
 */
export function exportFixture(tag: string, templated: string): DesiredResource[] {
  return [
    ...everyKindFixture(tag),
    {
      address: "contacts.plain-hook",
      kind: "contact",
      members: { type: "http", address: `https://plain-${tag}.example.com/hook` },
    },
    {
      address: "monitors.templated",
      kind: "monitor",
      members: {
        type: "http",
        url: `https://templated-${tag}.example.com/`,
        locations: { pools: ["allworld"] },
        settings: { method: "P", body: templated },
      },
    },
  ];
}

/** Every credential value the fixture sends: none may reach a file. */
export const fixtureCredentials = (tag: string) => [
  `pw-${tag}`,
  `api-pw-${tag}`,
  `db-pw-${tag}`,
  `s3cret@db-${tag}`,
  `public-${tag}`,
  `auth-${tag}`,
  `priv-${tag}`,
  `Bearer hook-${tag}`,
  `Bearer ${tag}`,
  `fixture-secret-${tag}`,
];

/** `fixture` applied to a fresh account of `sb`: the account, and each live id's resource of the fixture. */
export async function appliedFixture(sb: TestSandbox, fixture: readonly DesiredResource[]) {
  const { ops, time, account } = await engineAccount(sb);
  const store = new MemoryStateStore();
  expect((await applyChanges({ ops, store, desired: fixture, time })).result.failures).toEqual([]);
  const byId = new Map(
    Object.entries(store.saved!.resources).map(([address, r]) => [
      r.id!,
      fixture.find((f) => f.address === address)!,
    ]),
  );
  return { account, byId };
}

/** `vigil export --format <format> --out <dir>` of the account `token` opens, run in `cwd`; the files it wrote. */
export async function exportWith(
  sb: TestSandbox,
  token: string,
  options: { format: string; dir: string; cwd: string },
): Promise<{ exported: VigilRun; files: Record<string, string> }> {
  const exported = await vigil(
    ["export", "--format", options.format, "--out", options.dir, "--endpoint", sb.url, "--token", token],
    { cwd: options.cwd, timeoutMs: 120_000 },
  );
  expect(exported.stderr).toBe("");
  expect(exported.code).toBe(0);
  const files: Record<string, string> = {};
  for (const name of await readdir(options.dir))
    files[name] = await readFile(join(options.dir, name), "utf8");
  return { exported, files };
}
