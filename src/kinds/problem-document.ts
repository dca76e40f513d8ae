import { z } from "zod";
import { field } from "./field.ts";

/**
 * The RFC 9457 problem document every failure answers, and every failed job
 * item carries. Codes add their own members (`maxSpan`, `existingId`,
 * `feature`...), so the document and its entries stay open.
 */
export const problemDetailEntrySchema = z
  .looseObject({
    pointer: field(z.string(), {
      description: "JSON Pointer into the body, or /<name> for a query parameter.",
    }),
    value: field(z.unknown(), { description: "The offending value." }),
    allowed: field(z.array(z.unknown()), { description: "Accepted values; an empty array accepts none." }),
    reason: field(z.string(), { description: "Stable reason, e.g. unknown_member, wrong_type, missing." }),
    expected: field(z.union([z.string(), z.array(z.string())]), {
      description: "JSON type name(s) when reason is wrong_type; integer is stricter than number.",
    }),
    didYouMean: z.string(),
    parameter: field(z.string(), { description: "The query parameter concerned." }),
  })
  .partial();

export const problemDocumentSchema = z.looseObject({
  type: field(z.url(), { description: "Absolute URL of the code's page, {base_url}/problems/{code}." }),
  title: field(z.string(), { description: "Human summary; may be reworded." }),
  status: z.number().int().min(400).max(599),
  code: field(z.string().regex(/^[a-z][a-z0-9_]*$/), {
    description: "Stable identifier to branch on; new codes may appear, so surface unknown ones.",
  }),
  detail: field(z.string(), { description: "This occurrence, in human text." }).optional(),
  instance: field(z.string(), { description: "Path of the failure." }).optional(),
  errors: field(z.array(problemDetailEntrySchema), {
    description: "Present when something specific is known; members are absent rather than null.",
  }).optional(),
});
