import { z } from "zod";
import { field, set } from "./field.ts";

/** Members of `PATCH /account`; everything else on the account is read-only. */
export const accountPatchSchema = z
  .strictObject({
    name: field(z.string().max(255), {}),
    company: field(z.string().max(255).nullable(), {}),
    phone: field(z.string().max(32).nullable(), {}),
    country: field(
      z
        .string()
        .regex(/^[A-Z]{2}$/, "ISO 3166 alpha-2 code")
        .nullable(),
      {},
    ),
    timezone: field(z.string().min(1).max(64), { description: "IANA time zone name." }),
    language: field(z.string().regex(/^[a-z]{2}(-[A-Z]{2})?$/), {}),
    defaultAgentPools: field(set(z.string().min(1)).min(1), {
      description: "Pools used when a monitor names none.",
    }),
  })
  .partial();

/** Shared-access member rights. */
export const memberRights = [
  "monitor:read",
  "monitor:write",
  "contact:read",
  "contact:write",
  "billing:read",
  "profile:write",
  "api:access",
  "member:write",
  "statusPage:read",
  "statusPage:write",
] as const;
