import type { LeafScope } from "../../../kinds/index.ts";
import { listOperations } from "../../core/list.ts";
import { type Ctx, defineOperations, type Operation, type OpRequest } from "../../core/operation.ts";
import { ApiProblem } from "../../core/problem.ts";
import { requireContact } from "../contacts/model.ts";
import { ownedMonitor } from "../monitors/model.ts";
import { findSubscription, removeSubscription, setOf } from "./model.ts";
import { renderSubscription } from "./render.ts";
import {
  idFilter,
  type SubscriptionDoc,
  setFilter,
  subscriptionFields,
  subscriptionSort,
  type Variant,
  variants,
} from "./variants.ts";

/** A side of the pair that subscription routes nest under, with the scopes of its domain. */
interface Parent {
  name: "monitor" | "contact";
  read: LeafScope;
  write: LeafScope;
  /** The pair member naming this parent, and the path parameter naming the other side. */
  key: "monitorId" | "contactId";
  otherKey: "monitorId" | "contactId";
}

const parents: Parent[] = [
  { name: "monitor", read: "monitor:read", write: "monitor:write", key: "monitorId", otherKey: "contactId" },
  { name: "contact", read: "contact:read", write: "contact:write", key: "contactId", otherKey: "monitorId" },
];

/** Resolves both sides of the pair named by a nested path; a missing or foreign side answers 404. */
function pairOf(parent: Parent, req: OpRequest, ctx: Ctx) {
  const parentId = req.params.id!;
  const otherId = req.params[parent.otherKey]!;
  // The path starts from the parent, so its 404 comes first.
  requireParent(parent, ctx, parentId);
  const [monitorId, contactId] = parent.name === "monitor" ? [parentId, otherId] : [otherId, parentId];
  const contact = requireContact(ctx, contactId);
  ownedMonitor(ctx, monitorId);
  return { monitorId, contactId, contact };
}

function requireParent(parent: Parent, ctx: Ctx, id: string) {
  if (parent.name === "monitor") ownedMonitor(ctx, id);
  else requireContact(ctx, id);
}

function nestedOperations(parent: Parent, v: Variant): Operation[] {
  return [...parentOperations(parent, v), ...pairOperations(parent, v)];
}

/** The subscriptions of one monitor or contact: their list, and deleting them all. */
function parentOperations(parent: Parent, v: Variant): Operation[] {
  const base = `/${parent.name}/{id}/${v.kind}`;
  const opId = `${parent.name}.${v.kind}`;
  const other = parent.otherKey.replace("Id", "");
  return [
    ...listOperations<SubscriptionDoc>({
      id: `${opId}.list`,
      path: base,
      summary: `The ${v.noun}s of a ${parent.name}.`,
      rowsOf: { title: `${v.noun}s`, schema: v.schema },
      scope: parent.read,
      rows: (ctx, req) => {
        requireParent(parent, ctx, req.params.id!);
        return ctx.store
          .all<SubscriptionDoc>(v.collection, ctx.account!.id)
          .filter((s) => s[parent.key] === req.params.id);
      },
      rowId: (s) => s.id,
      filters: { [other]: idFilter(parent.otherKey), [v.setFilter]: setFilter(v) },
      sort: subscriptionSort,
      expand: ["count"],
      fields: subscriptionFields(v),
      render: (_ctx, s) => renderSubscription(s),
      errors: ["not_found"],
    }),
    {
      id: `${opId}.deleteAll`,
      method: "DELETE",
      path: base,
      summary: `Delete every ${v.noun} of a ${parent.name}.`,
      scope: parent.write,
      errors: ["not_found"],
      response: {
        status: 200,
        description: `The delete receipt: {${parent.key}, deleted: true, ${v.kind}Subscriptions: [removed ids]}.`,
      },
      handle: (ctx, req) => {
        requireParent(parent, ctx, req.params.id!);
        const removed = ctx.store
          .all<SubscriptionDoc>(v.collection, ctx.account!.id)
          .filter((s) => s[parent.key] === req.params.id)
          .map((s) => {
            removeSubscription(ctx, s);
            return s.id;
          });
        return {
          status: 200,
          body: { [parent.key]: req.params.id, deleted: true, [`${v.kind}Subscriptions`]: removed },
        };
      },
    },
  ];
}

/** The subscription of one pair: read, set and delete. */
function pairOperations(parent: Parent, v: Variant): Operation[] {
  const item = `/${parent.name}/{id}/${v.kind}/{${parent.otherKey}}`;
  const opId = `${parent.name}.${v.kind}`;
  const existing = (ctx: Ctx, req: OpRequest) => {
    const { monitorId, contactId } = pairOf(parent, req, ctx);
    const doc = findSubscription<SubscriptionDoc>(ctx, v.kind, monitorId, contactId);
    if (!doc)
      throw new ApiProblem("not_found", `Contact ${contactId} has no ${v.noun} on monitor ${monitorId}.`);
    return doc;
  };
  return [
    {
      id: `${opId}.get`,
      method: "GET",
      path: item,
      summary: `Read the ${v.noun} of one monitor and one contact.`,
      scope: parent.read,
      errors: ["not_found"],
      response: { status: 200, description: `The ${v.noun}.`, schema: v.schema },
      handle: (ctx, req) => ({ status: 200, body: renderSubscription(existing(ctx, req)) }),
    },
    {
      id: `${opId}.put`,
      method: "PUT",
      path: item,
      summary: `Set the pair's ${v.setMember}, replacing its previous set (201 when the pair had none).`,
      scope: parent.write,
      body: v.setBody,
      errors: ["not_found", "validation_failed", ...v.errors],
      // One success status per operation: the replacing answer; a first write answers 201 with Location.
      response: {
        status: 200,
        description: `The ${v.noun} with its new set; 201 with Location instead when the pair had none.`,
        schema: v.schema,
      },
      handle: (ctx, req) => {
        const { monitorId, contactId, contact } = pairOf(parent, req, ctx);
        const set = (req.body as Record<string, string[]>)[v.setMember]!;
        v.check(ctx, contact, set, `/${v.setMember}`);
        const had = findSubscription<SubscriptionDoc>(ctx, v.kind, monitorId, contactId);
        const doc = v.write(ctx, monitorId, contactId, set);
        return had
          ? { status: 200, body: renderSubscription(doc) }
          : {
              status: 201,
              headers: { Location: `/monitor/${monitorId}/${v.kind}/${contactId}` },
              body: renderSubscription(doc),
            };
      },
    },
    {
      id: `${opId}.delete`,
      method: "DELETE",
      path: item,
      summary: `Delete the ${v.noun} of one monitor and one contact.`,
      scope: parent.write,
      errors: ["not_found"],
      response: {
        status: 200,
        description: `The delete receipt: {id, deleted: true, monitorId, contactId, ${v.setMember}}.`,
      },
      handle: (ctx, req) => {
        const doc = existing(ctx, req);
        removeSubscription(ctx, doc);
        return {
          status: 200,
          body: {
            id: doc.id,
            deleted: true,
            monitorId: doc.monitorId,
            contactId: doc.contactId,
            [v.setMember]: setOf(doc),
          },
        };
      },
    },
  ];
}

/** `/monitor/{id}/alert...`, `/contact/{id}/alert...` and their report twins. */
export const nestedRoutes = defineOperations(
  ...parents.flatMap((parent) => variants.flatMap((v) => nestedOperations(parent, v))),
);
