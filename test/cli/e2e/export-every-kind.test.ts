/**
 * `vigil export` (YAML) of an account holding every kind, with references between them and credentials set:
 * `vigil plan` over the export, with a state of its own, shows only imports and no change, in either layout.
 * And adoption is safe: applying part of an export with a fresh state imports that part and deletes
 * nothing, since only what the state manages is ever pruned.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import type { Operations } from "../../../src/api/index.ts";
import { readAccount } from "../../../src/engine/export/graph.ts";
import {
  applyChanges,
  type DesiredResource,
  MemoryStateStore,
  parsePlan,
} from "../../../src/engine/index.ts";
import { getAt, toPointer } from "../../../src/engine/pointer.ts";
import { engineAccount } from "../../engine/e2e/helpers.ts";
import { everyKindFixture } from "../../engine/fixtures/every-kind.ts";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { vigil, workspace } from "../vigil.ts";

const tag = "yamlexport";
const fixture: DesiredResource[] = [
  ...everyKindFixture(tag),
  {
    address: "contacts.plain-hook",
    kind: "contact",
    members: { type: "http", address: `https://plain-${tag}.example.com/hook` },
  },
];

let sb: TestSandbox;
let ops: Operations;
let connection: string[];
/** Live id → the fixture's resource. */
let byId: Map<string, DesiredResource>;
let home: string;

beforeAll(async () => {
  sb = await startTestSandbox();
  const account = await engineAccount(sb);
  ops = account.ops;
  const store = new MemoryStateStore();
  expect((await applyChanges({ ops, store, desired: fixture, time: account.time })).result.failures).toEqual(
    [],
  );
  byId = new Map(
    Object.entries(store.saved!.resources).map(([address, r]) => [
      r.id!,
      fixture.find((f) => f.address === address)!,
    ]),
  );
  connection = ["--endpoint", sb.url, "--token", account.account.token];
  home = await workspace();
}, 120_000);
afterAll(() => sb?.close());

/** Exports into a fresh directory; answers it with the environment its placeholders need (the fixture's values). */
async function exported(...options: string[]) {
  const out = await workspace();
  const run = await vigil(["export", "--out", out, ...options, ...connection], {
    cwd: home,
    timeoutMs: 120_000,
  });
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  const imports = parse(await readFile(join(out, "imports.yaml"), "utf8")).imports as {
    to: string;
    id: string;
  }[];
  const env: Record<string, string> = {};
  for (const [, name, address, member] of run.stdout.matchAll(
    /^ {2}(VIGIL_[A-Z0-9_]+) {2}\((\S+) (\S+)\)$/gm,
  )) {
    const resource = byId.get(imports.find((i) => i.to === address)!.id)!;
    env[name!] = String(getAt(resource.members, toPointer(member!)));
  }
  return { out, env, imports, stdout: run.stdout };
}

/** How many objects of each kind the account holds. */
async function counts() {
  return Object.fromEntries([...(await readAccount(ops))].map(([kind, rows]) => [kind, rows.length]));
}

describe("vigil export, then vigil plan, on an account with every kind", { timeout: 240_000 }, () => {
  it.each([["kind"], ["tag"]])(
    "--split-by %s: the plan imports every object and changes nothing",
    async (layout) => {
      const { out, env, imports } = await exported("--split-by", layout);
      expect(imports.map((i) => i.id).sort()).toEqual([...byId.keys()].sort());
      const plan = await vigil(
        [
          "plan",
          out,
          "--json",
          "--detailed-exitcode",
          "--state",
          join(out, ".vigil/state.json"),
          ...connection,
        ],
        { cwd: home, env, timeoutMs: 120_000 },
      );
      expect(plan.stderr).toBe("");
      expect(plan.code).toBe(2);
      const parsed = parsePlan(plan.stdout);
      expect(parsed.summary).toMatchObject({
        import: byId.size,
        create: 0,
        update: 0,
        replace: 0,
        delete: 0,
      });
      expect(parsed.actions.filter((a) => a.action !== "import" || a.changes.length > 0)).toEqual([]);
    },
  );
});

describe("adopting part of an export", { timeout: 240_000 }, () => {
  it("applies the imports of that part and deletes nothing the configuration leaves out", async () => {
    const before = await counts();
    // Part of the account: the contacts, and one of them dropped from the files before the first apply.
    const { out, env, imports } = await exported("--filter", "kind=contact");
    const contacts = parse(await readFile(join(out, "contacts.yaml"), "utf8"));
    const dropped = Object.keys(contacts.contacts)[0]!;
    delete contacts.contacts[dropped];
    const kept = imports.filter((i) => i.to !== `contacts.${dropped}`);
    const files = {
      "contacts.yaml": stringify(contacts),
      "imports.yaml": stringify({ imports: kept }),
    };
    const dir = await workspace(files);
    expect((await readdir(dir)).sort()).toEqual(["contacts.yaml", "imports.yaml"]);
    const state = join(dir, ".vigil/state.json");
    const apply = await vigil(["apply", dir, "--auto-approve", "--state", state, ...connection], {
      cwd: home,
      env,
      timeoutMs: 120_000,
    });
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stdout).toContain(`Apply complete: ${kept.length} imported.`);
    expect(await counts()).toEqual(before);
    // The state manages the imported contacts only: a second apply of the same part changes nothing.
    const again = await vigil(["plan", dir, "--detailed-exitcode", "--state", state, ...connection], {
      cwd: home,
      env,
      timeoutMs: 120_000,
    });
    expect(again.code, `${again.stdout}\n${again.stderr}`).toBe(0);
    expect(Object.keys(JSON.parse(await readFile(state, "utf8")).resources).sort()).toEqual(
      kept.map((i) => i.to).sort(),
    );
  });
});
