/**
 * A live object as a config would describe it: what `vigil export` writes and what the Pulumi provider
 * answers as an imported resource's inputs. Either way a plan of the result against the object is empty.
 */
import type { z } from "zod";
import {
  type FieldTraits,
  isMaskedCredential,
  shapeOf,
  traitsOf,
  variantRuleRefusals,
} from "../kinds/index.ts";
import { canonicalize, sameValue, schemaAt } from "./canonical.ts";
import type { EngineKind, Members, Row } from "./kinds/index.ts";
import { getAt, isObject, tokensOf } from "./pointer.ts";

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The members of a live object worth writing, with the API's names and ids:
 * the `inputs` a frontend's config takes (the kind's create body and side
 * members, as that frontend offers them), as refresh normalises them, without
 * the members that only restate the service's defaults.
 */
export function configMembers(kind: EngineKind, row: Row, inputs: readonly string[]): Members {
  const normalized = structuredClone(kind.normalizeLive(row));
  const members: Members = {};
  for (const key of inputs) {
    if (normalized[key] !== undefined) members[key] = asWritten(kind, normalized, row, key);
  }
  const schema = kind.schemaFor(members);
  dropDefaults(members, schema, [], members, row);
  writeAloneMembersAlone(kind, members);
  return ordered(members, schema, [], members) as Members;
}

/**
 * The row's own value where refresh normalises it (a monitor's `url` as
 * written, not its `effectiveUrl`), when it normalises to the same: the
 * config then reads as the user wrote it, and members defaulting to it (a
 * monitor's name) still match it.
 */
function asWritten(kind: EngineKind, normalized: Members, row: Row, key: string): unknown {
  const raw = row[key];
  if (typeof raw !== "string" || raw === normalized[key]) return normalized[key];
  const again = kind.normalizeDesired({ ...normalized, [key]: raw });
  return sameValue(again[key], normalized[key]) ? raw : normalized[key];
}

/**
 * Whether a live value says no more than leaving the member unset: it equals the member's declared default
 * (or, for a member defaulting to another one, that member as the service read it), or, where no default is
 * declared, it is `null` or an empty list (the API's "none"). This is the one rule of "unset" for every
 * frontend: export and Pulumi's import leave such members out, Terraform's import leaves them unset, and a
 * plan never resets a member the config dropped when its value is already this.
 */
export function equalsUnset(
  value: unknown,
  traits: FieldTraits,
  schema: z.ZodType | undefined,
  row: Row,
): boolean {
  const fallback = traits.default;
  if (fallback !== undefined) {
    // Scalars compare as they are; lists and objects in canonical form (a set in any order).
    if (typeof fallback !== "object" || typeof value !== "object") return value === fallback;
    return sameValue(canonicalize(value, schema), canonicalize(fallback, schema));
  }
  if (traits.defaultFrom) return value === null || sameValue(value, row[traits.defaultFrom]);
  return value === null || (Array.isArray(value) && value.length === 0);
}

/**
 * Drops what a config need not say (`equalsUnset`), and objects left empty. Leaving a member out never
 * changes a plan of an imported object: only the members the config names are compared.
 */
function dropDefaults(value: Members, schema: z.ZodType, at: string[], root: Members, row: Row): void {
  for (const [key, member] of Object.entries(value)) {
    const path = [...at, key];
    const memberSchema = schemaAt(schema, path, root);
    const traits = memberSchema ? traitsOf(memberSchema) : {};
    // A member defaulting to another one is compared at the top level only, where that member is.
    const own = at.length === 0 || !traits.defaultFrom ? traits : { ...traits, defaultFrom: undefined };
    if (equalsUnset(member, own, memberSchema, row)) delete value[key];
    if (isObject(value[key])) {
      dropDefaults(member as Members, schema, path, root, row);
      if (Object.keys(member as Members).length === 0) delete value[key];
    }
  }
}

/**
 * A variant member the service takes only alone (a monitor's `settings.preset`) builds the others itself:
 * it is written alone, as it was sent.
 */
function writeAloneMembersAlone(kind: EngineKind, members: Members): void {
  const variants = kind.definition.variants;
  const value = variants && members[variants.member];
  if (!variants || !isObject(value)) return;
  const alone = variantRuleRefusals(kind.definition, members).find((r) => r.reason === "must_be_alone");
  const member = alone?.pointer.split("/")[2];
  if (member !== undefined) members[variants.member] = { [member]: value[member] };
}

/** The members of the object schema a value follows, in the kind's order (for a union, the option fitting it best). */
function memberOrder(schema: z.ZodType | undefined, value: Members, depth = 0): string[] {
  if (!schema || depth > 10) return [];
  const shape = shapeOf(schema);
  if (shape.type === "object") return Object.keys(shape.members);
  if (shape.type !== "union") return [];
  const fitting = (option: z.ZodType) =>
    memberOrder(option, value, depth + 1).filter((k) => Object.hasOwn(value, k)).length;
  return memberOrder([...shape.options].sort((a, b) => fitting(b) - fitting(a))[0], value, depth + 1);
}

/** Object members in the kind's member order, at every depth; members the schema does not know go last. */
function ordered(value: unknown, schema: z.ZodType, at: string[], root: Members): unknown {
  if (Array.isArray(value)) return value.map((item, i) => ordered(item, schema, [...at, String(i)], root));
  if (!isObject(value)) return value;
  const known = memberOrder(at.length === 0 ? schema : schemaAt(schema, at, root), value);
  const rank = (key: string) => (known.includes(key) ? known.indexOf(key) : known.length);
  const keys = Object.keys(value).sort(
    (a, b) => rank(a) - rank(b) || (rank(a) === known.length ? compare(a, b) : 0),
  );
  return Object.fromEntries(keys.map((k) => [k, ordered(value[k], schema, [...at, k], root)]));
}

/**
 * An imported object as its state's starting point, in Terraform and Pulumi alike: the live object as a
 * configuration describes it, by `configMembers` (what `vigil export` writes), so the configuration that
 * describes it plans no change. A member at its default, or empty where its default is empty (an http
 * contact's `templates = []`), is unset, as a configuration leaves it; a value the service reads back in
 * another form (a monitor's `url`) keeps the form a configuration writes. A member holding a credential the
 * API reads back masked (a webhook's header values) is unset too: nobody can know its value, so whatever the
 * configuration sets is taken, as it is at the first refresh of any import.
 */
export function importedMembers(kind: EngineKind, inputs: readonly string[], row: Row): Members {
  const members = configMembers(kind, row, inputs);
  for (const path of kind.credentials(members))
    if (isMaskedCredential(getAt(members, path))) delete members[tokensOf(path)[0]!];
  return members;
}
