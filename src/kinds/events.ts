import { z } from "zod";
import { ipAddress, unixTime } from "./common.ts";
import { contactSchema, contactTypes } from "./contact.ts";
import { field } from "./field.ts";
import { jobItemStatuses, terminalJobStates } from "./job-states.ts";
import { monitorSchema, monitorTypeNames } from "./monitor/index.ts";
import { problemDocumentSchema } from "./problem-document.ts";
import { callbackEvents, subscribableEvents } from "./webhook.ts";

/**
 * Webhook payloads of API v2: the delivery envelope and the `data` of every
 * event, as the spec's Events table describes them. Payload objects are open
 * (`looseObject`) because new members may appear and receivers ignore them.
 */

export type SubscribableEvent = (typeof subscribableEvents)[number];
export type CallbackEvent = (typeof callbackEvents)[number];
export type WebhookEvent = SubscribableEvent | CallbackEvent;
export const webhookEvents: readonly WebhookEvent[] = [...subscribableEvents, ...callbackEvents];

/** `d_` plus 32 hex characters; stable across retries and redeliveries. */
export const deliveryId = z.string().regex(/^d_[0-9a-f]{32}$/);

const count = z.number().int().min(0);
const seconds = (description: string) => field(count, { description });
const time = (description: string) => field(unixTime, { description });

/** The monitor as events name it. `url` is absent for types without one (database, snmp). */
const monitorRef = z.looseObject({
  id: z.string(),
  name: z.string(),
  url: z.string().optional(),
  type: z.enum(monitorTypeNames),
});

export const checkError = z.looseObject({
  code: field(z.number().int(), { description: "Numeric error code of the check." }),
  message: z.string(),
  codename: field(z.string(), { description: "Stable symbolic name of the error." }),
});

export const checkLocation = z.looseObject({
  id: z.string(),
  country: z.string(),
  region: z.string(),
  city: z.string(),
  ip: ipAddress,
});

export const recheckRow = z.looseObject({
  location: checkLocation,
  state: z.enum(["up", "down"]),
  error: checkError.optional(),
});

const monitorDown = z.looseObject({
  monitor: monitorRef,
  state: z.literal("down"),
  occurredAt: time("When the failure was confirmed."),
  checkNumber: field(count, { description: "Sequence number of the check." }),
  failedAt: time("When the confirmed check failed."),
  error: checkError,
  recheck: field(z.array(recheckRow), { description: "The locations that confirmed the failure." }),
});

const monitorUp = monitorDown.extend({
  state: z.literal("up"),
  firstFailedAt: time("First failed check of the episode."),
  lastFailedAt: time("Last failed check of the episode."),
  failedChecks: count,
  downtimeSec: seconds("Length of the down episode."),
});

const monitorRepeatedlyDown = monitorUp.extend({
  state: z.literal("down"),
  recheck: field(z.array(recheckRow).max(0), { description: "Always empty for reminders." }),
});

const incidentOpened = z.looseObject({
  incidentId: field(z.string(), { description: "inc_ id." }),
  monitorId: z.string(),
  start: time("Start of the down episode."),
  cause: z.string(),
  underMaintenance: z.boolean(),
});

const incidentClosed = incidentOpened.extend({
  end: time("End of the down episode."),
  durationSec: seconds("Length of the incident."),
  checkCount: field(count, { description: "Failed checks in the incident; 0 when not counted." }),
});

/** What `DELETE /monitor/{id}` answers and `monitor.deleted` carries. */
export const monitorDeleteReceipt = z.looseObject({
  id: z.string(),
  deleted: z.literal(true),
  type: z.enum(monitorTypeNames),
  name: z.string(),
  url: z.string().optional(),
  cascaded: field(z.record(z.string(), z.array(z.string())), {
    description: "Ids removed with the monitor, by collection (for example alertSubscriptions).",
  }),
});

const maintenanceEnded = z.looseObject({
  maintenanceId: z.string(),
  name: z.string(),
  from: unixTime,
  to: unixTime,
  endedAt: unixTime,
  endedEarly: field(z.boolean(), { description: "true when deleted or cancelled while active." }),
  monitorIds: field(z.array(z.string()), { description: "Covered monitors within the webhook's scope." }),
});

const certificateExpiring = z.looseObject({
  monitorId: z.string(),
  notAfter: time("Certificate expiry."),
  daysLeft: z.number().int(),
  issuer: z.string(),
  threshold: field(z.number().int().min(1), { description: "The warning threshold crossed, in days." }),
  endpoint: field(z.string(), { description: "host:port checked." }),
});

const domainExpiring = z.looseObject({
  monitorId: z.string(),
  expiresAt: time("Domain registration expiry."),
  daysLeft: z.number().int(),
  registrar: z.string().optional(),
  sharedDomain: z.boolean(),
  threshold: field(z.number().int().min(1), { description: "The warning threshold crossed, in days." }),
});

const contactConfirmed = z.looseObject({
  contactId: z.string(),
  type: z.enum(contactTypes),
  address: z.string(),
  confirmedAt: unixTime,
  via: field(z.enum(["code", "inherit"]), {
    description: "inherit: the address was already confirmed on the account.",
  }),
});

export const jobResultRow = z.looseObject({
  index: count,
  itemRef: z.string().optional(),
  status: z.enum(jobItemStatuses),
  entityId: z.string().nullable().optional(),
  result: z.unknown().optional(),
  error: field(problemDocumentSchema, { description: "Failed items: a full problem document." }).optional(),
});

const jobProgress = z.looseObject({
  jobId: z.string(),
  kind: field(z.string(), { description: "For example monitor.bulkCreate, contact.bulkWrite." }),
  state: z.enum(["queued", "running"]),
  summary: field(z.record(z.string(), count), { description: "Counts per item status." }),
  progress: z.looseObject({ done: count, total: count }),
});

const jobCompleted = jobProgress.extend({
  state: z.enum(terminalJobStates),
  created: unixTime,
  finishedAt: unixTime,
  error: problemDocumentSchema.optional(),
  results: field(z.array(jobResultRow), { description: "The first page of results." }),
  resultsTruncated: z.boolean(),
  resultsUrl: field(z.string(), { description: "Where the remaining results are read." }),
});

/** The `data` schema of each event. */
export const eventDataSchemas = {
  "monitor.down": monitorDown,
  "monitor.up": monitorUp,
  "monitor.repeatedlyDown": monitorRepeatedlyDown,
  "incident.opened": incidentOpened,
  "incident.closed": incidentClosed,
  "monitor.created": field(monitorSchema, { description: "The monitor as GET /monitor/{id} returns it." }),
  "monitor.updated": field(monitorSchema, { description: "The monitor as GET /monitor/{id} returns it." }),
  "monitor.deleted": monitorDeleteReceipt,
  "maintenance.ended": maintenanceEnded,
  "certificate.expiring": certificateExpiring,
  "domain.expiring": domainExpiring,
  "contact.confirmed": contactConfirmed,
  "contact.updated": field(contactSchema, { description: "The contact as GET /contact/{id} returns it." }),
  "job.completed": jobCompleted,
  "job.progress": jobProgress,
} as const satisfies Record<WebhookEvent, z.ZodType>;

/**
 * When each event fires and whether failed deliveries climb the retry ladder.
 * Events caused by API calls (and job callbacks) get one attempt.
 */
export const eventCatalogue: Record<WebhookEvent, { firesWhen: string; retried: boolean }> = {
  "monitor.down": { firesWhen: "Alert-grade down after recheck and alert delay.", retried: true },
  "monitor.up": { firesWhen: "The matching recovery.", retried: true },
  "monitor.repeatedlyDown": { firesWhen: "A still-down reminder tier is reached.", retried: true },
  "incident.opened": { firesWhen: "A down episode opens (also inside maintenance).", retried: true },
  "incident.closed": { firesWhen: "A down episode resolves.", retried: true },
  "monitor.created": { firesWhen: "A monitor is created, bulk included.", retried: false },
  "monitor.updated": { firesWhen: "A monitor is changed, bulk included.", retried: false },
  "monitor.deleted": { firesWhen: "A monitor is deleted, bulk included.", retried: false },
  "maintenance.ended": {
    firesWhen: "A window ends on schedule (retried) or is cancelled while active (one attempt).",
    retried: true,
  },
  "certificate.expiring": { firesWhen: "A certificate check crosses a warning threshold.", retried: true },
  "domain.expiring": { firesWhen: "A domain expiry check crosses a threshold.", retried: true },
  "contact.confirmed": {
    firesWhen: "A contact becomes confirmed; sent to every subscribed webhook of the account.",
    retried: false,
  },
  "contact.updated": {
    firesWhen:
      "A contact's configuration changes (bulk included, and a create resolving to an existing contact).",
    retried: false,
  },
  "job.completed": {
    firesWhen: "Callback only: a job named this webhook in `callback` and reached a terminal state.",
    retried: false,
  },
  "job.progress": {
    firesWhen: "Callback only, with `callback.on: progress`: a job is queued or running (throttled).",
    retried: false,
  },
};

/** The delivery envelope of one event. Members without a value are omitted. */
export function eventEnvelope<E extends WebhookEvent>(event: E) {
  return z.looseObject({
    id: field(deliveryId, { description: "Delivery id; deduplicate on it." }),
    event: z.literal(event),
    occurredAt: time("When the event happened."),
    apiVersion: z.literal("v2"),
    data: eventDataSchemas[event],
  });
}
