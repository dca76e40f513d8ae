/**
 * Every stable error code of API v2, with its status and family. The sandbox
 * renders problem documents from this table, `/problems` publishes it, the
 * OpenAPI document lists it per operation, and the client maps families from it.
 */
export type ProblemFamily = "fix-request" | "fix-account-state" | "wait-and-retry";

export interface ProblemCode {
  status: number;
  title: string;
  description: string;
  /** What a client does about it: the spec's "Codes by family". */
  family: ProblemFamily;
}

type Row = readonly [status: number, title: string, description: string];

const fixRequest = {
  malformed_request: [
    400,
    "Malformed request",
    "The body is not valid JSON, or the request cannot be parsed.",
  ],
  validation_failed: [
    422,
    "Validation failed",
    "One or more body members are invalid; `errors[]` points at each with a JSON Pointer.",
  ],
  unknown_parameter: [
    422,
    "Unknown query parameter",
    "Query strings are a closed vocabulary; `allowed` lists the accepted names.",
  ],
  unknown_enum_value: [422, "Unknown value", "A query parameter carries a value outside its enumeration."],
  unknown_expand: [422, "Unknown expand token", "`expand` names a block this endpoint does not offer."],
  unknown_field: [422, "Unknown field", "`fields` names a member this endpoint does not return."],
  invalid_cursor: [
    422,
    "Invalid cursor",
    "The cursor was tampered with, or belongs to another sort, query or account.",
  ],
  invalid_limit: [422, "Invalid limit", "`limit` must be an integer from 1 to 500."],
  invalid_range: [
    422,
    "Invalid range",
    "The `from`/`to` window is reversed or wider than `maxSpan` seconds.",
  ],
  invalid_interval: [422, "Invalid interval", "The interval is not one of the account's `limits.intervals`."],
  interval_below_type_floor: [
    422,
    "Interval below type minimum",
    "The interval is below the monitor type's `minInterval`.",
  ],
  invalid_alert_delay: [422, "Invalid alert delay", "`alertDelay` is out of the accepted range of minutes."],
  invalid_settings: [422, "Invalid settings", "The monitor `settings` break a rule of the monitor type."],
  invalid_url: [422, "Invalid URL", "The address is not acceptable for this resource."],
  unknown_pool: [422, "Unknown pool", "A location pool does not exist; `allowed` lists the pools."],
  unknown_contact_ref: [
    422,
    "Unknown contact reference",
    "A subscription names a `ref` absent from the inline `contacts`.",
  ],
  unknown_event_type: [422, "Unknown event type", "An event name is not one of the subscribable events."],
  unsupported_report_channel: [
    422,
    "Unsupported report channel",
    "Reports are delivered to email contacts only.",
  ],
  contact_type_not_creatable: [
    422,
    "Contact type not creatable",
    "This contact type is created by connecting it in the app.",
  ],
  monitor_type_discontinued: [
    422,
    "Monitor type discontinued",
    "This monitor type can no longer be created.",
  ],
  type_immutable: [
    422,
    "Type is immutable",
    "A monitor's or contact's `type` cannot change; create a new one instead.",
  ],
  credential_write_only: [
    422,
    "Credential is write-only",
    "A masked credential was sent back; send the value itself, or omit it to keep it.",
  ],
  filter_required: [422, "Filter required", "A bulk delete needs a `filter`."],
  too_many_items: [422, "Too many items", "A bulk body carries more than `limits.maxBulkItems` items."],
  payload_too_large: [413, "Payload too large", "The request body exceeds the size the API accepts."],
  unsupported_media_type: [415, "Unsupported media type", "Bodies must be sent as `application/json`."],
  method_not_allowed: [
    405,
    "Method not allowed",
    "The path exists but does not accept this method; see the `Allow` header.",
  ],
  invalid_confirmation_code: [
    422,
    "Invalid confirmation code",
    "The confirmation code is wrong or has been replaced by a newer one.",
  ],
  idempotency_key_required: [
    400,
    "Idempotency key required",
    "This operation must carry an `Idempotency-Key` header.",
  ],
  insufficient_agents: [
    422,
    "Insufficient agents",
    "The chosen pools reach fewer live locations than required.",
  ],
  webhook_disabled: [
    422,
    "Webhook disabled",
    "The webhook is disabled; enable it (PATCH `enabled: true`) before redelivering.",
  ],
  payload_not_retained: [
    422,
    "Payload not retained",
    "The delivery's payload is no longer kept (over 32 KB, or older than 7 days) and cannot be sent again.",
  ],
} as const satisfies Record<string, Row>;

const fixAccountState = {
  invalid_token: [401, "Invalid token", "The credential is missing, malformed, badly signed or expired."],
  missing_scope: [403, "Missing scope", "The token is valid but lacks the scope this operation requires."],
  insufficient_rights: [
    403,
    "Insufficient rights",
    "The shared-access member behind the token lacks the right for this operation.",
  ],
  ip_not_allowed: [403, "IP not allowed", "The caller's address is not in the token's allow-list."],
  package_limit: [403, "Plan limit", "The plan lacks this feature or has no room left; `feature` names it."],
  package_interval_conflict: [
    403,
    "Plan interval conflict",
    "The monitor's stored interval is one the plan no longer offers; an update must send one it offers.",
  ],
  insufficient_balance: [402, "Insufficient balance", "SMS or voice balance is too low."],
  url_blacklisted: [403, "URL blacklisted", "The target address is on the service's block list."],
  not_found: [404, "Not found", "No such resource in this account, or no such path."],
  duplicate_monitor: [
    409,
    "Duplicate monitor",
    "A monitor with this `(url, type)` exists; `existingId` names it.",
  ],
  duplicate_contact: [
    409,
    "Duplicate contact",
    "A contact with this type and address exists; `existingId` names it.",
  ],
  duplicate_resource: [
    409,
    "Duplicate resource",
    "A resource with this unique value exists; `existingId` names it.",
  ],
  contact_already_confirmed: [409, "Contact already confirmed", "The contact needs no confirmation."],
  selection_mismatch: [
    409,
    "Selection mismatch",
    "The filter now selects a different number of items; nothing was changed.",
  ],
  idempotency_key_conflict: [
    409,
    "Idempotency key conflict",
    "The key was used with another body, or its first request is still running.",
  ],
  job_not_cancellable: [409, "Job not cancellable", "The job has already finished."],
  job_not_resumable: [409, "Job not resumable", "Only interrupted jobs can be resumed."],
} as const satisfies Record<string, Row>;

const waitAndRetry = {
  quota_exceeded: [429, "Quota exceeded", "A quota window is spent; retry after `Retry-After` seconds."],
  rate_limited: [
    429,
    "Rate limited",
    "A short-window throttle refused the call; retry after `Retry-After` seconds.",
  ],
  service_unavailable: [503, "Service unavailable", "The service is temporarily unavailable."],
  upstream_error: [502, "Upstream error", "A dependency of the service failed."],
  internal_error: [
    500,
    "Internal error",
    "An unexpected failure; `errors[0].traceId` repeats the request id.",
  ],
} as const satisfies Record<string, Row>;

/** The table by family, in the spec's order (which is the order `/problems` lists the codes in). */
const families = {
  "fix-request": fixRequest,
  "fix-account-state": fixAccountState,
  "wait-and-retry": waitAndRetry,
} as const satisfies Record<ProblemFamily, Record<string, Row>>;

export type ProblemCodeName =
  | keyof typeof fixRequest
  | keyof typeof fixAccountState
  | keyof typeof waitAndRetry;

export const problemCodes: Record<ProblemCodeName, ProblemCode> = Object.fromEntries(
  Object.entries(families).flatMap(([family, rows]) =>
    Object.entries(rows).map(([code, [status, title, description]]) => [
      code,
      { status, title, description, family: family as ProblemFamily },
    ]),
  ),
) as Record<ProblemCodeName, ProblemCode>;

/** The family of a code: the table's, or for a code it lacks (`http_502`, a newer service's) its status's. */
export function problemFamily(code: string, status: number): ProblemFamily {
  return Object.hasOwn(problemCodes, code) ? problemCodes[code as ProblemCodeName].family : familyOf(status);
}

/** The spec's families by status alone ("Families"): the answer for a code the table lacks. */
export function familyOf(status: number): ProblemFamily {
  if ([429, 500, 502, 503].includes(status)) return "wait-and-retry";
  if ([401, 402, 403, 404, 409].includes(status)) return "fix-account-state";
  return "fix-request";
}

/** One `errors[]` entry. Absent means "no information"; members are never null. */
export interface ProblemDetailEntry {
  pointer?: string;
  value?: unknown;
  allowed?: unknown[];
  reason?: string;
  expected?: string | string[];
  didYouMean?: string;
  parameter?: string;
  [member: string]: unknown;
}

export interface ProblemDocument {
  type: string;
  title: string;
  status: number;
  code: string;
  detail?: string;
  instance?: string;
  errors?: ProblemDetailEntry[];
  [member: string]: unknown;
}
