import type { DesiredResource, Ref } from "../engine/model.ts";
import {
  alertTypes as allAlertTypes,
  attachedOf,
  confirmableContactTypes,
  contactSchema,
  type DeliveryRefusal,
  defaultsOf,
  deliveryRefusal,
  downEventDelaySec,
  gatewayOf,
  maintenanceSchema,
  monitorSchema,
  monitorTypeAliases,
  type NoticeKind,
  noticeKinds,
  noticeOfMonitorType,
  type WindowSchedule,
  webhookSchema,
  windowState,
} from "../kinds/index.ts";

/**
 * The routing matrix of a configuration: for every monitor, who its outage reaches, on which channel, after
 * what delay, and why not when not. Built from the configuration as written (the loader's resources, named
 * by their configuration names), with the kinds' alert rules (`kinds/alerting.ts`), the ones the sandbox's
 * incident machine decides by.
 */

export type AlertType = (typeof allAlertTypes)[number];

/** A maintenance window that suppresses alerts of the monitor: alerts wait while it is active. */
export interface Hold {
  /** The window's configuration name. */
  maintenance: string;
  /** Its `name` member. */
  title: string;
  /** The window as configured: Unix seconds, `weekly` recurring every 7 days from `from`. */
  from: number;
  to: number;
  repeat: "none" | "weekly";
}

/** Why a route sends nothing (`none`) or records its notifications `blocked`. */
export type RouteReason = DeliveryRefusal | "paused" | "webhook_disabled";

/** One recipient of one monitor's alerts: a contact by its alert subscription, or a webhook by its scope. */
export interface Route {
  monitor: string;
  /** The contact's configuration name; null on a webhook's route. */
  contact: string | null;
  /** The webhook's configuration name, on a webhook's route only. */
  webhook?: string;
  /** The contact's type (`email`, `sms`, `voiceCall`, `http`, ...), or `webhook`. */
  channel: string;
  /** What the subscription asks for; a webhook's `monitor.*` events as alert types. */
  alertTypes: AlertType[];
  /**
   * Minutes after the confirmed failure: the contact's `alertDelay`; for a webhook, the monitor's alert
   * delay (when `monitor.down` goes out). Maintenance that suppresses alerts makes it longer (`heldBy`).
   */
  delayMinutes: number;
  /** Whether the contact receives messages: email, sms and voice contacts must be confirmed. */
  confirmed: boolean;
  /** `sent`: messages go out; `blocked`: notifications are recorded and nothing is sent; `none`: nothing. */
  outcome: "sent" | "blocked" | "none";
  reason?: RouteReason;
  /** The webhook's events about this monitor's outages (`monitor.*`, `incident.*`), on a webhook's route. */
  events?: string[];
  /**
   * The notices of the monitor's attached sub-checks (`attached: {sslExp: true}`) this contact does not
   * receive: a plain http contact gets no certificate, domain, blocklist or web-risk notices. Sub-checks are
   * not simulated, so this says what the service would not send, beside the outage alerts above.
   */
  missedNotices?: NoticeKind[];
  /** Suppressing windows over the monitor that are not over yet. */
  heldBy: Hold[];
}

/** One monitor's row of the matrix. */
export interface MonitorRouting {
  monitor: string;
  /** Its `name` member, when it has one. */
  title: string | null;
  /** The canonical monitor type. */
  type: string;
  /** False when the monitor is paused: it runs no checks and alerts nobody. */
  enabled: boolean;
  /** When its alerts are notices (a certificate monitor's, say) rather than outage alerts. */
  notice: NoticeKind | null;
  /** The notices of its enabled attached sub-checks. */
  attachedNotices: NoticeKind[];
  /** Minutes until `monitor.down`: the shortest delay of the contacts subscribed to `down`, else 0. */
  downDelayMinutes: number;
  heldBy: Hold[];
  routes: Route[];
}

export interface RoutingMatrix {
  monitors: MonitorRouting[];
  /** Every monitor's routes, in the monitors' order. */
  routes: Route[];
}

export interface RoutingOptions {
  /**
   * The email, sms and voice contacts (configuration names) taken as confirmed; the others are unconfirmed.
   * Absent: all are, as for a team whose contacts all confirmed. http and web push contacts are born confirmed.
   */
  confirmed?: ReadonlySet<string>;
  /** Unix seconds: windows over by then hold nothing and are left out. Default: the current time. */
  now?: number;
}

/** Webhook events about a monitor's outage, with the alert type each stands for. */
const outageEvents: ReadonlyArray<[event: string, alertType: AlertType | null]> = [
  ["incident.opened", null],
  ["monitor.down", "down"],
  ["monitor.repeatedlyDown", "repeatedlyDown"],
  ["monitor.up", "up"],
  ["incident.closed", null],
];

interface ContactFacts {
  name: string;
  type: string;
  alertDelay: number;
  gateway: string | null;
  confirmed: boolean;
}

interface MonitorFacts {
  name: string;
  title: string | null;
  type: string;
  enabled: boolean;
  tags: string[];
  attachedNotices: NoticeKind[];
}

interface WebhookFacts {
  name: string;
  events: string[];
  enabled: boolean;
  covers: (monitor: MonitorFacts) => boolean;
}

const contactDefaults = defaultsOf(contactSchema);
const monitorDefaults = defaultsOf(monitorSchema);
const windowDefaults = defaultsOf(maintenanceSchema);
const webhookDefaults = defaultsOf(webhookSchema);

/** `monitors.checkout-api` → `checkout-api`: the configuration name of a top-level address. */
const nameOf = (address: string) => address.slice(address.indexOf(".") + 1);
const refName = (value: unknown): string | undefined =>
  typeof value === "object" && value !== null && typeof (value as Ref).$ref === "string"
    ? nameOf((value as Ref).$ref)
    : undefined;
const refNames = (value: unknown): string[] =>
  Array.isArray(value) ? value.flatMap((v) => refName(v) ?? []) : [];
const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
const withDefaults = (members: Record<string, unknown>, defaults: Record<string, unknown>) => ({
  ...defaults,
  ...members,
});

/** The routing matrix of a loaded configuration (`resources`: the loader's, refs unresolved). */
export function routingMatrix(
  resources: readonly DesiredResource[],
  options: RoutingOptions = {},
): RoutingMatrix {
  const now = options.now ?? Math.floor(Date.now() / 1000);
  const contacts = new Map<string, ContactFacts>();
  const monitors: MonitorFacts[] = [];
  const subscriptions = new Map<string, { contact: string; alertTypes: AlertType[] }[]>();
  const holds = new Map<string, Hold[]>();
  const webhooks: WebhookFacts[] = [];

  for (const r of resources) {
    const name = nameOf(r.address);
    switch (r.kind) {
      case "contact": {
        const m = withDefaults(r.members, contactDefaults);
        const type = String(m.type);
        const address = String(m.address ?? "");
        const confirmable = (confirmableContactTypes as readonly string[]).includes(type);
        contacts.set(name, {
          name,
          type,
          alertDelay: typeof m.alertDelay === "number" ? m.alertDelay : 0,
          gateway: gatewayOf(type, address),
          confirmed: !confirmable || options.confirmed === undefined || options.confirmed.has(name),
        });
        break;
      }
      case "monitor": {
        const m = withDefaults(r.members, monitorDefaults);
        const type = String(m.type);
        monitors.push({
          name,
          title: typeof m.name === "string" ? m.name : null,
          type: monitorTypeAliases[type] ?? type,
          enabled: m.enabled !== false,
          tags: strings(m.tags),
          attachedNotices: attachedNoticesOf(r.members),
        });
        break;
      }
      case "alertSubscription": {
        const monitor = refName(r.members.monitorId);
        const contact = refName(r.members.contactId);
        if (monitor === undefined || contact === undefined) break;
        const types = allAlertTypes.filter((t) => strings(r.members.alertTypes).includes(t));
        const list = subscriptions.get(monitor) ?? [];
        list.push({ contact, alertTypes: types });
        subscriptions.set(monitor, list);
        break;
      }
      case "maintenance": {
        const m = withDefaults(r.members, windowDefaults);
        if (m.suppressAlerts === false || typeof m.from !== "number" || typeof m.to !== "number") break;
        const hold: Hold = {
          maintenance: name,
          title: typeof m.name === "string" ? m.name : name,
          from: m.from,
          to: m.to,
          repeat: m.repeat === "weekly" ? "weekly" : "none",
        };
        if (windowState(hold, now) === "finished") break;
        for (const monitor of refNames(m.monitorIds)) {
          const list = holds.get(monitor);
          if (list) list.push(hold);
          else holds.set(monitor, [hold]);
        }
        break;
      }
      case "webhook": {
        const m = withDefaults(r.members, webhookDefaults);
        webhooks.push({
          name,
          events: strings(m.events),
          enabled: m.enabled !== false,
          covers: scopeOf(m.scope),
        });
        break;
      }
    }
  }

  const rows = monitors.map((monitor) =>
    monitorRouting(monitor, subscriptions.get(monitor.name) ?? [], contacts, holds, webhooks),
  );
  return { monitors: rows, routes: rows.flatMap((m) => m.routes) };
}

/** The notices of a monitor's enabled sub-checks, in the order of `noticeKinds`. */
function attachedNoticesOf(members: Record<string, unknown>): NoticeKind[] {
  const on = Object.entries(attachedOf(members)).flatMap(([check, toggle]) =>
    typeof toggle === "object" && toggle !== null && (toggle as { enabled?: unknown }).enabled === true
      ? (noticeOfMonitorType(check) ?? [])
      : [],
  );
  return noticeKinds.filter((n) => on.includes(n));
}

/** Which monitors a webhook's scope covers: all, some by name, or those carrying one of some tags. */
function scopeOf(scope: unknown): (monitor: MonitorFacts) => boolean {
  if (typeof scope !== "object" || scope === null) return () => false;
  const s = scope as Record<string, unknown>;
  if (s.all === true) return () => true;
  if (Array.isArray(s.monitorIds)) {
    const names = new Set(refNames(s.monitorIds));
    return (monitor) => names.has(monitor.name);
  }
  const tags = new Set(strings(s.tags));
  return (monitor) => monitor.tags.some((tag) => tags.has(tag));
}

function monitorRouting(
  monitor: MonitorFacts,
  subscribed: readonly { contact: string; alertTypes: AlertType[] }[],
  contacts: ReadonlyMap<string, ContactFacts>,
  holds: ReadonlyMap<string, Hold[]>,
  webhooks: readonly WebhookFacts[],
): MonitorRouting {
  const notice = noticeOfMonitorType(monitor.type) ?? null;
  const heldBy = holds.get(monitor.name) ?? [];
  const known = subscribed.flatMap((s) => {
    const contact = contacts.get(s.contact);
    return contact ? [{ ...s, facts: contact }] : [];
  });
  const downDelayMinutes =
    downEventDelaySec(known.map((s) => ({ alertTypes: s.alertTypes, alertDelay: s.facts.alertDelay }))) / 60;
  const routes: Route[] = known.map(({ facts, alertTypes }) => {
    const refusal = deliveryRefusal(facts, notice ?? undefined);
    const missed = monitor.attachedNotices.filter((n) => deliveryRefusal({ ...facts, confirmed: true }, n));
    return {
      monitor: monitor.name,
      contact: facts.name,
      channel: facts.type,
      alertTypes,
      delayMinutes: facts.alertDelay,
      confirmed: facts.confirmed,
      ...outcomeOf(monitor.enabled, refusal),
      ...(missed.length > 0 && { missedNotices: missed }),
      heldBy,
    };
  });
  for (const webhook of webhooks) {
    const events = outageEvents.filter(([event]) => webhook.events.includes(event));
    if (events.length === 0 || !webhook.covers(monitor)) continue;
    routes.push({
      monitor: monitor.name,
      contact: null,
      webhook: webhook.name,
      channel: "webhook",
      alertTypes: events.flatMap(([, type]) => type ?? []),
      delayMinutes: downDelayMinutes,
      confirmed: true,
      ...(monitor.enabled
        ? webhook.enabled
          ? { outcome: "sent" as const }
          : { outcome: "none" as const, reason: "webhook_disabled" as const }
        : { outcome: "none" as const, reason: "paused" as const }),
      events: events.map(([event]) => event),
      heldBy,
    });
  }
  return {
    monitor: monitor.name,
    title: monitor.title,
    type: monitor.type,
    enabled: monitor.enabled,
    notice,
    attachedNotices: monitor.attachedNotices,
    downDelayMinutes,
    heldBy,
    routes,
  };
}

function outcomeOf(
  enabled: boolean,
  refusal: DeliveryRefusal | undefined,
): Pick<Route, "outcome" | "reason"> {
  if (!enabled) return { outcome: "none", reason: "paused" };
  if (refusal) return { outcome: "blocked", reason: refusal };
  return { outcome: "sent" };
}

/** The window schedules a monitor's alerts wait on, for `releasedAt`. */
export const holdSchedules = (heldBy: readonly Hold[]): WindowSchedule[] =>
  heldBy.map(({ from, to, repeat }) => ({ from, to, repeat }));

/** Whether a route pages someone on `down`: a contact's message goes out. */
export const pagesOnDown = (route: Route): boolean =>
  route.contact !== null && route.outcome === "sent" && route.alertTypes.includes("down");
