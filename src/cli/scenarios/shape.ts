/**
 * A test file's shape, judged by the format's zod schemas (format.ts), each problem at its
 * file:line:column in words: an unknown member with its did-you-mean, a value of the wrong type, a value
 * not among those allowed. Expectations name a contact or a webhook; each entry is judged by the schema of
 * the one it names, so a mistake is said once, in that schema's terms.
 */
import { z } from "zod";
import { type ParsedFile, quote, type YamlPath } from "../../gitops/files.ts";
import { describeValue, memberPath } from "../../gitops/load-draft.ts";
import { closest } from "../../kinds/index.ts";
import {
  contactExpectationSchema,
  contactNeverSchema,
  scenarioSchema,
  stepSchema,
  testFileShell,
  webhookExpectationSchema,
  webhookNeverSchema,
} from "./format.ts";
import type { TestDiagnostic } from "./model.ts";

type Schema = z.ZodType;

/** Peels `optional` and `describe` wrappers off a schema. */
function unwrapped(schema: Schema): Schema {
  let s = schema;
  while (s instanceof z.ZodOptional) s = s.unwrap() as Schema;
  return s;
}

/** The schema at a path below `schema`, through objects and arrays (unions are judged branch by branch). */
function schemaAt(schema: Schema, path: readonly PropertyKey[]): Schema | undefined {
  let s: Schema | undefined = unwrapped(schema);
  for (const step of path) {
    if (s instanceof z.ZodObject && typeof step === "string") s = s.shape[step] as Schema | undefined;
    else if (s instanceof z.ZodArray) s = s.element as Schema;
    else return undefined;
    s = s && unwrapped(s);
  }
  return s;
}

/** What a schema takes, in words: `a string`, `a list`, `true or false`. */
function expected(schema: Schema | undefined): string {
  const s = schema && unwrapped(schema);
  if (s instanceof z.ZodUnion) return s.options.map((o) => expected(o as Schema)).join(" or ");
  if (s instanceof z.ZodObject) return "a map";
  if (s instanceof z.ZodArray) return "a list";
  if (s instanceof z.ZodBoolean) return "true or false";
  if (s instanceof z.ZodNumber) return "a whole number";
  if (s instanceof z.ZodEnum) return `one of ${s.options.join(", ")}`;
  return "a string";
}

const get = (data: unknown, path: readonly PropertyKey[]): unknown =>
  path.reduce<unknown>(
    (v, k) =>
      typeof v === "object" && v !== null && Object.hasOwn(v, k)
        ? (v as Record<PropertyKey, unknown>)[k]
        : undefined,
    data,
  );

export class ShapeReader {
  readonly problems: TestDiagnostic[] = [];
  readonly #file: ParsedFile;

  constructor(file: ParsedFile) {
    this.#file = file;
  }

  /** Where the value at `path` is written. */
  placeOf(path: YamlPath) {
    return this.#file.positions.value(path);
  }

  /** Reports a problem at the value (or, `onKey`, the key) of `path`. */
  problem(path: YamlPath, message: string, onKey = false): void {
    const at = onKey ? this.#file.positions.key(path) : this.#file.positions.value(path);
    this.problems.push({ ...(at && { at }), ...(path.length > 0 && { path: memberPath(path) }), message });
  }

  /** `value` (at `base` in the file) parsed by `schema`, or undefined after reporting what is wrong. */
  parse<T extends Schema>(schema: T, value: unknown, base: YamlPath): z.infer<T> | undefined {
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    for (const issue of result.error.issues) this.#report(schema, value, base, issue);
    // Unknown members said, what is known is still read, so the mistakes further in are said too.
    if (schema instanceof z.ZodObject) {
      const lenient = schema.strip().safeParse(value);
      if (lenient.success) return lenient.data as z.infer<T>;
    }
    return undefined;
  }

  #report(schema: Schema, value: unknown, base: YamlPath, issue: z.core.$ZodIssue): void {
    const path = issue.path.filter((k): k is string | number => typeof k !== "symbol");
    const at: YamlPath = [...base, ...path];
    const here = get(value, path);
    const target = schemaAt(schema, path);
    switch (issue.code) {
      case "unrecognized_keys": {
        const allowed = target instanceof z.ZodObject ? Object.keys(target.shape) : [];
        for (const key of issue.keys) {
          const hint = closest(key, allowed);
          this.problem(
            [...at, key],
            `unknown member ${quote(key)}; allowed: ${allowed.join(", ")}${hint ? `; did you mean "${hint}"?` : ""}`,
            true,
          );
        }
        return;
      }
      case "invalid_value": {
        if (here === undefined && !hasPath(value, path)) {
          this.problem(at.slice(0, -1), `${quote(String(at.at(-1)))} is required (${expected(target)})`);
          return;
        }
        const allowed = issue.values.map(String);
        const hint = typeof here === "string" ? closest(here, allowed) : undefined;
        this.problem(
          at,
          `${describeValue(here)} is not allowed; allowed: ${allowed.join(", ")}${hint ? `; did you mean "${hint}"?` : ""}`,
        );
        return;
      }
      case "too_small":
        if (issue.origin === "array") this.problem(at, `must list at least ${issue.minimum}`);
        else if (issue.origin === "string") this.problem(at, "must not be empty");
        else this.problem(at, `must be at least ${issue.minimum}; got ${describeValue(here)}`);
        return;
      case "invalid_type":
        if (here === undefined && !hasPath(value, path)) {
          this.problem(at.slice(0, -1), `${quote(String(at.at(-1)))} is required (${expected(target)})`);
          return;
        }
        this.problem(at, `expected ${expected(target)}, got ${describeValue(here)}`);
        return;
      default:
        this.problem(at, `expected ${expected(target)}, got ${describeValue(here)}`);
    }
  }
}

function hasPath(data: unknown, path: readonly PropertyKey[]): boolean {
  if (path.length === 0) return true;
  const parent = get(data, path.slice(0, -1));
  return typeof parent === "object" && parent !== null && Object.hasOwn(parent, path.at(-1)!);
}

/** The two forms of an entry of `expect:` or `never:`: it names a contact or a webhook. */
const entrySchemas = {
  expect: { contact: contactExpectationSchema, webhook: webhookExpectationSchema },
  never: { contact: contactNeverSchema, webhook: webhookNeverSchema },
} as const;

export type ExpectEntry = z.infer<typeof contactExpectationSchema> | z.infer<typeof webhookExpectationSchema>;
export type NeverEntry = z.infer<typeof contactNeverSchema> | z.infer<typeof webhookNeverSchema>;

/** The scenario shell: its steps and entries are judged one by one, so a mistake in one hides none in another. */
const scenarioShell = scenarioSchema.extend({
  steps: z.array(z.unknown()).optional(),
  expect: z.array(z.unknown()).optional(),
  never: z.array(z.unknown()).optional(),
});

export interface ShapedScenario {
  scenario: z.infer<typeof scenarioShell>;
  steps: (z.infer<typeof stepSchema> | undefined)[];
  expect: (ExpectEntry | undefined)[];
  never: (NeverEntry | undefined)[];
}

/** Reads a file's shape: the top level, then each scenario and each of its entries on its own. */
export function readShape(reader: ShapeReader, data: unknown) {
  const file = reader.parse(testFileShell, data, []);
  if (!file) return undefined;
  const scenarios = file.scenarios.map((raw, i): ShapedScenario | undefined => {
    const base = ["scenarios", i];
    const scenario = reader.parse(scenarioShell, raw, base);
    if (!scenario) return undefined;
    return {
      scenario,
      steps: (scenario.steps ?? []).map((step, j) => reader.parse(stepSchema, step, [...base, "steps", j])),
      expect: (scenario.expect ?? []).map((e, j) => entry(reader, "expect", e, [...base, "expect", j])),
      never: (scenario.never ?? []).map((e, j) => entry(reader, "never", e, [...base, "never", j])),
    };
  });
  return { file, scenarios };
}

function entry<L extends "expect" | "never">(
  reader: ShapeReader,
  list: L,
  value: unknown,
  at: YamlPath,
): (L extends "expect" ? ExpectEntry : NeverEntry) | undefined {
  const isMap = typeof value === "object" && value !== null && !Array.isArray(value);
  const names = (key: string) => isMap && Object.hasOwn(value, key);
  if (!isMap || names("contact") === names("webhook")) {
    const example =
      list === "expect"
        ? "{ at: 5m, contact: NAME, alert: down } or { at: 0m, webhook: NAME, event: monitor.down }"
        : "{ contact: NAME } or { webhook: NAME }";
    const what = !isMap
      ? `got ${describeValue(value)}`
      : names("contact")
        ? "it names both"
        : "it names neither";
    reader.problem(at, `an entry of ${list} names a contact or a webhook (${example}); ${what}`);
    return undefined;
  }
  const schema = entrySchemas[list][names("webhook") ? "webhook" : "contact"];
  return reader.parse(schema as Schema, value, at) as
    | (L extends "expect" ? ExpectEntry : NeverEntry)
    | undefined;
}
