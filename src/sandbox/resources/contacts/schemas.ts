import { z } from "zod";
import { alertTypes, contactKind } from "../../../kinds/index.ts";
import { createBodyOf } from "../../core/crud.ts";

/** `POST /contact` (and each `contact.bulkWrite` item): every writable member, the kind's required ones required. */
export const contactCreateBody = createBodyOf(contactKind);

export const verifyBody = z.strictObject({ code: z.string().min(1).max(64) });

export const testBody = z.strictObject({
  alertType: z.enum(alertTypes).optional(),
});
