/**
 * Values for a kind's member, generated from its zod schema and traits: every candidate parses, none is the
 * member's declared default, enums give their other values, numbers stay within their bounds, strings match
 * their patterns, formats and lengths, objects set every member they take, and a member that references
 * another kind (`references`) points at a fresh object of that kind. What the schema cannot say (ids from a
 * catalogue, the account's intervals) comes from `hint`. The round-trip test (`test/engine/e2e/round-trip`)
 * tries the candidates in order until the kind's rules and the service take one.
 */
import { randomUUID } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { z } from "zod";
import { isRef } from "../../src/engine/model.ts";
import { isOptionalMember, shapeOf, traitsOf } from "../../src/kinds/index.ts";

export interface ValueContext {
  /** A fresh object of a kind for a reference to point at. */
  reference(kind: string): { $ref: string };
  /** Candidates the schema cannot say, for a member path (`["locations", "pools"]`), or undefined. */
  hint(path: readonly string[]): readonly unknown[] | undefined;
  /** What a valid object holds at the path, if anything: numbers near it are tried too. */
  current(path: readonly string[]): unknown;
  /** A number unique to the run, so generated names and addresses never collide. */
  next(): number;
}

/** How many candidates a member gets. */
const width = 6;

/** JSON Schema keywords of a scalar: bounds, lengths, patterns and formats. */
function keywords(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { unrepresentable: "any", io: "input" }) as Record<string, unknown>;
  const options = (json.anyOf ?? json.oneOf) as Record<string, unknown>[] | undefined;
  return options?.find((o) => o.type !== "null") ?? json;
}

function numbers(schema: z.ZodType, integer: boolean, near: unknown): number[] {
  const k = keywords(schema);
  const step = integer ? 1 : 0.5;
  const lo = (k.minimum as number | undefined) ?? ((k.exclusiveMinimum as number | undefined) ?? -1) + step;
  const hi =
    (k.maximum as number | undefined) ?? ((k.exclusiveMaximum as number | undefined) ?? 100_001) - step;
  const mid = integer ? Math.floor((lo + hi) / 2) : (lo + hi) / 2;
  const around = typeof near === "number" ? [near + 60, near - 60, near + 3600, near - 3600] : [];
  return [...around, lo + step, 7, 42, mid, hi - step, lo, hi].filter((n) => n >= lo && n <= hi);
}

/** Strings of the usual shapes a member takes: the schema and the kind's rules keep the ones that fit. */
function strings(schema: z.ZodType, format: string | undefined, n: number): string[] {
  const k = keywords(schema);
  const pattern = k.pattern as string | undefined;
  const matching = pattern
    ? fc.sample(fc.stringMatching(new RegExp(pattern)), { seed: n, numRuns: width })
    : [];
  const formatted =
    format === "email"
      ? [`rt-${n}@example.com`]
      : format === "uuid" || format === "guid"
        ? [randomUUID()]
        : format === "url"
          ? [`https://rt-${n}.example.com/p`]
          : [];
  const shapes = [
    `rt-${n}`,
    String(n % 1000),
    `https://rt-${n}.example.com/p`,
    `rt-${n}.example.com`,
    `rt-${n}@example.com`,
    `+1555${String(1_000_000 + n).slice(-7)}`,
    `rt-${n}.example.com:8443`,
    `203.0.113.${n % 250}`,
  ];
  const max = (k.maxLength as number | undefined) ?? Number.POSITIVE_INFINITY;
  const min = (k.minLength as number | undefined) ?? 0;
  return [...formatted, ...matching, ...shapes].filter((s) => s.length >= min && s.length <= max);
}

/** A value with its references replaced by an id, to be judged by the schema. */
function withIds(value: unknown): unknown {
  if (isRef(value)) return randomUUID();
  if (Array.isArray(value)) return value.map(withIds);
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withIds(v)]));
  return value;
}

/**
 * Objects with every member they take, in combinations that vary each member's value (a rule may tie one
 * member's values to another's), then the same with their required members alone.
 */
function objects(
  members: Readonly<Record<string, z.ZodType>>,
  ctx: ValueContext,
  path: readonly string[],
): Record<string, unknown>[] {
  const each = Object.entries(members)
    .filter(([, member]) => !traitsOf(member).readOnly)
    .map(([name, member]) => ({
      name,
      optional: isOptionalMember(member),
      values: valuesOf(member, ctx, [...path, name]),
    }))
    .filter(({ values }) => values.length > 0);
  const all = Array.from({ length: width * 2 }, (_, i) =>
    Object.fromEntries(each.map(({ name, values }, j) => [name, values[(i * (j + 2) + j) % values.length]])),
  );
  const optional = new Set(each.filter((m) => m.optional).map((m) => m.name));
  const required = all.map((o) =>
    Object.fromEntries(Object.entries(o).filter(([name]) => !optional.has(name))),
  );
  return [...all, ...required];
}

function arrays(element: z.ZodType, schema: z.ZodType, ctx: ValueContext, path: readonly string[]) {
  const items = valuesOf(element, ctx, [...path, "*"]);
  if (items.length === 0) return [];
  const k = keywords(schema);
  const min = Math.max((k.minItems as number | undefined) ?? 1, 1);
  const max = (k.maxItems as number | undefined) ?? items.length;
  const take = (count: number, from: number) =>
    Array.from({ length: Math.min(count, items.length) }, (_, i) => items[(from + i) % items.length]);
  return [take(Math.max(min, 2), 0), take(min, 1), take(Math.max(min, 3), 2)].filter(
    (a) => a.length >= min && a.length <= max,
  );
}

/**
 * Candidate values of a member, best first: each parses against `schema` (references judged as ids) and none
 * equals the declared default.
 */
export function valuesOf(schema: z.ZodType, ctx: ValueContext, path: readonly string[]): unknown[] {
  const traits = traitsOf(schema);
  const shape = shapeOf(schema);
  let out: unknown[];
  const hinted = ctx.hint(path);
  if (hinted) out = [...hinted];
  else if (traits.references) out = [ctx.reference(traits.references)];
  else if (shape.type === "values") out = [...shape.values];
  else if (shape.type === "boolean") out = [true, false];
  else if (shape.type === "number") out = numbers(schema, shape.integer, ctx.current(path));
  else if (shape.type === "string") out = strings(schema, shape.format, ctx.next());
  else if (shape.type === "object") out = objects(shape.members, ctx, path);
  else if (shape.type === "array") out = arrays(shape.element, schema, ctx, path);
  else if (shape.type === "record") out = valuesOf(shape.value, ctx, [...path, "*"]).map((v) => ({ rt: v }));
  else if (shape.type === "union") out = shape.options.flatMap((option) => valuesOf(option, ctx, path));
  else out = [];
  const fresh = out.filter(
    (v, i) => out.findIndex((w) => isDeepStrictEqual(v, w)) === i && !isDeepStrictEqual(v, traits.default),
  );
  return fresh.filter((v) => schema.safeParse(withIds(v)).success).slice(0, width * 2);
}
