import type { SubscribableEvent } from "../../../kinds/events.ts";

/**
 * Sample `data` for test sends (`POST /webhook/{id}/test`): fixed, plausible
 * values of every event's documented shape, so a receiver can exercise its
 * parsing without waiting for the real thing.
 */
const monitor = {
  id: "00000000-0000-4000-8000-000000000001",
  name: "Example shop",
  url: "https://shop.example.com/health",
  type: "http",
} as const;
const location = { id: "loc-fra-1", country: "DE", region: "Hesse", city: "Frankfurt", ip: "192.0.2.10" };
const error = { code: 503, message: "Service Unavailable", codename: "HTTP_503" };

export function sampleData(event: SubscribableEvent, at: number): unknown {
  const down = {
    monitor,
    state: "down",
    occurredAt: at,
    checkNumber: 1042,
    failedAt: at - 30,
    error,
    recheck: [{ location, state: "down", error }],
  };
  const episode = { firstFailedAt: at - 600, lastFailedAt: at - 60, failedChecks: 10, downtimeSec: 600 };
  const incident = {
    incidentId: "inc_sample",
    monitorId: monitor.id,
    start: at - 600,
    cause: "HTTP 503",
    underMaintenance: false,
  };
  const monitorBody = {
    ...monitor,
    interval: 180,
    enabled: true,
    state: "up",
    tags: [],
    created: at,
    updated: at,
  };
  const samples: Record<SubscribableEvent, unknown> = {
    "monitor.down": down,
    "monitor.up": { ...down, ...episode, state: "up" },
    "monitor.repeatedlyDown": { ...down, ...episode, recheck: [] },
    "incident.opened": incident,
    "incident.closed": { ...incident, end: at, durationSec: 600, checkCount: 10 },
    "monitor.created": monitorBody,
    "monitor.updated": monitorBody,
    "monitor.deleted": { ...monitor, deleted: true, cascaded: {} },
    "maintenance.ended": {
      maintenanceId: "00000000-0000-4000-8000-000000000002",
      name: "Database upgrade",
      from: at - 3600,
      to: at,
      endedAt: at,
      endedEarly: false,
      monitorIds: [monitor.id],
    },
    "certificate.expiring": {
      monitorId: monitor.id,
      notAfter: at + 14 * 86400,
      daysLeft: 14,
      issuer: "Example CA",
      threshold: 14,
      endpoint: "shop.example.com:443",
    },
    "domain.expiring": {
      monitorId: monitor.id,
      expiresAt: at + 30 * 86400,
      daysLeft: 30,
      registrar: "Example Registrar",
      sharedDomain: false,
      threshold: 30,
    },
    "contact.confirmed": {
      contactId: "00000000-0000-4000-8000-000000000003",
      type: "email",
      address: "ops@example.com",
      confirmedAt: at,
      via: "code",
    },
    "contact.updated": {
      id: "00000000-0000-4000-8000-000000000003",
      type: "email",
      address: "ops@example.com",
      name: "Ops",
      confirmed: true,
      created: at,
    },
  };
  return samples[event];
}
