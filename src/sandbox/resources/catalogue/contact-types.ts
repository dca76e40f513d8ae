import {
  alertTypes,
  type ContactType,
  confirmableContactTypes,
  contactMimeTypes,
  contactTypes,
  creatableContactTypes,
  noticeKinds,
  templateEvents,
  templateOnlyMimeTypes,
} from "../../../kinds/index.ts";
import { defineOperations } from "../../core/operation.ts";
import { anonymous } from "./anonymous.ts";

interface Presentation {
  label: string;
  address: string;
  /** Plan feature gating the channel (403 `package_limit`), if any. */
  feature: string | null;
  /** Messages are paid from the account's SMS/voice balance (402 `insufficient_balance`). */
  balance: boolean;
}

const presentation: Record<ContactType, Presentation> = {
  email: { label: "Email", address: "email address", feature: null, balance: false },
  sms: { label: "SMS", address: "phone number, E.164", feature: "smsContacts", balance: true },
  voiceCall: { label: "Voice call", address: "phone number, E.164", feature: "voiceContacts", balance: true },
  http: { label: "Webhook (HTTP)", address: "http(s) URL", feature: null, balance: false },
  webPush: { label: "Web push", address: "push subscription endpoint URL", feature: null, balance: false },
  telegram: { label: "Telegram", address: "chat, connected in the app", feature: null, balance: false },
  slack: { label: "Slack", address: "channel, connected in the app", feature: null, balance: false },
  teams: {
    label: "Microsoft Teams",
    address: "channel, connected in the app",
    feature: null,
    balance: false,
  },
  discord: { label: "Discord", address: "channel, connected in the app", feature: null, balance: false },
};

const has = (list: readonly string[], type: ContactType) => list.includes(type);

function contactTypeRow(type: ContactType) {
  const p = presentation[type];
  const creatable = has(creatableContactTypes, type);
  const confirmation = has(confirmableContactTypes, type);
  const isHttp = type === "http";
  return {
    type,
    label: p.label,
    address: p.address,
    creatable,
    createdVia: creatable ? "api" : "app",
    confirmation,
    // Creating a contact that sends a confirmation code must be safe to retry.
    idempotencyKeyRequired: confirmation,
    alerts: [...alertTypes],
    reports: type === "email",
    // A plain webhook contact gets no notices; one with a recognised gateway does.
    notices: isHttp ? [] : [...noticeKinds],
    gatewayNotices: isHttp ? [...noticeKinds] : [],
    templates: isHttp ? [...templateEvents] : [],
    headers: isHttp,
    mimeTypes: isHttp ? [...contactMimeTypes] : [],
    templateOnlyMimeTypes: isHttp ? [...templateOnlyMimeTypes] : [],
    groupedAlerts: isHttp,
    signed: false,
    feature: p.feature,
    balance: p.balance,
  };
}

export const contactTypeOperations = defineOperations({
  ...anonymous,
  id: "contactType.list",
  method: "GET",
  path: "/contact/type",
  summary: "Contact types and their capabilities.",
  errors: ["unknown_parameter", "invalid_token", "rate_limited"],
  response: { status: 200, description: "{data: [contact type rows]}." },
  handle: () => ({ status: 200, body: { data: contactTypes.map(contactTypeRow) } }),
});
