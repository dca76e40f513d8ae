import { describe, expect, it } from "vitest";
import { z } from "zod";
import { closest, issuesToEntries, toPointer } from "../../src/kinds/index.ts";

const schema = z.strictObject({
  name: z.string().max(3),
  count: z.number().int().min(1).max(5),
  mode: z.enum(["fast", "slow"]),
  tags: z.array(z.string()).max(1),
  nested: z.strictObject({ flag: z.boolean() }).optional(),
  ip: z.ipv4().optional(),
  custom: z
    .number()
    .refine((n) => n % 2 === 0, {
      message: "must be even",
      params: { code: "invalid_settings", reason: "odd" },
    })
    .optional(),
});

function entries(input: unknown) {
  const result = schema.safeParse(input);
  if (result.success) throw new Error("expected issues");
  return issuesToEntries(result.error.issues, input, schema);
}

describe("issuesToEntries", () => {
  it("maps every kind of issue to a pointer, a reason and what is allowed", () => {
    const out = entries({
      name: "toolong",
      count: 1.5,
      mode: "fsat",
      tags: ["a", "b"],
      nested: { flag: "yes", extra: 1 },
      ip: "300.1.1.1",
      custom: 3,
      nmae: "x",
    });
    const by = (pointer: string) => out.filter((e) => e.pointer === pointer);
    expect(by("/name")[0]).toMatchObject({ reason: "too_long", value: "toolong", maximum: 3 });
    expect(by("/count")[0]).toMatchObject({ reason: "wrong_type", expected: "integer", value: 1.5 });
    expect(by("/mode")[0]).toMatchObject({
      reason: "not_allowed",
      allowed: ["fast", "slow"],
      didYouMean: "fast",
    });
    expect(by("/tags")[0]).toMatchObject({ reason: "too_many", maximum: 1 });
    expect(by("/nested/flag")[0]).toMatchObject({ reason: "wrong_type", expected: "boolean", value: "yes" });
    expect(by("/nested/extra")[0]).toMatchObject({ reason: "unknown_member", allowed: ["flag"] });
    expect(by("/ip")[0]).toMatchObject({ reason: "invalid_format", expected: "ipv4" });
    expect(by("/custom")[0]).toMatchObject({ reason: "odd", code: "invalid_settings", value: 3 });
    expect(by("/nmae")[0]).toMatchObject({ reason: "unknown_member", didYouMean: "name" });
  });

  it("reports a missing member as required, out-of-range numbers with their bound", () => {
    const out = entries({ count: 9, tags: [] });
    expect(out.find((e) => e.pointer === "/name")).toMatchObject({ reason: "required" });
    expect(out.find((e) => e.pointer === "/count")).toMatchObject({
      reason: "out_of_range",
      maximum: 5,
      value: 9,
    });
  });

  it("prefixes pointers", () => {
    const input = { flag: 1 };
    const inner = z.strictObject({ flag: z.boolean() });
    const result = inner.safeParse(input);
    expect(issuesToEntries(result.error!.issues, input, inner, ["settings"])[0]?.pointer).toBe(
      "/settings/flag",
    );
  });
});

describe("helpers", () => {
  it("escapes JSON Pointer tokens", () => {
    expect(toPointer(["a/b", "c~d", 0])).toBe("/a~1b/c~0d/0");
  });

  it("suggests only close candidates", () => {
    expect(closest("htp", ["http", "ping"])).toBe("http");
    expect(closest("zzzzzz", ["http", "ping"])).toBeUndefined();
  });
});
