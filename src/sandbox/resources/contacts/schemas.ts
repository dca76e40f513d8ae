import { z } from "zod";
import { alertTypes, bodySchema, contactSchema } from "../../../kinds/index.ts";

/** `POST /contact`: every writable member, `type` and `address` required. */
export const contactCreateBody = bodySchema(contactSchema.required({ type: true, address: true }), "create");

/** `PATCH /contact/{id}`: any writable member; `type` is accepted only unchanged. */
export const contactPatchBody = bodySchema(contactSchema, "update");

export const verifyBody = z.strictObject({ code: z.string().min(1).max(64) });

export const testBody = z.strictObject({
  alertType: z.enum(alertTypes).optional(),
});
