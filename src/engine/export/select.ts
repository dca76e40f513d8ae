/**
 * `vigil export --filter`: which objects of the graph an export writes. A filter is `KEY=VALUE[,VALUE...]`:
 *
 * - `kind=monitor,contact`: objects of these kinds (a kind's name or its section, in any case:
 *   `alertSubscription`, `alertSubscriptions`, `alert-subscriptions`);
 * - `tag=prod`: objects carrying one of these tags; an object without tags of its own (a subscription, a
 *   template) follows its parent;
 * - `name=checkout-*`: objects whose export name matches one of these patterns (`*` any characters, `?` one;
 *   whole name, any case); a child follows its parent as for tags.
 *
 * Values of one key, and repeated filters of one key, are alternatives; different keys must all match. Every
 * object a selected one references is exported too (a subscription needs its contact, a status page its
 * monitors), so the files plan without a dangling reference.
 */
import type { ExportGraph, ExportObject } from "./graph.ts";

export const filterKeys = ["kind", "tag", "name"] as const;
type FilterKey = (typeof filterKeys)[number];

/** Parsed filters: for each key given, its alternatives. */
export interface ExportFilter {
  kinds?: ReadonlySet<string>;
  tags?: ReadonlySet<string>;
  names?: readonly RegExp[];
  /** The filters as given, for messages. */
  given: readonly string[];
}

/** A filter that cannot be read: the message says which, what is wrong and what is allowed. */
export class FilterError extends Error {}

const squash = (text: string) => text.toLowerCase().replace(/[-_]/g, "");

/** Reads `--filter` values against the graph's kinds. */
export function parseFilters(texts: readonly string[], graphKinds: ExportGraph["kinds"]): ExportFilter {
  const values: Record<FilterKey, string[]> = { kind: [], tag: [], name: [] };
  for (const text of texts) {
    const at = text.indexOf("=");
    const key = text.slice(0, at).trim().toLowerCase();
    if (at < 0 || !(filterKeys as readonly string[]).includes(key))
      throw new FilterError(
        `--filter ${JSON.stringify(text)}: expected KEY=VALUE[,VALUE...] with KEY one of ${filterKeys.join(", ")} (kind=monitor, tag=prod, name=checkout-*).`,
      );
    const items = text
      .slice(at + 1)
      .split(",")
      .map((v) => v.trim());
    if (items.some((v) => v === ""))
      throw new FilterError(
        `--filter ${JSON.stringify(text)}: a value is empty; give ${key}=VALUE[,VALUE...].`,
      );
    values[key as FilterKey].push(...items);
  }
  const filter: { -readonly [K in keyof ExportFilter]: ExportFilter[K] } = { given: [...texts] };
  if (values.kind.length > 0) {
    const kinds = new Set<string>();
    for (const value of values.kind) {
      const kind = graphKinds.find(
        (k) => squash(k.name) === squash(value) || squash(k.section) === squash(value),
      );
      if (!kind)
        throw new FilterError(
          `--filter kind=${value}: no such kind; kinds: ${graphKinds.map((k) => k.name).join(", ")}.`,
        );
      kinds.add(kind.name);
    }
    filter.kinds = kinds;
  }
  if (values.tag.length > 0) filter.tags = new Set(values.tag);
  if (values.name.length > 0) filter.names = values.name.map(globPattern);
  return filter;
}

/** A glob (`*`, `?`) as a regular expression of the whole name, in any case. */
function globPattern(glob: string): RegExp {
  const source = [...glob]
    .map((c) => (c === "*" ? ".*" : c === "?" ? "." : c.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&")))
    .join("");
  return new RegExp(`^${source}$`, "i");
}

export interface Selection {
  graph: ExportGraph;
  /** Objects outside the filters, exported because a selected object references them. */
  added: readonly ExportObject[];
}

/** The graph narrowed to the objects the filters select, and to every object those reference. */
export function selectObjects(graph: ExportGraph, filter: ExportFilter): Selection {
  const matches = (object: ExportObject): boolean => {
    if (filter.kinds && !filter.kinds.has(object.kind.name)) return false;
    if (filter.tags && !tagged(object, filter.tags)) return false;
    return !filter.names || named(object, filter.names);
  };
  const selected = new Set(graph.objects.filter(matches));
  const chosen = new Set(selected);
  const references = new Map<ExportObject, ExportObject[]>();
  for (const edge of graph.edges) {
    const targets = references.get(edge.from);
    if (targets) targets.push(edge.to);
    else references.set(edge.from, [edge.to]);
  }
  const pending = [...selected];
  for (let object = pending.pop(); object; object = pending.pop())
    for (const target of references.get(object) ?? [])
      if (!chosen.has(target)) {
        chosen.add(target);
        pending.push(target);
      }
  const objects = graph.objects.filter((o) => chosen.has(o));
  return {
    graph: {
      kinds: graph.kinds,
      objects,
      edges: graph.edges.filter((e) => chosen.has(e.from)),
      variables: graph.variables.filter((v) => chosen.has(v.object)),
      leftOut: graph.leftOut.filter((l) => chosen.has(l.object)),
    },
    added: objects.filter((o) => !selected.has(o)),
  };
}

/** By tag: its own tags, or, for a child without tags of its own, its parent's. */
function tagged(object: ExportObject, tags: ReadonlySet<string>): boolean {
  if (object.tags.length === 0) return object.parent !== undefined && tagged(object.parent, tags);
  return object.tags.some((t) => tags.has(t));
}

/** By name: its own name, or, for a child, its parent's. */
function named(object: ExportObject, patterns: readonly RegExp[]): boolean {
  return (
    patterns.some((p) => p.test(object.name)) ||
    (object.parent !== undefined && named(object.parent, patterns))
  );
}
