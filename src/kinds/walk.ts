/**
 * The one walk of the kinds' zod schemas. `shapeOf` is the only place that asks zod what a schema is; on
 * it stand the credential pointers (`credentials.ts`), the members a configuration writes (`inputSchemaOf`)
 * and the attribute tree (`attributes.ts`) that the Terraform, Pulumi and docs generators render.
 */
import { z } from "zod";
import { bodySchema, membersOf, peel } from "./field.ts";
import type { KindDefinition } from "./kind.ts";
import { variantSchemaOf } from "./variants.ts";

/** What a schema is, its wrappers (optional, nullable, default, pipe) peeled. */
export type Shape =
  | { type: "object"; object: z.ZodObject; members: Readonly<Record<string, z.ZodType>> }
  | { type: "array"; element: z.ZodType }
  | { type: "record"; value: z.ZodType }
  /** A union's options, or an intersection's two sides: a value may hold what any of them holds. */
  | { type: "union"; options: readonly z.ZodType[] }
  /** `format`: a string format's name (`url`, `uuid`), absent for a plain string. */
  | { type: "string" | "number" | "boolean"; integer: boolean; format?: string }
  /** An enum or literals: the values it takes. */
  | { type: "values"; values: readonly unknown[]; enum: boolean }
  | { type: "other"; name: string };

/** Each schema's shape, once: plans and exports ask for the same schemas' shapes thousands of times. */
const shapes = new WeakMap<z.ZodType, Shape>();

export function shapeOf(schema: z.ZodType): Shape {
  let shape = shapes.get(schema);
  if (!shape) {
    shape = Object.freeze(shapeOfUncached(schema));
    shapes.set(schema, shape);
  }
  return shape;
}

function shapeOfUncached(schema: z.ZodType): Shape {
  const s = peel(schema);
  if (s instanceof z.ZodObject)
    return { type: "object", object: s, members: s.shape as Record<string, z.ZodType> };
  if (s instanceof z.ZodArray) return { type: "array", element: s.element as z.ZodType };
  if (s instanceof z.ZodRecord) return { type: "record", value: s.valueType as z.ZodType };
  if (s instanceof z.ZodUnion) return { type: "union", options: s.options as z.ZodType[] };
  if (s instanceof z.ZodIntersection)
    return { type: "union", options: [s.def.left as z.ZodType, s.def.right as z.ZodType] };
  if (s instanceof z.ZodEnum) return { type: "values", values: Object.values(s.enum), enum: true };
  if (s instanceof z.ZodLiteral) return { type: "values", values: [...s.values], enum: false };
  // By the definition's type: string formats (`z.uuid()`) are not ZodString instances.
  const name = s.def.type;
  if (name === "string") {
    const format = (s.def as { format?: string }).format;
    return { type: "string", integer: false, ...(format !== undefined && { format }) };
  }
  if (name === "boolean") return { type: "boolean", integer: false };
  if (name === "number") return { type: "number", integer: s instanceof z.ZodNumber && s.isInt === true };
  return { type: "other", name };
}

/** Whether an object's member may be left out. */
export const isOptionalMember = (member: z.ZodType): boolean => member instanceof z.ZodOptional;

/** The schemas a value may take: unions spread into their options, recursively. */
export function optionsOf(schema: z.ZodType): z.ZodType[] {
  const shape = shapeOf(schema);
  return shape.type === "union" ? shape.options.flatMap(optionsOf) : [schema];
}

/** One step down from each schema: a member by name, or `*` for the items of an array or the values of a record. */
export function stepInto(schemas: readonly z.ZodType[], step: string): z.ZodType[] {
  return schemas.flatMap(optionsOf).flatMap((option): z.ZodType[] => {
    const shape = shapeOf(option);
    if (step === "*" && shape.type === "array") return [shape.element];
    if (step === "*" && shape.type === "record") return [shape.value];
    if (step !== "*" && shape.type === "object" && Object.hasOwn(shape.members, step))
      return [shape.members[step]!];
    return [];
  });
}

const inputSchemas = new WeakMap<KindDefinition, z.ZodObject>();

/**
 * The members a configuration sets for a kind: its create body, plus the members written by calls of their
 * own (`side`), minus those configurations never write (`configExcludedMembers`). Given an object's members, the
 * schema is that object's (a monitor's settings typed by its type).
 */
/**
 * Members configurations never write: those only a create accepts (trait `createOnly`: a monitor's inline
 * contacts and subscriptions) are never read back, so vigil could not keep them in step; configurations
 * declare such objects as resources of their own.
 */
export function configExcludedMembers(definition: KindDefinition): string[] {
  return membersOf(definition.schema)
    .filter((m) => m.traits.createOnly)
    .map((m) => m.name);
}

export function inputSchemaOf(definition: KindDefinition, members?: Record<string, unknown>): z.ZodObject {
  if (members !== undefined) return buildInputSchema(definition, members);
  let cached = inputSchemas.get(definition);
  if (!cached) {
    cached = buildInputSchema(definition, undefined);
    inputSchemas.set(definition, cached);
  }
  return cached;
}

function buildInputSchema(
  definition: KindDefinition,
  members: Record<string, unknown> | undefined,
): z.ZodObject {
  const own = members ? variantSchemaOf(definition, members) : definition.schema;
  let schema = bodySchema(own, "create");
  for (const side of definition.side?.members ?? []) {
    const body = definition.side?.body.shape[side] as z.ZodType | undefined;
    if (!body) throw new Error(`${definition.name}.${side}: a side member needs its body schema`);
    schema = schema.extend({ [side]: body.optional() });
  }
  const excluded = configExcludedMembers(definition);
  if (excluded.length > 0) schema = schema.omit(Object.fromEntries(excluded.map((m) => [m, true])) as never);
  return schema;
}
