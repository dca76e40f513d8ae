/**
 * Request bodies from the desired members: a create sends what the config
 * says; an update sends only the changed members (settings merge on the
 * service, so only their changed members; arrays whole).
 */
import { traitsAt } from "../canonical.ts";
import type { EngineKind, Members } from "../kinds/index.ts";
import type { Change } from "../model.ts";
import { isObject, tokensOf } from "../pointer.ts";

/** Members the service takes on update only (a webhook's `enabled`): sent by a PATCH right after the create. */
export function updateOnlyMembers(kind: EngineKind, members: Members): string[] {
  const schema = kind.schemaFor(members);
  return Object.keys(members).filter((name) => traitsAt(schema, [name], members).updateOnly);
}

export function createBody(kind: EngineKind, members: Members): Members {
  const body: Members = { ...members };
  for (const name of [...kind.sideMembers, ...updateOnlyMembers(kind, members)]) delete body[name];
  return body;
}

const size = (value: unknown) => JSON.stringify(value).length;

/**
 * The minimal PATCH body for `changes`. `members` are the desired members with
 * references resolved; `normalized` their normalised form (for merged members,
 * whose sub-members may have been moved there, like `attached`).
 */
export function updateBody(
  kind: EngineKind,
  changes: readonly Change[],
  members: Members,
  normalized: Members,
): Members {
  const schema = kind.schemaFor(members);
  const body: Members = {};
  for (const change of changes) {
    const [top, sub] = tokensOf(change.path);
    if (top === undefined || kind.sideMembers.includes(top)) continue;
    const reset = (path: string[]) => traitsAt(schema, path, members).default ?? null;
    if (kind.merging.includes(top) && sub !== undefined) {
      const merged = (isObject(body[top]) ? body[top] : {}) as Members;
      const source = isObject(normalized[top]) ? normalized[top] : {};
      merged[sub] = source[sub] ?? null;
      body[top] = merged;
    } else {
      body[top] = top in members ? members[top] : reset([top]);
    }
  }
  // A tag set edit: addTags/removeTags when they are smaller than the whole set.
  const tagsChange = changes.find((c) => c.path === "/tags");
  if (Array.isArray(body.tags) && tagsChange && Array.isArray(tagsChange.before)) {
    const before = tagsChange.before as string[];
    const after = body.tags as string[];
    const addTags = after.filter((t) => !before.includes(t));
    const removeTags = before.filter((t) => !after.includes(t));
    const edit = { ...(addTags.length > 0 && { addTags }), ...(removeTags.length > 0 && { removeTags }) };
    if (size(edit) < size({ tags: after }) && traitsAt(schema, ["addTags"], members).updateOnly) {
      delete body.tags;
      Object.assign(body, edit);
    }
  }
  return body;
}

/** Whether the changes touch members written by their own call (a status page's components). */
export function touchesSide(kind: EngineKind, changes: readonly Change[]): boolean {
  return changes.some((c) => kind.sideMembers.includes(tokensOf(c.path)[0] ?? ""));
}
