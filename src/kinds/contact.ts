import { z } from "zod";
import { type AccountView, type Members, offers, packageLimit, type Refusal } from "./account-rules.ts";
import { createdAt, headerName, headerValue, httpUrl, readOnlyId, unixTime, updatedAt } from "./common.ts";
import { field, list, set } from "./field.ts";
import { defineKind } from "./kind.ts";

export const creatableContactTypes = ["email", "sms", "voiceCall", "http", "webPush"] as const;
/** Messenger types exist but are created by connecting a bot in the app. */
export const messengerContactTypes = ["telegram", "slack", "teams", "discord"] as const;
export const contactTypes = [...creatableContactTypes, ...messengerContactTypes] as const;
export type ContactType = (typeof contactTypes)[number];
/** Types that start unconfirmed and need a code. */
export const confirmableContactTypes = ["email", "sms", "voiceCall"] as const;

export const templateEvents = ["up", "down", "repeatedlyDown"] as const;
export const contactMimeTypes = [
  "application/json",
  "application/x-www-form-urlencoded",
  "text/xml",
  "text/html",
  "text/plain",
] as const;
/** Mime types allowed only once a custom template exists. */
export const templateOnlyMimeTypes = ["text/html", "text/plain"] as const;

export const weekdays = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
const clock = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "HH:MM, 24-hour");

/** Alert delay bounds in minutes; outside them answers 422 `invalid_alert_delay`. */
export const alertDelayRange = { min: 0, max: 1440 } as const;

export const contactSchema = z
  .strictObject({
    id: readOnlyId,
    type: field(z.enum(contactTypes), {
      immutable: true,
      description: "Channel; email, sms, voiceCall, http and webPush are creatable.",
    }),
    address: field(z.string().min(1).max(1024), {
      description: "Email address, phone number (E.164) or URL.",
    }),
    name: field(z.string().max(255).nullable(), {
      defaultFrom: "address",
      description: "Follows the address until a name is sent; null restores that default.",
    }),
    language: field(z.string().regex(/^[a-z]{2}(-[A-Z]{2})?$/, "a language tag such as en or pt-BR"), {
      default: "en",
    }),
    alertDelay: field(z.number().int(), {
      default: 0,
      description: "Minutes a failure must last before this contact is notified (0-1440).",
    }),
    activePeriod: field(
      z.strictObject({ days: set(z.enum(weekdays)).min(1), from: clock, to: clock }).nullable(),
      { description: "Active hours (account time zone); null = always." },
    ),
    gateway: field(z.string().nullable(), {
      readOnly: true,
      description: "Recognised gateway of an http contact, or null.",
    }),
    httpHeaders: field(
      list(z.strictObject({ header: headerName.max(100), value: headerValue.max(1000) })).max(20),
      {
        description: "http contacts only. Values are credentials: never shown, and exported as placeholders.",
      },
    ),
    mimeType: field(z.enum(contactMimeTypes), {
      default: "application/json",
      description: "http contacts only.",
    }),
    groupedAlerts: field(z.boolean(), {
      default: false,
      description: "Combine simultaneous alerts into one request.",
    }),
    templates: field(
      list(z.strictObject({ event: z.enum(templateEvents), content: z.string().min(1).max(10000) })),
      {
        description: "Per-event bodies with [[token]] placeholders (http contacts).",
      },
    ),
    confirmed: field(z.boolean(), { readOnly: true }),
    confirmedAt: field(unixTime.nullable(), { readOnly: true }),
    created: createdAt,
    updated: updatedAt,
  })
  .partial();

export type ContactBody = z.infer<typeof contactSchema>;

export const contactKind = defineKind({
  name: "contact",
  title: "Contact",
  schema: contactSchema,
  naturalKey: ["type", "address"],
  rules: {
    offline: [(m) => contactMemberRefusals(m)],
    account: [
      (m, account, context) =>
        context.creating && typeof m.type === "string" ? contactTypeRefusals(m.type, account) : [],
    ],
  },
  paths: { collection: "/contact", item: "/contact/{id}" },
  required: ["type", "address"],
  list: {
    sort: ["created", "name", "address"],
    defaultSort: "created",
    filters: ["q", "type", "confirmed", "id"],
    deltaSync: "creation only",
  },
});

/** A contact's type: one the API can create, on a channel the plan offers. */
export function contactTypeRefusals(type: string, account: AccountView | undefined, prefix = ""): Refusal[] {
  if (!(creatableContactTypes as readonly string[]).includes(type))
    return [
      {
        code: "contact_type_not_creatable",
        pointer: `${prefix}/type`,
        value: type,
        allowed: creatableContactTypes,
        message: `${type} contacts are created by connecting them in the app`,
      },
    ];
  const feature = type === "sms" ? "smsContacts" : type === "voiceCall" ? "voiceContacts" : undefined;
  if (feature && account && !offers(account.features, feature))
    return [packageLimit(feature, `${prefix}/type`, `the plan has no ${type} contacts`)];
  return [];
}

/** Members that only http contacts take (and only http contacts read back). */
export const httpOnlyContactMembers = ["httpHeaders", "templates", "mimeType", "groupedAlerts"] as const;

const phone = /^\+[1-9]\d{6,14}$/;
const email = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const phoneForm = {
  valid: (a: string) => phone.test(a),
  expected: "an E.164 phone number such as +14155550100",
};
const urlForm = { valid: (a: string) => httpUrl.safeParse(a).success, expected: "an http(s) URL" };

/** What an address of each type must be; messenger addresses are the app's own and are not judged. */
const addressForms: Partial<Record<string, { valid: (address: string) => boolean; expected: string }>> = {
  email: { valid: (a) => email.test(a), expected: "an email address" },
  sms: phoneForm,
  voiceCall: phoneForm,
  http: urlForm,
  webPush: urlForm,
};

/**
 * A contact's members judged by its type, beyond what the schema checks: the address's form, the members only
 * http contacts take, a mime type that needs a custom template, and the alert delay's range. `m` holds the
 * members the contact would have (an update's sent members over the stored ones they depend on). The sandbox
 * refuses with these, and `vigil validate` reports them, at the same pointers and with the same codes.
 */
export function contactMemberRefusals(m: Members, prefix = ""): Refusal[] {
  const out: Refusal[] = [];
  const { type, address } = m;
  const form = typeof type === "string" ? addressForms[type] : undefined;
  if (form && typeof address === "string" && !form.valid(address))
    out.push({
      code: "validation_failed",
      pointer: `${prefix}/address`,
      value: address,
      reason: "invalid_format",
      expected: form.expected,
      message: `must be ${form.expected}`,
    });
  if (typeof type === "string" && type !== "http") {
    for (const member of httpOnlyContactMembers) {
      if (m[member] !== undefined)
        out.push({
          code: "validation_failed",
          pointer: `${prefix}/${member}`,
          reason: "not_allowed",
          message: `only http contacts take ${member}`,
        });
    }
  }
  const { mimeType, templates, alertDelay } = m;
  const templateOnly = templateOnlyMimeTypes as readonly unknown[];
  if (templateOnly.includes(mimeType) && !(Array.isArray(templates) && templates.length > 0))
    out.push({
      code: "validation_failed",
      pointer: `${prefix}/mimeType`,
      value: mimeType,
      reason: "needs_template",
      allowed: contactMimeTypes.filter((t) => !templateOnly.includes(t)),
      message: `${mimeType} needs a custom template`,
    });
  if (
    typeof alertDelay === "number" &&
    (alertDelay < alertDelayRange.min || alertDelay > alertDelayRange.max)
  )
    out.push({
      code: "invalid_alert_delay",
      pointer: `${prefix}/alertDelay`,
      value: alertDelay,
      reason: "out_of_range",
      minimum: alertDelayRange.min,
      maximum: alertDelayRange.max,
      message: `alertDelay is ${alertDelayRange.min} to ${alertDelayRange.max} minutes`,
    });
  return out;
}

/** A monitor's inline contacts (`contacts[]`, created with it), each judged by the contact's rules. */
export function inlineContactRefusals(m: Members): Refusal[] {
  if (!Array.isArray(m.contacts)) return [];
  return m.contacts.flatMap((c: unknown, i) =>
    typeof c === "object" && c !== null ? contactMemberRefusals(c as Members, `/contacts/${i}`) : [],
  );
}
