import { z } from "zod";
import { headerName, headerValue, ipAddress } from "../common.ts";
import { field, list, set } from "../field.ts";

/** Setting fields shared by several monitor types. Time values are milliseconds. */

export const header = z.strictObject({ name: headerName, value: headerValue });

/** Header names the service drops before sending (they are its own to set). */
export const droppedHeaderNames = ["connection", "content-length", "date"] as const;

export const dnsFields = {
  dns: field(set(ipAddress).max(4), { description: "Own resolvers. Plan feature `dnsManual`." }),
  publicDns: field(z.number().int().min(0), {
    default: 0,
    description: "Public resolver, 0 = off. Plan feature `dnsPublic`.",
  }),
  expectedDns: field(set(ipAddress).max(10), { description: "Public DNS servers to skip." }),
  expectedIps: field(set(ipAddress).max(10), { description: "The host must resolve to one of these." }),
};

export const tlsPolicyFields = {
  requireValidChain: field(z.boolean(), {
    default: false,
    description: "Fail on a bad certificate chain. Plan feature `sslPolicy`.",
  }),
  checkRevocation: field(z.boolean(), {
    default: false,
    description: "Fail on a revoked certificate. Plan feature `certRevocation`.",
  }),
  requireStrongTls: field(z.boolean(), {
    default: false,
    description: "Fail below TLS 1.2. Plan feature `sslPolicy`.",
  }),
  blockWeakCiphers: field(z.boolean(), {
    default: false,
    description: "Fail on 128-bit or weaker ciphers. Plan feature `sslPolicy`.",
  }),
};

export const certWatchDays = field(set(z.number().int().min(1).max(3650)).max(8), {
  description: "Expiry reminder thresholds in days; attached sslExp uses 30, 7, 1 when empty.",
});

/**
 * One attached sub-check: on or off, as a boolean or `{enabled}`. The service reads back every one the type
 * carries, off unless turned on: that default is what an import of a monitor that never set it holds.
 */
const attachedToggle = z.union([
  z.boolean(),
  z.strictObject({
    enabled: field(z.boolean(), { default: false, description: "Whether the sub-check runs." }),
  }),
]);

/** `attached` sub-checks; which kinds a type accepts is in the type catalogue. */
export const attached = field(
  z.strictObject({
    dnsbl: attachedToggle.optional(),
    sslExp: attachedToggle.optional(),
    domainExp: attachedToggle.optional(),
    webRisk: attachedToggle.optional(),
  }),
  {
    description:
      "Sub-checks riding on the monitor; each true, false or {enabled}. Default all off. The top-level `attached` is the same member: write one of the two, never both.",
  },
);

/** One assertion row, as parsed from `assertsSource`. */
export const assertionRow = z.strictObject({
  source: z.enum(["status", "body", "header", "json", "responseTime"]),
  property: z.string().max(255).optional(),
  comparison: z.enum(["eq", "neq", "lt", "le", "gt", "ge", "contains", "notContains", "matches", "exists"]),
  target: z.string().max(1023).optional(),
});
export type AssertionRow = z.infer<typeof assertionRow>;

/** Members of `http` settings that `api` shares with the same rules. */
export const httpRequestFields = {
  method: field(z.enum(["H", "G", "P", "U", "D", "A"]), {
    default: "G",
    description: "H HEAD, G GET, P POST, U PUT, D DELETE, A PATCH.",
  }),
  timeout: field(z.number().int().min(50).max(100000), { default: 40000 }),
  username: field(z.string().max(255), { description: "Answers a server authentication challenge." }),
  password: field(z.string().max(255), { writeOnly: true, description: "Credential." }),
  authSchema: field(z.enum(["Basic"]), { description: "Send Basic credentials on the first request." }),
  headers: field(list(header), {
    description:
      "Request headers; names and values together up to 1023 characters. connection, content-length and date are dropped.",
  }),
  body: field(z.string().max(2047), { description: "Sent with POST, PUT, PATCH." }),
  postParameters: field(z.string().max(2047), { description: "Form-encoded body (older form field)." }),
  ignoredStatuses: field(set(z.number().int().min(100).max(599)).max(20), {
    description: "Statuses counted as success.",
  }),
  errorStatuses: field(set(z.number().int().min(100).max(599)).max(20), {
    description: "Statuses counted as failure.",
  }),
  followRedirect: field(z.boolean(), { default: true }),
  maxRedirects: field(z.number().int().min(1).max(20), { default: 20 }),
  errorOnRedirect: field(z.boolean(), { default: false, description: "Any 3xx fails." }),
  userAgent: field(z.string().max(255), { description: "Defaults to the service's own user agent." }),
  accept: field(z.string().max(255), { default: "*/*" }),
  referer: field(z.string().max(1023), { description: "Defaults to the service's results URL." }),
  maxSize: field(z.number().int().min(1024).max(52428800), {
    default: 1048576,
    storedCap: 10485760,
    description: "Bytes downloaded; values above 10485760 are stored as 10485760.",
  }),
  ...dnsFields,
  dnsNoCache: field(z.boolean(), { default: false }),
  ...tlsPolicyFields,
  certWatchDays,
  assertMode: field(z.boolean(), {
    default: false,
    description: "Judge by assertion rules instead of keywords or expectation.",
  }),
  asserts: field(list(assertionRow).max(20), {
    description: "Assertion rules; at most 20, or the plan's lower cap.",
  }),
  assertsSource: field(z.string().max(20000), {
    inputOnly: true,
    description: "Write only: one rule per line, parsed into `asserts`.",
  }),
  assertsText: field(z.string(), {
    readOnly: true,
    description:
      'The rules of `asserts` as text, one per line (`""` without rules), in the form `assertsSource` takes.',
  }),
  forceRecheck: field(z.boolean(), {
    readOnly: true,
    description:
      "Set by the service, never written (the spec lists it read-only; the sandbox reads it `false`).",
  }),
  attached,
};
