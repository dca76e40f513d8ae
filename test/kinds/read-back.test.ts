/**
 * Every member the API reads back is declared on its kind: rows of every kind, read from a sandbox the way
 * the engine reads them (the full list, by delta sync where the kind has one, and get, with the kind's
 * expands), parse with the kind's strict schema, typed for the row's variant (a monitor's settings by its
 * type), or with its declared read-back form (`readBack`: a webhook's masked secret and scope count). A member the sandbox renders and
 * the kind does not declare fails here, naming the kind, the read and the member.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { applyChanges, MemoryStateStore } from "../../src/engine/index.ts";
import { engineKinds, type Row } from "../../src/engine/kinds/index.ts";
import { monitorKind, variantOf, variantSchemaOf } from "../../src/kinds/index.ts";
import { engineAccount, httpMonitor } from "../engine/e2e/helpers.ts";
import { everyKindFixture } from "../engine/fixtures/every-kind.ts";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

/** Each undeclared or mistyped member of the rows, as `<kind> <read> <id> <pointer>: <message>`. */
function undeclared(kind: (typeof engineKinds)[number], read: string, rows: readonly Row[]): string[] {
  return rows.flatMap((row) => {
    const parsed = (kind.definition.readBack ?? variantSchemaOf(kind.definition, row)).safeParse(row);
    if (parsed.success) return [];
    return parsed.error.issues.map((issue) => {
      const keys = "keys" in issue ? ` ${JSON.stringify(issue.keys)}` : "";
      return `${kind.name} ${read} ${String(row.id)} /${issue.path.join("/")}: ${issue.message}${keys}`;
    });
  });
}

it("rows of every kind and every monitor type, an over-limit monitor among them, parse with their kind's schema", async () => {
  const { ops, time } = await engineAccount(sb);
  const desired = everyKindFixture("read-back");
  const applied = await applyChanges({ ops, store: new MemoryStateStore(), desired, time });
  expect(applied.result.failures).toEqual([]);

  // A plan of one monitor: the second is created disabled, and reads back `overlimited`.
  const small = await engineAccount(sb, { featureOverrides: { monitors: 1 } });
  const overlimit = [
    httpMonitor("first", "https://first.example.com/"),
    httpMonitor("second", "https://second.example.com/", { onOverlimit: "disable" }),
  ];
  const second = await applyChanges({ ...small, store: new MemoryStateStore(), desired: overlimit });
  expect(second.result.failures).toEqual([]);

  const problems: string[] = [];
  const seen = new Map<string, number>();
  const types = new Set<string>();
  for (const { ops: reader } of [{ ops }, small]) {
    for (const kind of engineKinds) {
      const { rows } = await kind.listAll(reader);
      seen.set(kind.name, (seen.get(kind.name) ?? 0) + rows.length);
      problems.push(...undeclared(kind, "list", rows));
      const got = await Promise.all(rows.map((row) => kind.getOne(reader, row)));
      problems.push(...undeclared(kind, "get", got));
      if (kind.definition === monitorKind) {
        for (const row of got) types.add(variantOf(monitorKind, row) ?? String(row.type));
        if (reader !== ops) expect(got.some((row) => row.overlimited === true)).toBe(true);
      }
    }
  }
  expect(problems).toEqual([]);
  // Every kind was read, and every monitor type: the test saw what it claims to check.
  for (const kind of engineKinds) expect(seen.get(kind.name), kind.name).toBeGreaterThan(0);
  expect([...types].sort()).toEqual(Object.keys(monitorKind.variants!.schemas).sort());
});
