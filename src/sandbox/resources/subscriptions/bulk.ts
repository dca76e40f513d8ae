import { z } from "zod";
import type { ProblemDetailEntry } from "../../../kinds/index.ts";
import { type Ctx, defineOperations, type Operation } from "../../core/operation.ts";
import { plans } from "../../core/plans.ts";
import { ApiProblem, invalid } from "../../core/problem.ts";
import { accountOf } from "../accounts.ts";
import type { ContactDoc } from "../contacts/doc.ts";
import { findSubscription, ownsMonitor, removeSubscription, setOf } from "./model.ts";
import { renderSubscription } from "./render.ts";
import type { SubscriptionDoc, Variant } from "./variants.ts";

interface Pair {
  monitorId: string;
  contactId: string;
}

/**
 * Problems of one side of a bulk body: unknown monitors or contacts, pairs
 * repeated within the side, and (for deletes) pairs with no subscription.
 */
function sideProblems(ctx: Ctx, v: Variant, side: "create" | "delete", items: readonly Pair[]) {
  const seen = new Map<string, number>();
  return items.flatMap((item, i): ProblemDetailEntry[] => {
    const at = `/${side}/${i}`;
    const key = `${item.monitorId}/${item.contactId}`;
    const first = seen.get(key);
    seen.set(key, first ?? i);
    if (first !== undefined)
      return [{ pointer: at, reason: "duplicate", message: `repeats ${side}/${first}` }];
    const entries: ProblemDetailEntry[] = [];
    if (!ownsMonitor(ctx, item.monitorId))
      entries.push({
        pointer: `${at}/monitorId`,
        value: item.monitorId,
        reason: "unknown_monitor",
        message: "no such monitor",
      });
    if (!ctx.store.owned("contact", ctx.account!.id, item.contactId))
      entries.push({
        pointer: `${at}/contactId`,
        value: item.contactId,
        reason: "unknown_contact",
        message: "no such contact",
      });
    if (
      entries.length === 0 &&
      side === "delete" &&
      !findSubscription(ctx, v.kind, item.monitorId, item.contactId)
    )
      entries.push({ pointer: at, reason: "not_subscribed", message: `the pair has no ${v.noun}` });
    return entries;
  });
}

function bulkOperation(v: Variant): Operation {
  const body = z.strictObject({
    create: z.array(v.itemBody).optional(),
    delete: z.array(v.pairBody).optional(),
  });
  return {
    id: `${v.kind}.bulk`,
    method: "POST",
    path: `/${v.kind}/bulk`,
    summary: `Create (replacing each pair's set) and delete ${v.noun}s in one transaction: all or nothing.`,
    scope: "monitor:write",
    extraScopes: () => ["contact:write"],
    body,
    errors: ["validation_failed", "too_many_items", ...v.errors],
    response: {
      status: 200,
      description: `{created: [${v.noun}s], deleted: [delete receipts {id, deleted: true, monitorId, contactId, ${v.setMember}}]}.`,
    },
    handle: (ctx, req) => {
      const input = req.body as { create?: Array<Pair & Record<string, string[]>>; delete?: Pair[] };
      const creates = input.create ?? [];
      const deletes = input.delete ?? [];
      const { maxBulkItems } = plans[accountOf(ctx).plan].limits;
      if (creates.length + deletes.length > maxBulkItems) {
        throw new ApiProblem("too_many_items", `A bulk body carries at most ${maxBulkItems} items.`, {
          errors: [
            {
              pointer: "",
              value: creates.length + deletes.length,
              reason: "too_many",
              maximum: maxBulkItems,
            },
          ],
        });
      }
      const entries = [
        ...sideProblems(ctx, v, "create", creates),
        ...sideProblems(ctx, v, "delete", deletes),
      ];
      const creating = new Map(creates.map((c, i) => [`${c.monitorId}/${c.contactId}`, i]));
      deletes.forEach((d, i) => {
        const j = creating.get(`${d.monitorId}/${d.contactId}`);
        if (j !== undefined)
          entries.push({ pointer: `/delete/${i}`, reason: "conflict", message: `also in /create/${j}` });
      });
      if (entries.length > 0) throw invalid(entries);
      creates.forEach((c, i) => {
        const contact = ctx.store.get<ContactDoc>("contact", c.contactId)!;
        v.check(ctx, contact, c[v.setMember]!, `/create/${i}/${v.setMember}`, `/create/${i}/contactId`);
      });

      const deleted = deletes.map((d) => {
        const doc = findSubscription<SubscriptionDoc>(ctx, v.kind, d.monitorId, d.contactId)!;
        removeSubscription(ctx, doc);
        return {
          id: doc.id,
          deleted: true,
          monitorId: doc.monitorId,
          contactId: doc.contactId,
          [v.setMember]: setOf(doc),
        };
      });
      const created = creates.map((c) =>
        renderSubscription(v.write(ctx, c.monitorId, c.contactId, c[v.setMember]!)),
      );
      return { status: 200, body: { created, deleted } };
    },
  };
}

/** `POST /alert/bulk` and `POST /report/bulk`: they reach both domains, so they need both write scopes. */
export const bulkRoutes = (v: Variant) => defineOperations(bulkOperation(v));
