import { type ContactBody, issuesToEntries } from "../../../kinds/index.ts";
import type { JobKind } from "../../../kinds/job.ts";
import { defineOperations } from "../../core/operation.ts";
import { ApiProblem, invalid } from "../../core/problem.ts";
import { type ContactDoc, type ContactInput, contactName } from "../contacts/doc.ts";
import { emitContactUpdated } from "../contacts/events.ts";
import { contactListFilters } from "../contacts/filters.ts";
import {
  assertContactRules,
  deleteContact,
  findContactByAddress,
  insertContact,
  patchContact,
} from "../contacts/model.ts";
import { contactCreateBody } from "../contacts/schemas.ts";
import { bulkDeleteOperations, itemsOperations } from "./bulk.ts";
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

export const contactBulkOperations = defineOperations(
  ...itemsOperations({
    kind: "contact.bulkWrite",
    validateId: "contact.bulkValidate",
    path: "/contact/bulk",
    validatePath: "/contact/bulk-validate",
    summary: "Create or update contacts by (type, address) as a job.",
    validateSummary: "Judge contact items (contact create bodies) without writing anything.",
    scope: "contact:write",
    processor: contactProcessors["contact.bulkWrite"],
    itemRef: "address",
  }),
  ...bulkDeleteOperations<ContactDoc>({
    kind: "contact.bulkDelete",
    validateId: "contact.bulkDeleteValidate",
    path: "/contact/bulk-delete",
    noun: "contacts",
    scope: "contact:write",
    collection: "contact",
    filters: contactListFilters,
    sampleRow: contactSummary,
  }),
);
