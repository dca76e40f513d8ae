/**
 * A kind's members as the sandbox stores and answers them, read from the kind: the create and update bodies
 * come from the kind (`crud.ts`), and so do the members a write keeps, a read shows and a copy repeats. A
 * member added to a kind is stored, read back and copied without a line here; a resource writes out only the
 * members it works out itself (a monitor's interval by its type, a contact's gateway).
 */
import type { z } from "zod";
import { membersOf, shapeOf } from "../../kinds/index.ts";

/**
 * The kind's members as a stored document may hold them, every one optional (the kind says which a write
 * keeps); the id is the document's own.
 */
export type KindMembers<Body> = { [K in Exclude<keyof Body, "id">]?: Body[K] | null };

interface StoredMember {
  name: string;
  /**
   * What an unsent member is stored as: the kind's default, an empty list, null where the member takes it,
   * else nothing (undefined: the member is left out).
   */
  unset: () => unknown;
}

const storedCache = new WeakMap<z.ZodObject, readonly StoredMember[]>();

/**
 * The members a write stores and a read answers, in the kind's order: all but those the service sets
 * (`readOnly`) and those only ever written (`createOnly`, `inputOnly`, `updateOnly`).
 */
function storedOf(schema: z.ZodObject): readonly StoredMember[] {
  let stored = storedCache.get(schema);
  if (!stored) {
    stored = membersOf(schema)
      .filter(
        ({ traits }) => !traits.readOnly && !traits.createOnly && !traits.inputOnly && !traits.updateOnly,
      )
      .map(({ name, schema: member, traits }) => {
        const fallback = traits.default;
        const empty = shapeOf(member).type === "array";
        const nullable = member.safeParse(null).success;
        return {
          name,
          unset: () =>
            fallback !== undefined ? structuredClone(fallback) : empty ? [] : nullable ? null : undefined,
        };
      });
    storedCache.set(schema, stored);
  }
  return stored;
}

/** The names of the members a write stores and a read answers, in the kind's order. */
export const storedMembersOf = (schema: z.ZodObject): string[] => storedOf(schema).map((m) => m.name);

const has = (doc: object | undefined, name: string): doc is Record<string, unknown> =>
  doc !== undefined && Object.hasOwn(doc, name);

/**
 * The stored members a write leaves, but for those the resource works out itself (`except`): each the value
 * sent, else the one stored, else what an unsent member is stored as (its default, an empty list, null, or
 * nothing).
 */
export function storedValues(
  schema: z.ZodObject,
  body: object,
  current: object | undefined,
  except: readonly string[] = [],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { name, unset } of storedOf(schema)) {
    if (except.includes(name)) continue;
    const sent = (body as Record<string, unknown>)[name];
    const value = sent !== undefined ? sent : has(current, name) ? current[name] : unset();
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/**
 * A stored document's members as a read answers them, in the kind's order, but for those the resource
 * answers itself (`except`). A member the document predates reads as an unsent one.
 */
export function renderedValues(
  schema: z.ZodObject,
  doc: object,
  except: readonly string[] = [],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { name, unset } of storedOf(schema)) {
    if (except.includes(name)) continue;
    const value = has(doc, name) ? doc[name] : unset();
    if (value !== undefined) out[name] = value;
  }
  return out;
}
