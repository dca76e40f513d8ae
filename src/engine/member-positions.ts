/**
 * Where a kind's members hold references to other objects and timestamps, found from two field traits
 * (`references`, `timestamp`) on the members a configuration writes. The export graph and the GitOps format
 * both read them here, so neither names a member of a kind.
 */
import type { z } from "zod";
import { inputSchemaOf, shapeOf, traitsOf } from "../kinds/index.ts";
import { engineKind } from "./kinds/index.ts";
import type { KindName } from "./model.ts";

/** Path tokens from a resource's members to an object; `*` stands for any array item. */
export type SchemaPath = readonly string[];

/** A member holding the id (or ids) of another kind's objects. */
export interface ReferencePosition {
  /** Where the object holding the member is. */
  at: SchemaPath;
  /** The API's name: `contactId`, `monitorIds`. */
  member: string;
  target: KindName;
  /** A list of ids rather than one. */
  many: boolean;
}

/** A member in Unix seconds. */
export interface TimestampPosition {
  at: SchemaPath;
  member: string;
}

export interface MemberPositions {
  references: ReferencePosition[];
  timestamps: TimestampPosition[];
}

function walk(schema: z.ZodType, at: string[], out: MemberPositions): void {
  const shape = shapeOf(schema);
  if (shape.type === "union") {
    for (const option of shape.options) walk(option, at, out);
    return;
  }
  if (shape.type === "array") {
    walk(shape.element, [...at, "*"], out);
    return;
  }
  if (shape.type !== "object") return;
  for (const [member, value] of Object.entries(shape.members)) {
    const traits = traitsOf(value);
    const inner = shapeOf(value);
    const itemTraits = inner.type === "array" ? traitsOf(inner.element) : {};
    const target = traits.references ?? itemTraits.references;
    if (target) {
      out.references.push({ at, member, target: target as KindName, many: !traits.references });
      continue;
    }
    if (traits.timestamp) out.timestamps.push({ at, member });
    walk(value, [...at, member], out);
  }
}

const positions = new Map<KindName, MemberPositions>();

/** The references and timestamps among the members a configuration of this kind writes. */
export function memberPositions(kind: KindName): MemberPositions {
  let found = positions.get(kind);
  if (!found) {
    found = { references: [], timestamps: [] };
    walk(inputSchemaOf(engineKind(kind).definition), [], found);
    positions.set(kind, found);
  }
  return found;
}

/** Whether a concrete path (array indices as numbers) is at a schema path. */
export function isAt(path: readonly (string | number)[], at: SchemaPath): boolean {
  return (
    path.length === at.length && at.every((t, i) => (t === "*" ? typeof path[i] === "number" : t === path[i]))
  );
}
