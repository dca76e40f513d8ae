import { z } from "zod";
import { contactMembership, guid, set } from "../../../../kinds/index.ts";

/** `PUT /contact/{id}/group`: the contact's whole membership; `events` keeps or defaults a member's set. */
export const membershipBody = z.strictObject({ groups: z.array(contactMembership) });

export const applyBody = z.strictObject({ monitorIds: set(guid).min(1).max(500) });
