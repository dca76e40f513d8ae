/**
 * What the kinds' relations imply, derived from `KindDefinition.relations` and the `references` trait alone:
 * the order kinds are written in, which deletes take which objects along, and which kinds live under a
 * parent. The engine (plan, apply, guard) and the GitOps format ask here, so a kind declares its relations
 * once and no shared code names a kind.
 */
import type { z } from "zod";
import { traitsOf } from "./field.ts";
import type { KindDefinition } from "./kind.ts";
import { shapeOf } from "./walk.ts";

/** The kinds a schema's members reference (`references` traits at any depth, arrays and unions included). */
function referencedIn(schema: z.ZodType, out: Set<string>): void {
  const target = traitsOf(schema).references;
  if (target) out.add(target);
  const shape = shapeOf(schema);
  if (shape.type === "object") for (const member of Object.values(shape.members)) referencedIn(member, out);
  else if (shape.type === "array") referencedIn(shape.element, out);
  else if (shape.type === "record") referencedIn(shape.value, out);
  else if (shape.type === "union") for (const option of shape.options) referencedIn(option, out);
}

/**
 * The kinds one kind depends on: those its members reference, its parent, and the kinds whose delete takes
 * it along. Each must exist before an object of this kind can be written.
 */
export function dependenciesOf(definition: KindDefinition): string[] {
  const out = new Set<string>();
  referencedIn(definition.schema, out);
  const relations = definition.relations;
  if (relations?.parent) out.add(relations.parent.kind);
  for (const d of relations?.deletedWith ?? []) out.add(d.kind);
  out.delete(definition.name);
  return [...out];
}

/**
 * The kinds in dependency order: every kind after the kinds it depends on. Among kinds that do not depend
 * on each other the registry's order stands, so the order is stable and a new kind lands where it is listed.
 * A reference to a kind the registry lacks, or a cycle, is a mistake in the kinds and throws.
 */
export function dependencyOrder<K extends KindDefinition>(registry: readonly K[]): K[] {
  const byName = new Map(registry.map((k) => [k.name, k]));
  const out: K[] = [];
  const state = new Map<string, "visiting" | "done">();
  const visit = (kind: K, path: readonly string[]) => {
    const seen = state.get(kind.name);
    if (seen === "done") return;
    if (seen === "visiting")
      throw new Error(`kinds depend on each other in a cycle: ${[...path, kind.name].join(" → ")}`);
    state.set(kind.name, "visiting");
    for (const name of dependenciesOf(kind)) {
      const target = byName.get(name);
      if (!target) throw new Error(`${kind.name} depends on ${name}, which is not a registered kind`);
      visit(target, [...path, kind.name]);
    }
    state.set(kind.name, "done");
    out.push(kind);
  };
  for (const kind of registry) visit(kind, []);
  return out;
}

/** A kind's parent, when it lives under one (`alertSubscription` under `monitor`). */
export const parentOf = (definition: KindDefinition) => definition.relations?.parent;

/** Kinds without a parent: configs write them at the top level (kinds with one are written inside it). */
export function topLevelOf<K extends KindDefinition>(registry: readonly K[]): K[] {
  return registry.filter((k) => !parentOf(k));
}

/** A delete that takes an object along: the kind deleted, and the member of the object that names it. */
export interface CascadeSource {
  kind: string;
  member: string;
}

/** The deletes that take objects of this kind along: its parent's first, then `deletedWith`. */
export function cascadeSourcesOf(definition: KindDefinition): CascadeSource[] {
  const relations = definition.relations;
  return [
    ...(relations?.parent ? [{ kind: relations.parent.kind, member: relations.parent.member }] : []),
    ...(relations?.deletedWith ?? []),
  ];
}

/** The kinds a delete of `deleted` takes along, each with the member of the delete receipt that lists them. */
export function cascadedBy<K extends KindDefinition>(
  registry: readonly K[],
  deleted: string,
): { kind: K; cascadedAs: string | undefined }[] {
  return registry
    .filter((k) => cascadeSourcesOf(k).some((s) => s.kind === deleted))
    .map((kind) => ({ kind, cascadedAs: kind.relations?.cascadedAs }));
}

/**
 * Kinds whose objects belong to others (a parent, or a kind whose delete takes them along): their last
 * objects going is an edit of their owners, not a kind vanishing from the configuration.
 */
export function ownedKindsOf<K extends KindDefinition>(registry: readonly K[]): K[] {
  return registry.filter((k) => cascadeSourcesOf(k).length > 0);
}
