import { isIP } from "node:net";
import { z } from "zod";
import { field } from "./field.ts";

/** Unix seconds, UTC. */
export const unixTime = field(z.number().int().min(0), { timestamp: true });

export const guid = z.uuid({ version: undefined });
/** Ids of other objects: the traits tell configs to name the object instead of giving its id. */
export const monitorRef = field(guid, { references: "monitor" });
export const contactRef = field(guid, { references: "contact" });

export const readOnlyId = field(z.string(), { readOnly: true, description: "Opaque identifier." });
export const createdAt = field(unixTime, { readOnly: true, description: "Creation time, Unix seconds." });
export const updatedAt = field(unixTime, { readOnly: true, description: "Last change, Unix seconds." });

/** An absolute http(s) URL, refused as `invalid_format` like a monitor's own `url`. */
export const httpUrl = z
  .string()
  .max(2048)
  .refine((v) => /^https?:\/\/[^\s/]+/i.test(v), {
    message: "must be an absolute http(s) URL",
    params: { reason: "invalid_format", expected: "an absolute http(s) URL" },
  });

export const httpsUrl = z
  .string()
  .max(2048)
  .refine((v) => /^https:\/\/[^\s/]+/i.test(v), "must be an absolute https URL");

/**
 * An IPv4 or IPv6 address. One check rather than a union of the two formats,
 * so a bad value is reported as `invalid_format` (a union reports `no_match`).
 */
export const ipAddress = z
  .string()
  .refine(isIpLiteral, {
    message: "must be an IPv4 or IPv6 address",
    params: { reason: "invalid_format", expected: "ip" },
  })
  .meta({ anyOf: [{ format: "ipv4" }, { format: "ipv6" }] });

const hostname =
  /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/**
 * An IPv4 or IPv6 address. What holds neither a colon nor only digits and dots is not one, and is answered
 * without `net.isIP`, whose IPv6 pattern compiles on its first use: some milliseconds of a `vigil validate`
 * whose hosts are all names.
 */
export function isIpLiteral(text: string): boolean {
  return (text.includes(":") || /^[\d.]+$/.test(text)) && isIP(text) !== 0;
}

/** An IP literal, a dotted host name, or `localhost` (a bare single label is not a host). */
export function isHost(text: string): boolean {
  return isIpLiteral(text) || (hostname.test(text) && (text.includes(".") || text === "localhost"));
}

/**
 * A credential as it is read back to callers who may not see it in full: `{set: true}`, with when it was set
 * (`updatedAt`) where the API says, and what else the API adds (a webhook secret's `previousValidUntil`).
 */
export const maskedCredential = z.looseObject({ set: z.literal(true), updatedAt: unixTime.optional() });
export type MaskedCredential = z.infer<typeof maskedCredential>;

/**
 * Whether a value is a credential read back masked: nobody reading it can know the value. The one check the
 * diff, the frontends, export and the client's log redaction share.
 */
export function isMaskedCredential(value: unknown): value is MaskedCredential {
  // `set` first: most values a walk meets are no credential, and reading a member is far cheaper than a parse.
  return (
    typeof value === "object" &&
    value !== null &&
    Object.hasOwn(value, "set") &&
    (value as { set?: unknown }).set === true &&
    maskedCredential.safeParse(value).success
  );
}

/**
 * A configured HTTP header's name: an RFC 9110 token. Anything else (a space,
 * a colon, CR or LF) is not a header name, and CR or LF would let it end the
 * header early and smuggle another one into the request.
 */
export const headerName = z
  .string()
  .min(1)
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, "an HTTP header name: letters, digits and !#$%&'*+-.^_`|~");

/**
 * A configured header's value. A credential more often than not (an
 * Authorization token), so it carries the credential trait: masked in plans,
 * hashed in the state, sensitive in Terraform, secret in Pulumi, a placeholder
 * in exports. CR, LF and NUL are refused: they would end the header early.
 */
export const headerValue = field(z.string().regex(/^[^\r\n\0]*$/, "must not contain CR, LF or NUL"), {
  writeOnly: true,
});
