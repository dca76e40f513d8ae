import { z } from "zod";
import { contactGroupSchema, contactMembership, guid, set } from "../../../../kinds/index.ts";

export const groupCreateBody = contactGroupSchema
  .pick({ name: true, members: true })
  .required({ name: true });
export const groupPatchBody = contactGroupSchema.pick({ name: true, members: true });

/** `PUT /contact/{id}/group`: the contact's whole membership; `events` keeps or defaults a member's set. */
export const membershipBody = z.strictObject({ groups: z.array(contactMembership) });

export const applyBody = z.strictObject({ monitorIds: set(guid).min(1).max(500) });
