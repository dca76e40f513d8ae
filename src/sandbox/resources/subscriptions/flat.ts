import { listOperations } from "../../core/list.ts";
import { type Ctx, defineOperations, type Operation } from "../../core/operation.ts";
import { notFound } from "../../core/problem.ts";
import { renderSubscription } from "./render.ts";
import {
  idFilter,
  type SubscriptionDoc,
  setFilter,
  subscriptionFields,
  subscriptionSort,
  type Variant,
} from "./variants.ts";

/** Subscriptions gathered under one monitor or one contact. */
interface Grouped {
  id: string;
  subscriptions: SubscriptionDoc[];
}

function groupedList(v: Variant, by: "monitorId" | "contactId"): Operation[] {
  const side = by.replace("Id", "");
  return listOperations<Grouped>({
    id: `${v.kind}.by${side[0]!.toUpperCase()}${side.slice(1)}`,
    path: `/${v.kind}/by-${side}`,
    summary: `Every ${v.noun} of the account, one row per ${side} (ordered by ${side} id).`,
    rowsOf: { title: `${side}s with their ${v.noun}s {${by}, count, subscriptions}` },
    scope: "subs:read",
    rows: (ctx) => {
      const groups = new Map<string, SubscriptionDoc[]>();
      for (const s of all(ctx, v).sort((a, b) => a.created - b.created || a.id.localeCompare(b.id))) {
        groups.set(s[by], [...(groups.get(s[by]) ?? []), s]);
      }
      return [...groups]
        .map(([id, subscriptions]) => ({ id, subscriptions }))
        .sort((a, b) => a.id.localeCompare(b.id));
    },
    rowId: (g) => g.id,
    filters: { [side]: { ...idFilter(by), match: (g, ids: string[]) => ids.includes(g.id) } },
    render: (_ctx, g) => ({
      [by]: g.id,
      count: g.subscriptions.length,
      subscriptions: g.subscriptions.map(renderSubscription),
    }),
  });
}

const all = (ctx: Ctx, v: Variant) => ctx.store.all<SubscriptionDoc>(v.table, ctx.account!.id);

function flatOperations(v: Variant): Operation[] {
  return [
    ...listOperations<SubscriptionDoc>({
      id: `${v.kind}.list`,
      path: `/${v.kind}`,
      summary: `Every ${v.noun} of the account.`,
      rowsOf: { title: `${v.noun}s`, schema: v.schema },
      scope: "subs:read",
      rows: (ctx) => all(ctx, v),
      rowId: (s) => s.id,
      filters: {
        monitor: idFilter("monitorId"),
        contact: idFilter("contactId"),
        [v.setFilter]: setFilter(v),
      },
      sort: subscriptionSort,
      expand: ["count"],
      fields: subscriptionFields(v),
      render: (_ctx, s) => renderSubscription(s),
    }),
    ...groupedList(v, "monitorId"),
    ...groupedList(v, "contactId"),
    {
      id: `${v.kind}.get`,
      method: "GET",
      path: `/${v.kind}/{id}`,
      summary: `Read one ${v.noun} by its flat id.`,
      scope: "subs:read",
      errors: ["not_found"],
      response: { status: 200, description: `The ${v.noun}.`, schema: v.schema },
      handle: (ctx, req) => {
        const doc = ctx.store.owned<SubscriptionDoc>(v.table, ctx.account!.id, req.params.id!);
        if (!doc) throw notFound(v.noun, req.params.id!);
        return { status: 200, body: renderSubscription(doc) };
      },
    },
  ];
}

/** The account-wide flat lists under `/alert` and `/report` (scope `subs:read`). */
export const flatRoutes = (v: Variant) => defineOperations(...flatOperations(v));
