import type { z } from "zod";
import type { Operations } from "../../api/index.ts";
import {
  alertSubscriptionKind,
  credentialPointers,
  type KindDefinition,
  reportSubscriptionKind,
} from "../../kinds/index.ts";
import { type EngineKind, keyFrom, type Row, readOnlyMembers, withoutMembers } from "./engine-kind.ts";

/**
 * A subscription is a (monitor, contact) pair with a set. It is written with
 * `PUT /monitor/{m}/<alert|report>/{c}` (which replaces the pair's set) and
 * listed account-wide with `GET /alert` or `GET /report`.
 */
function subscriptionKind<N extends "alertSubscription" | "reportSubscription">(
  definition: KindDefinition<z.ZodObject, N>,
  section: string,
): EngineKind<N> {
  const name = definition.name;
  const routes = (o: Operations): Operations[N] => o[name];
  const readOnly = readOnlyMembers(definition);
  const pair = (members: Row) => [String(members.monitorId), String(members.contactId)] as const;
  const setBody = (body: Row) => withoutMembers(body, ["monitorId", "contactId"]) as never;
  return {
    name,
    definition,
    section,
    schemaFor: () => definition.schema,
    listAll: async (o) => ({ rows: (await routes(o).list.all({ limit: 500 })) as Row[] }),
    getOne: async (o, row) => (await routes(o).get(String(row.id))) as Row,
    normalizeDesired: (members) => ({ ...members }),
    normalizeLive: (row) => withoutMembers(row, readOnly),
    credentials: (members) => credentialPointers(definition.schema, members),
    merging: [],
    sideMembers: [],
    naturalKey: (m) => keyFrom([m.monitorId, m.contactId]),
    create: async (ctx, body) =>
      (await routes(ctx.ops).ofMonitor.put(...pair(body), setBody(body), {
        idempotencyKey: ctx.idempotencyKey,
      })) as Row,
    update: async (ctx, live, body) =>
      (await routes(ctx.ops).ofMonitor.put(...pair(live), setBody(body), {
        idempotencyKey: ctx.idempotencyKey,
      })) as Row,
    async remove(ctx, live) {
      await routes(ctx.ops).ofMonitor.delete(...pair(live), { idempotencyKey: ctx.idempotencyKey });
      return {};
    },
  };
}

export const alertSubscriptionEngineKind = subscriptionKind(alertSubscriptionKind, "alertSubscriptions");

export const reportSubscriptionEngineKind = subscriptionKind(reportSubscriptionKind, "reportSubscriptions");
