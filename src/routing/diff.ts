import { pagesOnDown, type Route, type RoutingMatrix } from "./matrix.ts";

/** The "who gets paged" difference between two matrices: routes by monitor and recipient. */
export interface RoutesDiff {
  added: Route[];
  removed: Route[];
  changed: { before: Route; after: Route; members: string[] }[];
  /** Enabled monitors of both that paged a contact on `down` before and page none now. */
  unpaged: string[];
}

/** A route's identity: its monitor and its recipient (a contact, or a webhook). */
export const routeKey = (r: Route): string =>
  JSON.stringify([r.monitor, r.contact === null ? "webhook" : "contact", r.contact ?? r.webhook]);

/** The members a change is judged on, in the order a change lists them. */
const compared = [
  "channel",
  "alertTypes",
  "delayMinutes",
  "confirmed",
  "outcome",
  "reason",
  "events",
  "missedNotices",
  "heldBy",
] as const satisfies readonly (keyof Route)[];

/** Routes of `after` not in `before`, those gone, and those whose members differ; each in matrix order. */
export function diffRoutes(before: RoutingMatrix, after: RoutingMatrix): RoutesDiff {
  const old = new Map(before.routes.map((r) => [routeKey(r), r]));
  const now = new Set(after.routes.map(routeKey));
  const diff: RoutesDiff = { added: [], removed: [], changed: [], unpaged: [] };
  for (const r of after.routes) {
    const previous = old.get(routeKey(r));
    if (!previous) {
      diff.added.push(r);
      continue;
    }
    const members = compared.filter((m) => JSON.stringify(previous[m]) !== JSON.stringify(r[m]));
    if (members.length > 0) diff.changed.push({ before: previous, after: r, members });
  }
  diff.removed = before.routes.filter((r) => !now.has(routeKey(r)));
  const pagedBefore = new Set(
    before.monitors.filter((m) => m.routes.some(pagesOnDown)).map((m) => m.monitor),
  );
  diff.unpaged = after.monitors
    .filter((m) => m.enabled && pagedBefore.has(m.monitor) && !m.routes.some(pagesOnDown))
    .map((m) => m.monitor);
  return diff;
}

export const diffIsEmpty = (d: RoutesDiff): boolean =>
  d.added.length === 0 && d.removed.length === 0 && d.changed.length === 0;
