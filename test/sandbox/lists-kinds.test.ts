import { describe, expect, it } from "vitest";
import { contactGroupKind, monitorKind } from "../../src/kinds/index.ts";
import { type ListSpec, listOperations } from "../../src/sandbox/core/list.ts";

type Row = { id: string; name: string };

const spec = (overrides: Partial<ListSpec<Row>> = {}): ListSpec<Row> => ({
  id: "contact.group.list",
  path: "/contact/group",
  kind: contactGroupKind,
  summary: "Groups.",
  scope: "contact:read",
  rows: () => [],
  rowId: (r) => r.id,
  sort: { default: "name", columns: { name: { key: (r) => r.name }, created: { key: () => 0, time: true } } },
  render: (_ctx, r) => r,
  ...overrides,
});

describe("a list that serves a kind", () => {
  it("builds when it is the list the kind declares", () => {
    expect(listOperations(spec()).map((op) => `${op.method} ${op.path}`)).toEqual([
      "GET /contact/group",
      "POST /contact/group/q",
    ]);
  });

  it("refuses to build when it contradicts the kind", () => {
    expect(() => listOperations(spec({ path: "/contact/groups" }))).toThrow(
      /path \/contact\/groups is not \/contact\/group/,
    );
    expect(() =>
      listOperations(spec({ sort: { default: "created", columns: spec().sort!.columns } })),
    ).toThrow(/default sort differs/);
    expect(() =>
      listOperations(spec({ sort: { default: "name", columns: { name: { key: (r) => r.name } } } })),
    ).toThrow(/sort columns differ/);
    expect(() =>
      listOperations(spec({ filters: { q: { param: { type: "string" }, match: () => true } } })),
    ).toThrow(/filters differ/);
    expect(() => listOperations(spec({ syncSeq: () => 0 }))).toThrow(/delta sync differs/);
    expect(() => listOperations(spec({ kind: monitorKind }))).toThrow(/does not match kind monitor/);
  });
});
