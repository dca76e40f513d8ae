/**
 * The format of `vigil test`'s scenario files (`*.test.yaml`, docs/testing.md), declared once as zod
 * schemas: the reader checks a file's shape with them (read.ts), and `npm run generate` writes their JSON
 * Schema to schemas/vigil-test.schema.json for editors. What the shape cannot say (names the configuration
 * declares, durations, times, the order of steps) the reader checks after.
 */
import { z } from "zod";
import { isoTimeSource } from "../../gitops/syntax.ts";
import { alertTypes, contactTypes, type JsonSchema, subscribableEvents } from "../../kinds/index.ts";

const durationText =
  "A duration from the scenario's start: 30s, 5m, 1h30m, 2d (units d, h, m, s, each once, largest first), or a whole number of seconds.";

// Patterns for editors only: the reader parses durations and times itself, to say what is wrong in words.
const duration = z
  .union([z.string().meta({ pattern: "^(\\d+d)?(\\d+h)?(\\d+m)?(\\d+s)?$|^\\d+$" }), z.number().int().min(0)])
  .describe(durationText);
const time = z
  .union([z.string().meta({ pattern: isoTimeSource }), z.number().int().min(0)])
  .describe("A moment: ISO 8601 with a zone (2026-03-02T09:00:00Z), or Unix seconds.");
const name = (what: string) => z.string().min(1).describe(`The configuration name of a ${what}.`);
const names = (what: string) => z.array(name(what)).min(1).describe(`Configuration names of ${what}s.`);

const alertType = z
  .enum(alertTypes)
  .describe("The alert type: down, up (the recovery) or repeatedlyDown (a reminder while down).");
const outcome = z
  .enum(["sent", "blocked"])
  .describe(
    "sent: the message went out; blocked: the notification was recorded but nothing was sent (an unconfirmed contact, say).",
  );
const channel = z
  .enum(contactTypes)
  .describe("The contact's channel: its type (email, sms, voiceCall, http, ...).");
const event = z.enum(subscribableEvents).describe("The webhook event (monitor.down, incident.opened, ...).");
const about = name("monitor").describe(
  "Only notifications about this monitor (configuration name); by default, about any monitor.",
);

export const stepSchema = z
  .strictObject({
    at: duration,
    down: names("monitor").optional().describe("Monitors that are down from this moment (checks fail)."),
    up: names("monitor").optional().describe("Monitors that are up from this moment (checks pass)."),
  })
  .describe("From `at` on, these monitors' checks fail (down) or pass (up), at each monitor's interval.");

const contactMatch = {
  contact: name("contact"),
  monitor: about.optional(),
  outcome: outcome.optional(),
  channel: channel.optional(),
};
const webhookMatch = { webhook: name("webhook"), monitor: about.optional() };
const timing = {
  at: duration,
  within: duration.optional().describe("The tolerance around `at`, either way (default 1m)."),
};

export const contactExpectationSchema = z
  .strictObject({ ...timing, ...contactMatch, alert: alertType })
  .describe("A notification of this alert type to this contact, within `within` of `at`.");
export const webhookExpectationSchema = z
  .strictObject({ ...timing, ...webhookMatch, event })
  .describe("A signed delivery of this event to this webhook, within `within` of `at`.");
export const contactNeverSchema = z
  .strictObject({ ...contactMatch, alert: alertType.optional() })
  .describe("No notification to this contact (of this alert type, when given) in the whole scenario.");
export const webhookNeverSchema = z
  .strictObject({ ...webhookMatch, event: event.optional() })
  .describe("No delivery to this webhook (of this event, when given) in the whole scenario.");

export const scenarioSchema = z
  .strictObject({
    name: z.string().min(1).describe("What the scenario shows; unique in its file."),
    start: time
      .optional()
      .describe("The virtual clock at the scenario's start; default: the file's `start`."),
    until: duration
      .optional()
      .describe(
        "Where the scenario ends; default: its last step or its latest expectation with its tolerance, whichever is later.",
      ),
    steps: z.array(stepSchema).optional().describe("What happens to the monitors, in time order."),
    expect: z
      .array(z.union([contactExpectationSchema, webhookExpectationSchema]))
      .optional()
      .describe("Notifications that must happen."),
    never: z
      .array(z.union([contactNeverSchema, webhookNeverSchema]))
      .optional()
      .describe("Notifications that must not happen at any time in the scenario."),
  })
  .describe("One scenario: it starts from the configuration freshly applied, isolated from the others.");

export const rulesSchema = z
  .strictObject({
    everyMonitorAlerts: z
      .boolean()
      .optional()
      .describe("Every enabled monitor reaches at least one confirmed contact on `down`."),
    maxDelay: duration
      .optional()
      .describe(
        "The earliest `down` alert of every enabled monitor that sends one comes at most this long after the confirmed failure.",
      ),
  })
  .describe("Rules judged on the routing matrix of the configuration (vigil routes), for every monitor.");

export const testFileSchema = z
  .strictObject({
    start: time
      .optional()
      .describe("The virtual clock at the start of each scenario (default 2026-01-05T12:00:00Z)."),
    confirmed: z
      .array(name("contact"))
      .optional()
      .describe("The email, sms and voice contacts that are confirmed; the others are not. Default: all."),
    rules: rulesSchema.optional(),
    scenarios: z.array(scenarioSchema).min(1).describe("The scenarios of this file."),
  })
  .describe("A vigil test file: scenarios run against the configuration beside it (docs/testing.md).");

/** The schema the reader checks a file's top level with: each scenario is then checked on its own. */
export const testFileShell = testFileSchema.extend({ scenarios: z.array(z.unknown()).min(1) });

/** The default start of a scenario: a fixed moment, so a run does not depend on the day it runs. */
export const defaultStart = Date.UTC(2026, 0, 5, 12) / 1000;
/** The default tolerance of an expectation. */
export const defaultWithinSec = 60;

export const testSchemaId = "https://vigil.dev/schemas/vigil-test.schema.json";

/** The JSON Schema (draft 2020-12) of a test file, for editors (`# yaml-language-server: $schema=...`). */
export function testFileJsonSchema(): JsonSchema {
  const schema = z.toJSONSchema(testFileSchema, { target: "draft-2020-12", io: "input" }) as JsonSchema;
  const { $schema, ...rest } = schema;
  return { $schema, $id: testSchemaId, title: "vigil test file", ...rest };
}
