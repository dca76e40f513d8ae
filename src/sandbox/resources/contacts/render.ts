import { contactKind, contactSchema, httpOnlyContactMembers } from "../../../kinds/index.ts";
import { rowFieldsOf } from "../../core/crud.ts";
import type { Ctx } from "../../core/operation.ts";
import { subscriptionBlock } from "../subscriptions/render.ts";
import { type ContactDoc, contactName } from "./doc.ts";
import { membershipsOf } from "./groups/model.ts";

/** `expand` tokens of a single contact read; lists also take `count`. */
export const contactExpand = ["subscription", "group", "template"] as const;
/** A single read answers the contact's own detail (its templates) unless `expand` says otherwise. */
export const contactDefaultExpand = ["template"] as const;

/** Members a rendered contact can carry: the kind's members plus the expand blocks. */
export const contactFields = rowFieldsOf(contactKind, ["subscription", "groups"]);

/** Members only http contacts read back: the rest of the http-only set, and the recognised gateway. */
const httpOnlyRead = new Set<string>([...httpOnlyContactMembers, "gateway"]);

/**
 * A contact as the API shows it: the kind's members only (never the code,
 * sync sequence or owner), http-only members on http contacts, templates
 * with `expand=template`, and the blocks other tokens ask for.
 */
export function renderContact(
  ctx: Ctx,
  doc: ContactDoc,
  expand: ReadonlySet<string>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(contactSchema.shape)) {
    if (httpOnlyRead.has(name) && doc.type !== "http") continue;
    if (name === "templates" && !expand.has("template")) continue;
    out[name] = name === "name" ? contactName(doc) : doc[name as keyof ContactDoc];
  }
  if (expand.has("subscription")) {
    out.subscription = subscriptionBlock(ctx, { accountId: doc.accountId, contactId: doc.id });
  }
  if (expand.has("group")) {
    out.groups = membershipsOf(ctx, doc.id).map(({ group, events }) => ({
      id: group.id,
      name: group.name,
      events,
    }));
  }
  return out;
}
