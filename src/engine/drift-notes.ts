/**
 * Drift the plan reports but never reverts: "vigil manages what you write; it
 * reports the rest". A member the configuration leaves unset is not managed,
 * so a change made to it outside vigil (a monitor paused by hand) is no
 * change to apply. The plan still says so, as a note.
 *
 * The rule: a member is judged when its kind declares the value the service
 * stores when a create leaves it out (the `default` trait, or the kind's
 * `storedDefaults` where the stored value depends on the object, like a
 * monitor's interval on its type's floor; `undefined` there when it cannot
 * be said, as for settings a preset builds). A live value other than that is
 * a note. Members without a declared default (a name that follows the url,
 * the locations an account chooses) are not judged: nothing says what they
 * should be. Credentials, members never read back, and members the
 * lifecycle's `ignoreChanges` names are not judged either.
 */
import type { z } from "zod";
import { membersOf, shapeOf } from "../kinds/index.ts";
import { canonicalize, sameValue } from "./canonical.ts";
import type { EngineKind, Members, Row } from "./kinds/index.ts";
import type { Lifecycle, PlanNote } from "./model.ts";
import { getAt, isObject, isUnder, pointer, toPointer } from "./pointer.ts";

interface Defaulted {
  path: string;
  value: unknown;
  schema: z.ZodType;
}

/** Members with a declared stored default, top level and one object deep (a monitor's `settings`). */
function defaultedMembers(schema: z.ZodObject, kind: EngineKind, members: Members): Defaulted[] {
  const out: Defaulted[] = [];
  const stored = kind.storedDefaults?.(members) ?? {};
  const visit = (object: z.ZodObject, prefix: string[], depth: number) => {
    for (const m of membersOf(object)) {
      const { traits } = m;
      if (traits.readOnly || traits.writeOnly || traits.inputOnly || traits.createOnly || traits.updateOnly)
        continue;
      const path = pointer([...prefix, m.name]);
      const overridden = depth === 0 && Object.hasOwn(stored, m.name);
      // The kind cannot say what the service stores here (settings a preset builds): not judged.
      if (overridden && stored[m.name] === undefined) continue;
      const value = overridden ? stored[m.name] : traits.default;
      if (value !== undefined) out.push({ path, value, schema: m.schema });
      const shape = shapeOf(m.schema);
      if (shape.type === "object" && depth === 0) visit(shape.object, [...prefix, m.name], depth + 1);
    }
  };
  visit(schema, [], 0);
  return out;
}

/** The notes of one resource: unset members whose live value is not the one the service stores by default. */
export function driftNotes(input: {
  address: string;
  kind: EngineKind;
  desired: Members;
  live: Row;
  lifecycle?: Lifecycle;
}): PlanNote[] {
  const { kind } = input;
  const desired = kind.normalizeDesired(input.desired);
  const live = kind.normalizeLive(input.live);
  const ignored = (input.lifecycle?.ignoreChanges ?? []).map(toPointer);
  const credentials = kind.credentials(live);
  const notes: PlanNote[] = [];
  for (const member of defaultedMembers(kind.schemaFor(input.desired), kind, input.desired)) {
    if (getAt(desired, member.path) !== undefined) continue;
    // A parent written as a whole value (null, a list) says what the member is.
    const parent = member.path.slice(0, member.path.lastIndexOf("/"));
    if (parent !== "" && getAt(desired, parent) !== undefined && !isObject(getAt(desired, parent))) continue;
    if (ignored.some((p) => isUnder(member.path, p)) || credentials.some((p) => isUnder(member.path, p)))
      continue;
    const value = getAt(live, member.path);
    if (value === undefined) continue;
    const expected = canonicalize(member.value, member.schema);
    if (sameValue(canonicalize(value, member.schema), expected)) continue;
    notes.push({
      type: "unmanaged_drift",
      address: input.address,
      kind: kind.name,
      id: String(input.live.id),
      path: member.path,
      live: value,
      default: expected,
    });
  }
  return notes;
}
