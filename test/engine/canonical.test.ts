import { describe, expect, it } from "vitest";
import { z } from "zod";
import { canonicalize, schemaAt } from "../../src/engine/canonical.ts";
import { set } from "../../src/kinds/index.ts";

describe("canonicalize", () => {
  it("sorts the sets a schema declares, and keeps lists in order", () => {
    const schema = z.object({ tags: set(z.string()), steps: z.array(z.string()) });
    expect(canonicalize({ tags: ["b", "a"], steps: ["b", "a"] }, schema)).toEqual({
      steps: ["b", "a"],
      tags: ["a", "b"],
    });
  });

  it("keeps a member named __proto__ as a member, never as the prototype", () => {
    const value = JSON.parse('{"b": 1, "__proto__": {"polluted": true}}');
    const out = canonicalize(value, undefined) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(["__proto__", "b"]);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect((out as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it("finds a member's schema by own names only", () => {
    const schema = z.object({ name: z.string() });
    expect(schemaAt(schema, ["name"])).toBe(schema.shape.name);
    expect(schemaAt(schema, ["toString"])).toBeUndefined();
    expect(schemaAt(schema, ["__proto__"])).toBeUndefined();
  });
});
