import type { SubscribableEvent } from "../../../kinds/events.ts";
import {
  type ProblemDetailEntry,
  reservedWebhookHeaderPrefixes,
  subscribableEvents,
} from "../../../kinds/index.ts";
import type { Ctx } from "../../core/operation.ts";
import { ApiProblem, invalid } from "../../core/problem.ts";
import { monitorCollection } from "../monitors/model.ts";
import { checkUrl, DestinationRefused } from "./destination.ts";
import { type WebhookDoc, type WebhookScope, webhookCollection } from "./model.ts";

/** The members of a webhook body the rules judge; the body schema has checked their shapes. */
export interface WebhookInput {
  url?: string;
  events?: string[];
  scope?: WebhookScope;
  headers?: { header: string; value: string }[];
}

/** Header names that frame the request itself; a webhook may not set them. */
const framingHeaders = new Set([
  "host",
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "upgrade",
  "expect",
  "te",
  "trailer",
]);
const headerToken = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** The form URLs are compared in for the one-webhook-per-URL rule. */
export const urlKey = (url: string) => new URL(url).href;

/** Applies every configuration rule beyond the body's shape; bad input changes nothing. */
export function assertWebhookRules(ctx: Ctx, input: WebhookInput, self?: WebhookDoc): void {
  if (input.url !== undefined) {
    try {
      checkUrl(input.url, { allowLoopback: ctx.services.settings.allowInsecureWebhooks });
    } catch (error) {
      if (!(error instanceof DestinationRefused)) throw error;
      throw new ApiProblem("invalid_url", error.message, {
        errors: [{ pointer: "/url", value: input.url, reason: error.reason, message: error.message }],
      });
    }
    const key = urlKey(input.url);
    const other = ctx.store
      .all<WebhookDoc>(webhookCollection, ctx.account!.id)
      .find((w) => w.id !== self?.id && urlKey(w.url) === key);
    if (other) {
      throw new ApiProblem("duplicate_resource", "A webhook with this URL exists.", {
        errors: [{ pointer: "/url", value: input.url, reason: "duplicate", existingId: other.id }],
        extra: { existingId: other.id },
      });
    }
  }

  const unknownEvents = (input.events ?? []).flatMap((name, i): ProblemDetailEntry[] =>
    (subscribableEvents as readonly string[]).includes(name)
      ? []
      : [
          {
            pointer: `/events/${i}`,
            value: name,
            reason: name.startsWith("job.") ? "callback_only" : "not_allowed",
            allowed: [...subscribableEvents],
            message: name.startsWith("job.")
              ? `${name} is sent only to the webhook a job's callback names`
              : `${name} is not a subscribable event`,
          },
        ],
  );
  if (unknownEvents.length > 0) throw invalid(unknownEvents, "unknown_event_type");

  const entries: ProblemDetailEntry[] = [];
  if (input.scope && "monitorIds" in input.scope) {
    input.scope.monitorIds.forEach((id, i) => {
      if (!ctx.store.owned(monitorCollection, ctx.account!.id, id)) {
        entries.push({
          pointer: `/scope/monitorIds/${i}`,
          value: id,
          reason: "unknown_monitor",
          message: "no such monitor",
        });
      }
    });
  }
  (input.headers ?? []).forEach(({ header, value }, i) => {
    const lower = header.toLowerCase();
    if (
      reservedWebhookHeaderPrefixes.some((prefix) => lower.startsWith(prefix)) ||
      framingHeaders.has(lower)
    ) {
      entries.push({
        pointer: `/headers/${i}/header`,
        value: header,
        reason: "reserved_header",
        message: framingHeaders.has(lower)
          ? "frames the request itself and cannot be set"
          : "names beginning SVC- or webhook- belong to the delivery's own headers",
      });
    } else if (!headerToken.test(header)) {
      entries.push({
        pointer: `/headers/${i}/header`,
        value: header,
        reason: "invalid_format",
        message: "must be an HTTP header name",
      });
    }
    if (/[\r\n\0]/.test(value)) {
      entries.push({
        pointer: `/headers/${i}/value`,
        reason: "invalid_format",
        message: "must not contain line breaks",
      });
    }
  });
  if (entries.length > 0) throw invalid(entries);
}

/** The event list as stored: each name once. */
export const eventSet = (events: string[]) => [...new Set(events)] as SubscribableEvent[];
