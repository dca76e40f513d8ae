/**
 * fast-check arbitraries for hostile requests to the sandbox, generated from
 * its operation table: bodies built on each operation's own member names (and
 * a valid body of its kind, one member made hostile), query strings built on
 * its own parameter names, and hostile headers.
 */
import fc from "fast-check";
import type { z } from "zod";
import type { Operation } from "../../../src/sandbox/core/operation.ts";

/** A JSON text tree: objects are entry lists, so duplicate and `__proto__` keys survive to the wire. */
export type Json =
  | null
  | boolean
  | number
  | string
  | Json[]
  | { entries: [string, Json][] }
  /** Text sent as is where a value goes: numbers JSON.stringify cannot write, deep brackets. */
  | { raw: string };

export function jsonText(value: Json): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(jsonText).join(",")}]`;
  if ("raw" in value) return value.raw;
  return `{${value.entries.map(([k, v]) => `${JSON.stringify(k)}:${jsonText(v)}`).join(",")}}`;
}

export const prototypeNames = [
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "valueOf",
  "isPrototypeOf",
  "__defineGetter__",
  "toJSON",
];

const hostileText = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }) },
  // Lone surrogates: valid JSON escapes, invalid UTF-16 once decoded.
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 10 }) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      ...prototypeNames,
      "",
      " ",
      "\u0000",
      "a\r\nX-Injected: 1",
      "%00",
      "../../etc/passwd",
      "null",
      "-1",
      "1e400",
      "NaN",
      "<script>alert(1)</script>",
      // A GitOps placeholder: the sandbox must store it as plain text.
      "$" + "{env:HOME}",
      "\u202e",
      "https://169.254.169.254/latest",
      "https://[::ffff:127.0.0.1]/",
    ),
  },
  // Huge strings, up to most of the 1 MiB body limit.
  { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 900_000 }).map((n) => "x".repeat(n)) },
);

const extremeNumber: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom(
    0,
    -0,
    1,
    -1,
    2 ** 31,
    2 ** 32,
    2 ** 53,
    2 ** 53 + 2,
    -(2 ** 53),
    1e308,
    -1e308,
    5e-324,
    0.5,
  ),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  // Numbers only the raw text can hold.
  fc
    .constantFrom("1e400", "-1e400", "1e-400", "123456789012345678901234567890", "-0.0e0", "1E+2")
    .map((raw) => ({ raw })),
);

const deepNesting: fc.Arbitrary<Json> = fc
  .tuple(fc.integer({ min: 1, max: 100_000 }), fc.constantFrom("[]", "{}"))
  .map(([depth, kind]) =>
    kind === "[]"
      ? { raw: `${"[".repeat(depth)}${"]".repeat(depth)}` }
      : { raw: `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}` },
  );

/** Any JSON value, hostile at every leaf, with keys drawn from `names` as well as anywhere. */
export function hostileValue(names: readonly string[]): fc.Arbitrary<Json> {
  const key = fc.oneof(
    { weight: 3, arbitrary: names.length > 0 ? fc.constantFrom(...names) : fc.string({ maxLength: 8 }) },
    { weight: 2, arbitrary: fc.constantFrom(...prototypeNames) },
    { weight: 1, arbitrary: hostileText },
  );
  const { value } = fc.letrec<{ value: Json }>((tie) => ({
    value: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.constant(null),
      fc.boolean(),
      extremeNumber,
      hostileText,
      deepNesting,
      fc.array(tie("value"), { maxLength: 4 }),
      fc.array(fc.tuple(key, tie("value")), { maxLength: 5 }).map((entries) => ({ entries })),
    ),
  }));
  return value;
}

/** The top-level member names of an operation's body schema (when it is an object). */
export function memberNames(schema: z.ZodType | undefined): string[] {
  const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape ? Object.keys(shape) : [];
}

/** The paths of every object inside a JSON tree (the root is `[]`), each as the member names leading to it. */
function objectPaths(value: Json, at: string[] = []): string[][] {
  if (value === null || typeof value !== "object") return [];
  if (Array.isArray(value)) return value.flatMap((item, i) => objectPaths(item, [...at, String(i)]));
  if ("raw" in value) return [];
  return [at, ...value.entries.flatMap(([k, v]) => objectPaths(v, [...at, k]))];
}

/** A copy of `tree` with `change` applied to the object at `path`. */
function atPath(tree: Json, path: string[], change: (entries: [string, Json][]) => [string, Json][]): Json {
  if (path.length === 0) return { entries: change((tree as { entries: [string, Json][] }).entries) };
  const [head, ...rest] = path as [string, ...string[]];
  if (Array.isArray(tree))
    return tree.map((item, i) => (String(i) === head ? atPath(item, rest, change) : item));
  const { entries } = tree as { entries: [string, Json][] };
  return {
    entries: entries.map(([k, v]) => [k, k === head ? atPath(v, rest, change) : v] as [string, Json]),
  };
}

/**
 * A valid body made hostile in one place, at any depth: one member's value
 * replaced, or a member added to any object in it (a prototype name, a
 * duplicate of a name already there, or one of the operation's own).
 */
function mutated(valid: Record<string, unknown>, names: readonly string[]): fc.Arbitrary<Json> {
  const tree = toJson(valid);
  const paths = objectPaths(tree);
  const value = hostileValue(names);
  return fc.oneof(
    fc
      .tuple(fc.constantFrom(...paths), fc.nat(), value)
      .map(([path, i, v]) =>
        atPath(tree, path, (entries) =>
          entries.length === 0
            ? [["x", v]]
            : entries.map(([k, old], j) => [k, j === i % entries.length ? v : old]),
        ),
      ),
    fc
      .tuple(
        fc.constantFrom(...paths),
        fc.constantFrom(...prototypeNames, ...names, ...Object.keys(valid)),
        value,
      )
      .map(([path, k, v]) => atPath(tree, path, (entries) => [...entries, [k, v]])),
    fc.constant(tree),
  );
}

function toJson(value: unknown): Json {
  if (Array.isArray(value)) return value.map(toJson);
  if (value !== null && typeof value === "object")
    return { entries: Object.entries(value).map(([k, v]) => [k, toJson(v)]) };
  return value as Json;
}

/** Body bytes: structured hostile JSON, a valid body made hostile, or text and bytes that are not JSON at all. */
export function bodyArbitrary(
  op: Operation,
  valid: Record<string, unknown> | undefined,
): fc.Arbitrary<Buffer> {
  const names = memberNames(op.body);
  const structured = fc
    .oneof(
      {
        weight: 3,
        arbitrary: fc
          .array(fc.tuple(fc.constantFrom(...names, "x"), hostileValue(names)), { maxLength: 6 })
          .map((entries) => ({ entries })),
      },
      { weight: 1, arbitrary: hostileValue(names) },
      ...(valid ? [{ weight: 4, arbitrary: mutated(valid, names) }] : []),
    )
    .map((json) => Buffer.from(jsonText(json)));
  const broken = fc.oneof(
    fc.string({ maxLength: 50 }).map((text) => Buffer.from(text)),
    // Valid JSON cut short.
    structured.chain((bytes) => fc.nat(bytes.length).map((n) => bytes.subarray(0, n))),
    // Bytes that are not UTF-8 inside a string, or a BOM in front.
    fc
      .tuple(
        fc.constantFrom(
          [0xff],
          [0xc0, 0x80],
          [0xed, 0xa0, 0x80],
          [0xf8, 0x88, 0x80, 0x80, 0x80],
          [0xef, 0xbb, 0xbf],
        ),
      )
      .map(([bytes]) => Buffer.concat([Buffer.from('{"name":"'), Buffer.from(bytes), Buffer.from('"}')])),
    fc.constant(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("{}")])),
  );
  return fc.oneof({ weight: 6, arbitrary: structured }, { weight: 1, arbitrary: broken });
}

/** `%`-escapes that do not decode, or decode to bytes that are not UTF-8. */
const badEncoding = fc.constantFrom(
  "%",
  "%z",
  "%zz",
  "%ff",
  "%c0%80",
  "%ed%a0%80",
  "%E0%A4%A",
  "%%",
  "+",
  "%2",
  ";",
);

/** A query string: the operation's own names and Object.prototype's, repeated, empty, huge, badly encoded. */
export function queryArbitrary(op: Operation): fc.Arbitrary<string> {
  const names = Object.keys(op.query ?? {});
  const name = fc.oneof(
    ...(names.length > 0 ? [{ weight: 4, arbitrary: fc.constantFrom(...names) }] : []),
    { weight: 2, arbitrary: fc.constantFrom(...prototypeNames) },
    { weight: 1, arbitrary: fc.string({ maxLength: 10 }).map(encodeURIComponent) },
    { weight: 1, arbitrary: badEncoding },
  );
  const value = fc.oneof(
    { weight: 4, arbitrary: hostileText.filter((t) => t.length < 3_000).map(encodeURIComponent) },
    { weight: 2, arbitrary: extremeNumber.map((n) => encodeURIComponent(jsonText(n))) },
    { weight: 1, arbitrary: badEncoding },
    // Past the 16 KiB header limit: the request line itself is refused.
    { weight: 1, arbitrary: fc.integer({ min: 100, max: 20_000 }).map((n) => "9".repeat(n)) },
  );
  return fc
    .array(fc.tuple(name, value, fc.boolean()), { maxLength: 5 })
    .map((pairs) => pairs.map(([n, v, bare]) => (bare && v === "" ? n : `${n}=${v}`)).join("&"));
}

const printable = fc.string({ maxLength: 60 }).map((s) => s.replace(/[^\x20-\x7e]/g, "?"));

export interface HeaderChoice {
  /** `token`: the acting account's; `none`; or a literal Authorization value. */
  auth: "token" | "none" | "token+junk" | string;
  headers: Record<string, string>;
}

/** Headers: the token (mostly), or none or a broken one; hostile idempotency keys and content types. */
export const headerArbitrary: fc.Arbitrary<HeaderChoice> = fc.record({
  auth: fc.oneof(
    { weight: 12, arbitrary: fc.constant("token") },
    { weight: 1, arbitrary: fc.constantFrom("none", "token+junk") },
    { weight: 1, arbitrary: printable.map((s) => `Bearer ${s}`) },
    { weight: 1, arbitrary: fc.constantFrom("Basic dXNlcjpwYXNz", "Bearer", "bearer  vgl_", "Bearer vgl_.") },
  ),
  headers: fc.record(
    {
      "idempotency-key": fc.oneof(
        fc.uuid(),
        fc.constantFrom("", "__proto__", "constructor"),
        fc.integer({ min: 200, max: 400 }).map((n) => "k".repeat(n)),
        printable,
      ),
      "content-type": fc.constantFrom(
        "application/json",
        "application/json; charset=utf-8",
        "application/json; charset=latin1",
        "Application/JSON",
        "application/json-patch+json",
        "text/plain",
        "application/x-www-form-urlencoded",
        "",
      ),
      accept: fc.constantFrom("text/html", "application/xml", "*/*", "application/problem+json"),
      "x-http-method-override": fc.constantFrom("DELETE", "PUT"),
      "x-request-id": printable,
      "x-forwarded-for": fc.constantFrom("127.0.0.1", "10.0.0.1, 8.8.8.8", "not-an-ip"),
    },
    { requiredKeys: [] },
  ),
});
