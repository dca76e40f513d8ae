import { z } from "zod";

/**
 * Traits declared beside each field. Everything derived from a kind (sandbox
 * validation, engine diff, JSON Schema, Terraform and Pulumi schemas, docs)
 * reads them from here, never from a second hand-written list.
 */
export interface FieldTraits {
  /** Set by the service; never sent. */
  readOnly?: boolean;
  /**
   * A credential (a password, a webhook secret, a header value): vigil never shows it. It is masked in plans,
   * hashed in the state, sensitive in Terraform, secret in Pulumi and a placeholder in exports
   * (`credentials.ts` finds it). The service reads most back masked, `{set: true, ...}`.
   */
  writeOnly?: boolean;
  /**
   * A credential the service generates when a create leaves it out, and shows in full in that answer only
   * (a webhook's `secret`). Frontends hand it to the user once: the CLI's outputs file, a sensitive
   * computed Terraform attribute, a Pulumi secret output (`generated<Name>`).
   */
  generated?: boolean;
  /** Accepted on create only; not part of an update and not read back. */
  createOnly?: boolean;
  /** Accepted on writes but never read back (for example `assertsSource`, `onOverlimit`). */
  inputOnly?: boolean;
  /** Accepted on update only (for example `addTags`, webhook `enabled`). */
  updateOnly?: boolean;
  /** A change cannot be applied in place: the resource must be replaced. */
  immutable?: boolean;
  /** The value the service stores when the member is absent on create. */
  default?: unknown;
  /** Arrays only: `set` when order carries no meaning, `list` otherwise. */
  collection?: "set" | "list";
  /** When absent, the service uses the value of this other member (monitor `name` defaults to the address). */
  defaultFrom?: string;
  /** The service stores at most this value (a larger one is silently lowered). */
  storedCap?: number;
  description?: string;
  /** The id of another kind's object, by kind name: configs name that object instead (`contactId` → `contact: oncall`). */
  references?: string;
  /** Unix seconds: configs may write an ISO 8601 time instead. */
  timestamp?: boolean;
  /**
   * Read-only members: the members whose change, by a write, can move this one (a monitor's `effectiveUrl`
   * moves with its `url`). Absent, any write may move it (`updated`). A plan shows the rest as they are.
   */
  changesWith?: readonly string[];
}

export const fieldTraits = z.registry<FieldTraits>();

/**
 * Declares a field's traits next to its zod schema. Traits go on a clone, so a
 * shared schema (say `unixTime`) never carries one field's traits into another.
 */
export function field<T extends z.ZodType>(schema: T, traits: FieldTraits): T {
  const own = schema.clone() as T;
  fieldTraits.add(own, { ...fieldTraits.get(schema), ...traits });
  return own;
}

/** An array whose order carries no meaning (tags, alertTypes, events). */
export function set<T extends z.ZodType>(item: T, traits: Omit<FieldTraits, "collection"> = {}) {
  return field(z.array(item), { ...traits, collection: "set" });
}

/** An array whose order is meaningful (steps, headers). */
export function list<T extends z.ZodType>(item: T, traits: Omit<FieldTraits, "collection"> = {}) {
  return field(z.array(item), { ...traits, collection: "list" });
}

/** Peels optional/nullable/default wrappers off a schema. */
export function unwrapOptional(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (;;) {
    if (fieldTraits.has(current)) return current;
    if (current instanceof z.ZodOptional || current instanceof z.ZodNullable) {
      current = current.unwrap() as z.ZodType;
    } else if (current instanceof z.ZodDefault) {
      current = current.def.innerType as z.ZodType;
    } else {
      return current;
    }
  }
}

/** The traits declared on a field, looking through optional/nullable wrappers. */
export function traitsOf(schema: z.ZodType): FieldTraits {
  return fieldTraits.get(unwrapOptional(schema)) ?? {};
}

export type SchemaMember = { name: string; schema: z.ZodType; traits: FieldTraits };
// Schemas never change once built, and hot paths (rendering 500-row pages) ask for the same members again and again.
const membersCache = new WeakMap<z.ZodObject, readonly SchemaMember[]>();

/** The members of an object schema, each with its declared traits. */
export function membersOf(schema: z.ZodObject): readonly SchemaMember[] {
  let members = membersCache.get(schema);
  if (!members) {
    members = Object.entries(schema.shape).map(([name, member]) => ({
      name,
      schema: member as z.ZodType,
      traits: traitsOf(member as z.ZodType),
    }));
    membersCache.set(schema, members);
  }
  return members;
}

/** The server defaults of an object schema's members. */
export function defaultsOf(schema: z.ZodObject): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { name, traits } of membersOf(schema)) {
    if (traits.default !== undefined) out[name] = structuredClone(traits.default);
  }
  return out;
}

/**
 * The body an operation accepts, derived from a kind's schema: read-only
 * members are never sent, create-only members are not part of an update, and
 * update-only members are not part of a create.
 */
const bodyCache = new WeakMap<z.ZodObject, Partial<Record<"create" | "update", z.ZodObject>>>();

/** Each body is derived when first asked for: `vigil validate` needs no update bodies. */
export function bodySchema<S extends z.ZodObject>(schema: S, operation: "create" | "update"): z.ZodObject {
  let bodies = bodyCache.get(schema);
  if (!bodies) {
    bodies = {};
    bodyCache.set(schema, bodies);
  }
  let body = bodies[operation];
  if (!body) {
    const drop: Record<string, true> = {};
    for (const { name, traits } of membersOf(schema)) {
      if (traits.readOnly || (operation === "update" ? traits.createOnly : traits.updateOnly))
        drop[name] = true;
    }
    body = schema.omit(drop as never) as unknown as z.ZodObject;
    bodies[operation] = body;
  }
  return body;
}

/** Names of members declared as credentials. */
export function writeOnlyMembers(schema: z.ZodObject): string[] {
  return membersOf(schema)
    .filter((m) => m.traits.writeOnly)
    .map((m) => m.name);
}

/** Peels every wrapper (optional, nullable, default, pipe) off a schema. */
export function peel(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (;;) {
    if (current instanceof z.ZodOptional || current instanceof z.ZodNullable)
      current = current.unwrap() as z.ZodType;
    else if (current instanceof z.ZodDefault) current = current.def.innerType as z.ZodType;
    else if (current instanceof z.ZodPipe) current = current.def.in as z.ZodType;
    else return current;
  }
}
