import type { ContactType } from "./contact.ts";

/**
 * The service's alert rules as pure decisions: who a monitor's outage reaches, when, and whether the message
 * goes out. The sandbox's incident machine decides by these as the clock moves, and the routing matrix
 * (`src/routing`) derives from them what a configuration would do, so the two cannot drift apart
 * (docs/sandbox-checks.md, docs/testing.md).
 */

/** `monitor.repeatedlyDown` tier: every 30 minutes after the confirmation, while the monitor stays down. */
export const reminderIntervalSec = 30 * 60;

/** The first reminder tier after `now` of an episode that started at `start`. */
export function nextReminderTier(start: number, now: number): number {
  return start + (Math.floor((now - start) / reminderIntervalSec) + 1) * reminderIntervalSec;
}

/** The moment a subscribed contact's alert delay (minutes) has passed, from the confirmed failure at `start`. */
export function reachedAt(start: number, alertDelayMinutes: number): number {
  return start + alertDelayMinutes * 60;
}

/** What `monitor.down` waits for: each alert subscription of the monitor, with its contact's delay. */
export interface SubscribedDelay {
  alertTypes: readonly string[];
  /** The subscribed contact's `alertDelay`, minutes. */
  alertDelay: number;
}

/**
 * The monitor's alert delay, in seconds: the shortest `alertDelay` of the contacts subscribed to `down`, and 0
 * when there are none (then `monitor.down` goes out at the confirmation).
 */
export function downEventDelaySec(subscriptions: Iterable<SubscribedDelay>): number {
  let minutes: number | undefined;
  for (const s of subscriptions)
    if (s.alertTypes.includes("down")) minutes = Math.min(minutes ?? s.alertDelay, s.alertDelay);
  return (minutes ?? 0) * 60;
}

/**
 * Notices beyond up and down alerts: a monitor of these types alerts about a certificate, a domain, a
 * blocklist listing or a web-risk listing, not about an outage.
 */
export const noticeKinds = ["certificate", "domain", "blacklist", "webRisk"] as const;
export type NoticeKind = (typeof noticeKinds)[number];

const noticeOfType: Readonly<Record<string, NoticeKind>> = {
  sslExp: "certificate",
  domainExp: "domain",
  dnsbl: "blacklist",
  webRisk: "webRisk",
};

/** The notice a monitor type's alerts are, or undefined for ordinary down, up and repeatedly-down alerts. */
export function noticeOfMonitorType(type: string): NoticeKind | undefined {
  return Object.hasOwn(noticeOfType, type) ? noticeOfType[type] : undefined;
}

/** Gateways recognised from an http contact's URL; a plain webhook contact has none. */
const gateways: ReadonlyArray<[RegExp, string]> = [
  [/^https:\/\/hooks\.slack\.com\//, "slack"],
  [/^https:\/\/discord(app)?\.com\/api\/webhooks\//, "discord"],
  [/^https:\/\/[\w.-]+\.webhook\.office\.com\//, "teams"],
  [/^https:\/\/events\.pagerduty\.com\//, "pagerduty"],
  [/^https:\/\/api(\.eu)?\.opsgenie\.com\//, "opsgenie"],
];

/** The recognised gateway of an http contact (read back as its `gateway`), or null. */
export function gatewayOf(type: string, address: string): string | null {
  if (type !== "http") return null;
  return gateways.find(([pattern]) => pattern.test(address))?.[1] ?? null;
}

/** Why a notification to a contact is recorded `blocked` instead of sent. */
export type DeliveryRefusal = "unconfirmed" | "no_gateway";

/**
 * Whether a contact may receive a notification, and why not: email, sms and voice contacts receive nothing
 * until confirmed, and a plain http contact (no recognised gateway) receives no certificate, domain,
 * blocklist or web-risk notice (the spec, "Contact"). Undefined when the message goes out.
 */
export function deliveryRefusal(
  contact: { type: ContactType | string; confirmed: boolean; gateway: string | null },
  notice?: NoticeKind,
): DeliveryRefusal | undefined {
  if (!contact.confirmed) return "unconfirmed";
  if (notice !== undefined && contact.type === "http" && contact.gateway === null) return "no_gateway";
  return undefined;
}

/** What each refusal means, in words for a person. */
export const deliveryRefusalText: Readonly<Record<DeliveryRefusal, string>> = {
  unconfirmed: "the contact is not confirmed: email, sms and voice contacts receive nothing until confirmed",
  no_gateway:
    "a plain http contact (no recognised gateway) receives no certificate, domain, blocklist or web-risk notices",
};
