/**
 * A kind's name is a literal, and `KindName` the union of the registry's names: a misspelt kind does not
 * compile (`npm test` type-checks first, so an `@ts-expect-error` below that stops erroring fails it), and
 * a name read at run time is checked against the registry.
 */
import { describe, expect, it } from "vitest";
import { engineKind } from "../../src/engine/kinds/index.ts";
import {
  defineKind,
  isKindName,
  type KindName,
  kindNamed,
  kinds,
  monitorKind,
} from "../../src/kinds/index.ts";

describe("kind names", () => {
  it("keeps each definition's name as a literal", () => {
    const name: "monitor" = monitorKind.name;
    expect(name).toBe("monitor");
    const defined = defineKind({ ...monitorKind, name: "probe" });
    // @ts-expect-error: the defined kind's name is "probe", not any string.
    const other: "monitor" = defined.name;
    expect(other).toBe("probe");
  });

  it("refuses a misspelt kind at compile time and at run time", () => {
    // @ts-expect-error: "monitr" is no kind's name.
    expect(() => engineKind("monitr")).toThrow("unknown kind monitr");
    // @ts-expect-error: a table by kind has no room for it either.
    const table: Partial<Record<KindName, number>> = { monitr: 1 };
    expect(table).toEqual({ monitr: 1 });
    // Not an own member of the table: a prototype's name is no kind.
    expect(() => engineKind("toString" as KindName)).toThrow("unknown kind toString");
  });

  it("checks names read from declarations against the registry", () => {
    for (const kind of kinds) expect(kindNamed(kind.name)).toBe(kind.name);
    expect(isKindName("statusPageTemplate")).toBe(true);
    expect(isKindName("template")).toBe(false);
    expect(() => kindNamed("template")).toThrow("template is not a registered kind");
  });
});
