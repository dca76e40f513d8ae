/**
 * What the round-trip test (`round-trip.test.ts`) reads of the kinds: the members a configuration writes, one
 * path at a time (the variant member's members one by one); what tells a kind's variants apart; and whether
 * the kind's schema and rules, offline and by what the account allows, take a resource.
 */
import { isDeepStrictEqual } from "node:util";
import type { z } from "zod";
import {
  type DesiredResource,
  type Diagnostic,
  diagnosticCodes,
  judgeWrites,
  type KindName,
  validateDesired,
} from "../../../src/engine/index.ts";
import {
  type AccountView,
  inputSchemaOf,
  type KindDefinition,
  kinds,
  shapeOf,
  traitsOf,
  variantOf,
} from "../../../src/kinds/index.ts";

export type Members = Record<string, unknown>;
export const definitionOf = (name: KindName): KindDefinition => kinds.find((k) => k.name === name)!;

/**
 * What tells a kind's variants apart: its declared variant (a monitor's type), or the value of an immutable
 * enum member (a contact's channel). One object of the fixture per kind and variant is a base.
 */
export function variantKey(definition: KindDefinition, members: Members): string {
  const declared = variantOf(definition, members);
  if (declared !== undefined) return String(declared);
  const enums = Object.entries(definition.schema.shape).filter(
    ([, s]) => traitsOf(s as never).immutable && shapeOf(s as never).type === "values",
  );
  return enums.map(([name]) => String(members[name])).join("/") || definition.name;
}

/** Members that say which variant an object is: set by the base, never generated. */
function variantMembers(definition: KindDefinition): string[] {
  const enums = Object.entries(definition.schema.shape)
    .filter(([, s]) => traitsOf(s as never).immutable && shapeOf(s as never).type === "values")
    .map(([name]) => name);
  return [...enums, ...(definition.variants ? [definition.variants.discriminator] : [])];
}

export const getAt = (members: Members, path: readonly string[]) =>
  path.reduce<unknown>((v, step) => (v as Members | undefined)?.[step], members);
export function setAt(members: Members, path: readonly string[], value: unknown): Members {
  const out = structuredClone(members);
  let at = out;
  for (const step of path.slice(0, -1)) {
    at[step] ??= {};
    at = at[step] as Members;
  }
  at[path.at(-1)!] = value;
  return out;
}
export function withoutAt(members: Members, path: readonly string[]): Members {
  const out = structuredClone(members);
  const parent = getAt(out, path.slice(0, -1)) as Members | undefined;
  if (parent) delete parent[path.at(-1)!];
  return out;
}

/** The schema of the member at a path of an object's schema. */
export function schemaAt(schema: z.ZodType, path: readonly string[]): z.ZodType {
  return path.reduce((s, step) => {
    const shape = shapeOf(s);
    if (shape.type !== "object" || !shape.members[step]) throw new Error(`no member ${path.join(".")}`);
    return shape.members[step];
  }, schema);
}

/**
 * Why the kind's schema and rules refuse the resource, offline and by what the account allows (references to
 * objects not listed aside), or why it would be stored otherwise than written (a rule's warning).
 */
export function refusalOf(resource: DesiredResource, account: AccountView): Diagnostic | undefined {
  const offline = validateDesired([resource]).filter(
    (d) => d.code !== diagnosticCodes.unknownReference && d.code !== diagnosticCodes.referenceOrder,
  );
  const { errors, warnings } = judgeWrites(account, [{ resource, context: { creating: true } }], () => []);
  return [...offline, ...errors, ...warnings][0];
}

export const said = (d: Diagnostic) => `${d.pointer}: ${d.message}`;

/**
 * The resource as its kind's rules take it, or undefined: where a rule refuses another member, that member is
 * set to what the rule says it allows (a preset pins the pools), or else left out (`assertMode` refuses a
 * `contentType`), as a user would.
 */
export function accepted(resource: DesiredResource, path: readonly string[], account: AccountView) {
  let members = resource.members;
  for (let step = 0; step < 3; step++) {
    const refusal = refusalOf({ ...resource, members }, account);
    if (!refusal) return { ...resource, members };
    const allowed = refusal.entry?.allowed;
    const at = refusal.pointer.split("/").slice(1);
    if (at.length === 0 || isDeepStrictEqual(at, path) || getAt(members, at) === undefined) return undefined;
    members = allowed?.length ? setAt(members, at, allowed[0]) : withoutAt(members, at);
  }
  return undefined;
}

/**
 * The members but those never read back (`inputOnly`): they are no part of a round trip, and one may stand for
 * another (a monitor's `attached` for `settings.attached`), which the member under test may contradict.
 */
export function withoutInputOnly(definition: KindDefinition, members: Members): Members {
  return Object.fromEntries(
    Object.entries(members).filter(([name]) => {
      const schema = definition.schema.shape[name] as never;
      return !schema || !traitsOf(schema).inputOnly;
    }),
  );
}

/** Each member path of a base that configurations write, the variant member's members one by one. */
export function memberPaths(definition: KindDefinition, members: Members): string[][] {
  const schema = inputSchemaOf(definition, members);
  const fixed = variantMembers(definition);
  const out: string[][] = [];
  for (const [name, member] of Object.entries(schema.shape) as [string, never][]) {
    if (fixed.includes(name) || traitsOf(member).inputOnly) continue;
    const shape = shapeOf(member);
    if (name === definition.variants?.member && shape.type === "object") {
      for (const [inner, schemaOf] of Object.entries(shape.members) as [string, never][])
        if (!traitsOf(schemaOf).inputOnly && !traitsOf(schemaOf).readOnly) out.push([name, inner]);
    } else out.push([name]);
  }
  return out;
}

/** The member paths of a base that a valid object can do without: left out when a value needs room. */
export function optionalPaths(resource: DesiredResource, account: AccountView): string[][] {
  const definition = definitionOf(resource.kind);
  const optional: string[][] = [];
  let members = resource.members;
  for (const path of memberPaths(definition, resource.members)) {
    if (getAt(members, path) === undefined) continue;
    const without = withoutAt(members, path);
    if (refusalOf({ ...resource, members: without }, account) === undefined) {
      optional.push(path);
      members = without;
    }
  }
  return optional;
}
