import { z } from "zod";
import { field } from "./field.ts";

/** Unix seconds, UTC. */
export const unixTime = z.number().int().min(0);

export const guid = z.uuid({ version: undefined });

export const readOnlyId = field(z.string(), { readOnly: true, description: "Opaque identifier." });
export const createdAt = field(unixTime, { readOnly: true, description: "Creation time, Unix seconds." });
export const updatedAt = field(unixTime, { readOnly: true, description: "Last change, Unix seconds." });

export const nonBlank = z.string().regex(/\S/, "must not be blank");

export const httpUrl = z
  .string()
  .max(2048)
  .refine((v) => /^https?:\/\/[^\s/]+/i.test(v), "must be an absolute http(s) URL");

export const httpsUrl = z
  .string()
  .max(2048)
  .refine((v) => /^https:\/\/[^\s/]+/i.test(v), "must be an absolute https URL");

const ipv4 = z.ipv4();
const ipv6 = z.ipv6();
export const ipAddress = z.union([ipv4, ipv6]);

/** A credential as it is read back to callers who may not see it in full. */
export const maskedCredential = z.object({ set: z.literal(true), updatedAt: unixTime });
