/**
 * A live object as a config would describe it: what `vigil export` writes and what the Pulumi provider
 * answers as an imported resource's inputs. Either way a plan of the result against the object is empty.
 */
import type { z } from "zod";
import { shapeOf, variantRuleRefusals } from "../kinds/index.ts";
import { canonicalize, sameValue, schemaAt, traitsAt } from "./canonical.ts";
import type { EngineKind, Members, Row } from "./kinds/index.ts";
import { isObject } from "./pointer.ts";

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
 * Drops what a config need not say: values equal to the member's declared
 * default (or, for a member defaulting to another one, to that member as the
 * service read it), `null` and empty lists where no default is declared (the
 * API's "none"), and objects left empty. Leaving a member out never changes a
 * plan of an imported object: only the members the config names are compared.
 */
function dropDefaults(value: Members, schema: z.ZodType, at: string[], root: Members, row: Row): void {
  for (const [key, member] of Object.entries(value)) {
    const path = [...at, key];
    const traits = traitsAt(schema, path, root);
    const memberSchema = schemaAt(schema, path, root);
    if (traits.default !== undefined) {
      if (sameValue(canonicalize(member, memberSchema), canonicalize(traits.default, memberSchema)))
        delete value[key];
    } else if (traits.defaultFrom && at.length === 0) {
      if (member === null || sameValue(member, row[traits.defaultFrom])) delete value[key];
    } else if (member === null || (Array.isArray(member) && member.length === 0)) delete value[key];
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
