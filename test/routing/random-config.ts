import fc from "fast-check";

/**
 * Random GitOps configurations for the matrix-versus-sandbox property test: contacts of each channel and
 * confirmation state, with alert delays on either side of the 30-minute reminder tiers; monitors of an
 * ordinary and a notice type, some paused; alert subscriptions of any alert types; suppressing windows,
 * weekly or one-off, around the outages; a webhook on some events and scope. Times are whole minutes.
 */

/** The Unix second the configuration's windows are placed around: a Sunday, 00:00 UTC. */
export const anchor = Date.UTC(2031, 0, 5) / 1000;
export const week = 7 * 86400;

const alertTypes = ["down", "up", "repeatedlyDown"] as const;
const contactKinds = [
  { type: "http", address: (i: number) => `https://hooks.example.com/c${i}` },
  { type: "http", address: (i: number) => `https://hooks.slack.com/services/T0/B0/c${i}` },
  { type: "email", address: (i: number) => `c${i}@example.com` },
  { type: "sms", address: (i: number) => `+1555555${String(i).padStart(4, "0")}` },
] as const;

export interface Scenario {
  /** The configuration as a YAML (JSON) document. */
  config: Record<string, unknown>;
  /** The confirmable contacts to confirm. */
  confirmed: string[];
  /** Each monitor's outage length, minutes, in the monitors' order. */
  outages: number[];
}

/**
 * A configuration that meets the rules' edges at once, run before the random ones: `monitor.down` on a
 * reminder tier (the tier is skipped), a contact subscribed to up and reminders but not down, a window that
 * holds the alerts past a delay and releases them, an unconfirmed sms contact, and a certificate monitor
 * with a plain and a gateway http contact.
 */
export const edgeScenario: Scenario = {
  config: {
    contacts: {
      late: { type: "http", address: "https://hooks.example.com/late", alertDelay: 30 },
      quiet: { type: "http", address: "https://hooks.example.com/quiet", alertDelay: 3 },
      phone: { type: "sms", address: "+15555550100", alertDelay: 7 },
      slack: { type: "http", address: "https://hooks.slack.com/services/T0/B0/edge" },
    },
    monitors: {
      tier: {
        type: "http",
        url: "https://tier.example.com/",
        locations: { pools: ["allworld"] },
        tags: ["a"],
        alerts: [
          { contact: "late", alertTypes: ["down", "repeatedlyDown"] },
          { contact: "quiet", alertTypes: ["up", "repeatedlyDown"] },
        ],
      },
      held: {
        type: "http",
        url: "https://held.example.com/",
        locations: { pools: ["allworld"] },
        tags: ["b"],
        alerts: [
          { contact: "phone", alertTypes: ["down", "up"] },
          { contact: "quiet", alertTypes: ["down", "repeatedlyDown"] },
        ],
      },
      certificate: {
        type: "sslExp",
        url: "edge.example.com",
        tags: ["b"],
        alerts: [
          { contact: "quiet", alertTypes: ["down", "up"] },
          { contact: "slack", alertTypes: ["down", "up"] },
        ],
      },
    },
    maintenance: {
      // Weekly from 2 minutes into each outage for 40 minutes: the second outage's delays pass inside it.
      deploy: {
        name: "Deploy",
        from: anchor + 120,
        to: anchor + 120 + 40 * 60,
        repeat: "weekly",
        suppressAlerts: true,
        monitors: ["held"],
      },
    },
    webhooks: {
      hook: {
        url: "http://127.0.0.1/hook",
        events: ["monitor.down", "monitor.repeatedlyDown", "monitor.up"],
        scope: { all: true },
      },
    },
  },
  confirmed: [],
  outages: [65, 95, 10],
};

const subset = <T>(items: readonly T[]) => fc.subarray([...items], { minLength: 1 });

const contactArb = fc.record({
  kind: fc.integer({ min: 0, max: contactKinds.length - 1 }),
  alertDelay: fc.constantFrom(0, 0, 3, 7, 29, 30, 45),
  confirmed: fc.boolean(),
});

const monitorArb = fc.record({
  notice: fc.boolean(),
  enabled: fc.nat(5).map((n) => n > 0),
  tag: fc.constantFrom("a", "b"),
  outage: fc.constantFrom(2, 5, 8, 29, 31, 47, 65, 95),
});

/** A window around the outages: its start in minutes from each outage, its length, and what it covers. */
const windowArb = fc.record({
  startMinute: fc.integer({ min: -20, max: 60 }),
  minutes: fc.integer({ min: 5, max: 50 }),
  weekly: fc.boolean(),
  suppressAlerts: fc.nat(3).map((n) => n > 0),
  covers: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
});

const webhookArb = fc.record({
  events: subset([
    "monitor.down",
    "monitor.up",
    "monitor.repeatedlyDown",
    "incident.opened",
    "incident.closed",
  ]),
  scope: fc.constantFrom("all", "a", "b"),
});

export const scenarioArb: fc.Arbitrary<Scenario> = fc
  .record({
    contacts: fc.array(contactArb, { minLength: 2, maxLength: 4 }),
    monitors: fc.array(monitorArb, { minLength: 2, maxLength: 3 }),
    subscriptions: fc.array(fc.option(subset(alertTypes), { freq: 4 }), { minLength: 12, maxLength: 12 }),
    windows: fc.array(windowArb, { minLength: 1, maxLength: 2 }),
    webhook: fc.option(webhookArb, { freq: 4 }),
  })
  .map(({ contacts, monitors, subscriptions, windows, webhook }) => {
    const contactName = (i: number) => `c${i}`;
    const monitorName = (i: number) => `m${i}`;
    const config: Record<string, any> = {
      contacts: Object.fromEntries(
        contacts.map((c, i) => {
          const kind = contactKinds[c.kind]!;
          return [contactName(i), { type: kind.type, address: kind.address(i), alertDelay: c.alertDelay }];
        }),
      ),
      monitors: Object.fromEntries(
        monitors.map((m, i) => {
          const alerts = contacts.flatMap((_, j) => {
            const types = subscriptions[i * 4 + j];
            return types ? [{ contact: contactName(j), alertTypes: types }] : [];
          });
          const body = m.notice
            ? { type: "sslExp", url: `m${i}.example.com` }
            : { type: "http", url: `https://m${i}.example.com/`, locations: { pools: ["allworld"] } };
          return [monitorName(i), { ...body, enabled: m.enabled, tags: [m.tag], alerts }];
        }),
      ),
    };
    if (windows.length > 0)
      config.maintenance = Object.fromEntries(
        windows.map((w, i) => {
          const from = anchor + w.startMinute * 60;
          const covered = monitors.map((_, j) => monitorName(j)).filter((_, j) => w.covers[j]);
          return [
            `w${i}`,
            {
              name: `Window ${i}`,
              from,
              to: from + w.minutes * 60,
              repeat: w.weekly ? "weekly" : "none",
              suppressAlerts: w.suppressAlerts,
              monitors: covered,
            },
          ];
        }),
      );
    if (webhook)
      config.webhooks = {
        hook: {
          url: "http://127.0.0.1/hook",
          events: webhook.events,
          scope: webhook.scope === "all" ? { all: true } : { tags: [webhook.scope] },
        },
      };
    const confirmed = contacts.flatMap((c, i) =>
      c.confirmed && contactKinds[c.kind]!.type !== "http" ? [contactName(i)] : [],
    );
    return { config, confirmed, outages: monitors.map((m) => m.outage) };
  });
