import { type ContactBody, issuesToEntries, type JobKind, jobAccepted } from "../../../kinds/index.ts";
import { type Ctx, defineOperations } from "../../core/operation.ts";
import { ApiProblem, invalid } from "../../core/problem.ts";
import { emitContactUpdated } from "../contacts/events.ts";
import {
  assertContactRules,
  type ContactDoc,
  type ContactInput,
  contactName,
  findContactByAddress,
  insertContact,
} from "../contacts/model.ts";
import { contactListFilters, deleteContact, patchContact } from "../contacts/routes.ts";
import { contactCreateBody } from "../contacts/schemas.ts";
import {
  assertItemCount,
  assertSelection,
  type DeleteBody,
  deleteBody,
  deleteValidateAnswer,
  deleteValidateBody,
  type ItemsBody,
  itemsBody,
  jobRouteErrors,
  selectRows,
  validateAnswer,
  validateItems,
} from "./bulk.ts";
import { acceptedReply, assertCallback, createJob } from "./model.ts";
import { type JobProcessor, underPointer } from "./processor.ts";

const contactSummary = (c: ContactDoc) => ({
  id: c.id,
  type: c.type,
  address: c.address,
  name: contactName(c),
});

/**
 * `contact.bulkWrite` creates or updates by (type, address), the contact's
 * natural key: an item whose address the account already holds for that
 * type changes that contact with the item's other members (`updated`, or
 * `skipped` when nothing changes) and emits `contact.updated` either way,
 * as a create resolving to an existing contact does.
 */
export const contactProcessors: Record<Extract<JobKind, `contact.${string}`>, JobProcessor> = {
  "contact.bulkWrite": {
    run(ctx, input, index) {
      const parsed = contactCreateBody.safeParse(input);
      if (!parsed.success) {
        throw invalid(issuesToEntries(parsed.error.issues, input, contactCreateBody, ["items", index]));
      }
      const body = input as ContactInput;
      try {
        const existing = findContactByAddress(ctx, body.type, body.address);
        if (!existing) {
          assertContactRules(ctx, body);
          const doc = insertContact(ctx, body);
          return { status: "created", entityId: doc.id, result: contactSummary(doc) };
        }
        const { type: _type, address: _address, ...members } = body;
        const next = patchContact(ctx, existing, members as ContactBody);
        if (next === existing) emitContactUpdated(ctx, existing);
        return {
          status: next === existing ? "skipped" : "updated",
          entityId: next.id,
          result: contactSummary(next),
        };
      } catch (error) {
        throw error instanceof ApiProblem ? underPointer(error, `/items/${index}`) : error;
      }
    },
  },
  "contact.bulkDelete": {
    run(ctx, input) {
      const id = input as string;
      const contact = ctx.store.owned<ContactDoc>("contact", ctx.account!.id, id);
      if (!contact) return { status: "skipped", entityId: id, result: { reason: "already_deleted" } };
      return { status: "deleted", entityId: id, result: deleteContact(ctx, contact) };
    },
  },
};

function selectContacts(ctx: Ctx, filter: Record<string, unknown> | undefined) {
  const rows = ctx.store.all<ContactDoc>("contact", ctx.account!.id).sort((a, b) => a.created - b.created);
  return selectRows(ctx, rows, contactListFilters, filter);
}

const acceptedResponse = { status: 202, description: "The job: poll Location.", schema: jobAccepted };

export const contactBulkOperations = defineOperations(
  {
    id: "contact.bulkValidate",
    method: "POST",
    path: "/contact/bulk-validate",
    summary: "Judge contact items (contact create bodies) without writing anything.",
    scope: "contact:write",
    body: itemsBody,
    errors: ["validation_failed", "too_many_items"],
    response: {
      status: 200,
      description: "Valid count and each refused item's problem.",
      schema: validateAnswer,
    },
    handle: (ctx, req) => {
      const body = req.body as ItemsBody;
      assertItemCount(ctx, body.items.length, "/items");
      assertCallback(ctx, body.callback);
      const answer = validateItems(ctx, contactProcessors["contact.bulkWrite"], body.items, "/contact/bulk");
      return { status: 200, body: answer };
    },
  },
  {
    id: "contact.bulkWrite",
    method: "POST",
    path: "/contact/bulk",
    summary: "Create or update contacts by (type, address) as a job.",
    scope: "contact:write",
    idempotency: "required",
    body: itemsBody,
    errors: [...jobRouteErrors, "too_many_items"],
    response: acceptedResponse,
    handle: (ctx, req) => {
      const body = req.body as ItemsBody;
      assertItemCount(ctx, body.items.length, "/items");
      assertCallback(ctx, body.callback);
      const items = body.items.map((input) => {
        const address = (input as { address?: unknown } | null)?.address;
        return { input, itemRef: typeof address === "string" ? address : null };
      });
      return acceptedReply(
        createJob(ctx, {
          kind: "contact.bulkWrite",
          scopes: ["contact:write"],
          items,
          callback: body.callback,
        }),
      );
    },
  },
  {
    id: "contact.bulkDeleteValidate",
    method: "POST",
    path: "/contact/bulk-delete-validate",
    summary: "Count the contacts a delete filter selects (phase one of a bulk delete).",
    scope: "contact:write",
    body: deleteValidateBody,
    errors: ["validation_failed", "filter_required", "unknown_parameter", "unknown_enum_value"],
    response: {
      status: 200,
      description: "matched, and a sample of the selection.",
      schema: deleteValidateAnswer,
    },
    handle: (ctx, req) => {
      const rows = selectContacts(ctx, (req.body as DeleteBody).filter);
      return { status: 200, body: { matched: rows.length, sample: rows.slice(0, 10).map(contactSummary) } };
    },
  },
  {
    id: "contact.bulkDelete",
    method: "POST",
    path: "/contact/bulk-delete",
    summary:
      "Delete the contacts a filter selects, with their subscriptions, when it still selects expectedCount.",
    scope: "contact:write",
    idempotency: "required",
    body: deleteBody,
    errors: [
      ...jobRouteErrors,
      "filter_required",
      "selection_mismatch",
      "unknown_parameter",
      "unknown_enum_value",
    ],
    response: acceptedResponse,
    handle: (ctx, req) => {
      const body = req.body as DeleteBody;
      const rows = selectContacts(ctx, body.filter);
      assertSelection(rows.length, body.expectedCount);
      assertCallback(ctx, body.callback);
      const items = rows.map((c) => ({ input: c.id, itemRef: c.id }));
      return acceptedReply(
        createJob(ctx, {
          kind: "contact.bulkDelete",
          scopes: ["contact:write"],
          items,
          callback: body.callback,
        }),
      );
    },
  },
);
