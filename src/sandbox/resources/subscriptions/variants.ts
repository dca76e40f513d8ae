import type { z } from "zod";
import {
  alertSubscriptionKind,
  alertSubscriptionSchema,
  alertTypes,
  type ProblemCodeName,
  reportFrequencies,
  reportSubscriptionKind,
  reportSubscriptionSchema,
} from "../../../kinds/index.ts";
import { createBodyOf } from "../../core/crud.ts";
import type { Ctx } from "../../core/operation.ts";
import type { ContactDoc } from "../contacts/doc.ts";
import {
  type AlertSubscriptionDoc,
  assertReportable,
  putAlertSubscription,
  putReportSubscription,
  type ReportSubscriptionDoc,
  type SubscriptionKind,
  setOf,
  subscriptionTable,
} from "./model.ts";

export type SubscriptionDoc = AlertSubscriptionDoc | ReportSubscriptionDoc;

/** What differs between alert and report subscriptions; every route is built once from this. */
export interface Variant {
  kind: SubscriptionKind;
  table: string;
  noun: string;
  /** The kind's schema: one subscription as every route answers it. */
  schema: z.ZodType;
  /** The set member: `alertTypes` or `frequencies`. */
  setMember: "alertTypes" | "frequencies";
  values: readonly string[];
  /** The list filter over the set (any-of). */
  setFilter: "alertType" | "frequency";
  /** `{alertTypes}` / `{frequencies}`: a PUT body. */
  setBody: z.ZodType;
  /** A bulk create item: the pair and its set (the kind's create body). */
  itemBody: z.ZodType;
  /** A bulk delete item: the pair. */
  pairBody: z.ZodType;
  /** Refuses a set the contact may not hold. */
  check(
    ctx: Ctx,
    contact: ContactDoc,
    set: readonly string[],
    pointer: string,
    contactPointer?: string,
  ): void;
  write(ctx: Ctx, monitorId: string, contactId: string, set: readonly string[]): SubscriptionDoc;
  /** Codes `check` can answer. */
  errors: ProblemCodeName[];
}

export const alertVariant: Variant = {
  kind: "alert",
  table: subscriptionTable.alert,
  noun: "alert subscription",
  schema: alertSubscriptionSchema,
  setMember: "alertTypes",
  values: alertTypes,
  setFilter: "alertType",
  setBody: alertSubscriptionSchema.pick({ alertTypes: true }).required(),
  itemBody: createBodyOf(alertSubscriptionKind),
  pairBody: alertSubscriptionSchema.pick({ monitorId: true, contactId: true }).required(),
  // Every contact type takes alerts.
  check: () => {},
  write: putAlertSubscription,
  errors: [],
};

export const reportVariant: Variant = {
  kind: "report",
  table: subscriptionTable.report,
  noun: "report subscription",
  schema: reportSubscriptionSchema,
  setMember: "frequencies",
  values: reportFrequencies,
  setFilter: "frequency",
  setBody: reportSubscriptionSchema.pick({ frequencies: true }).required(),
  itemBody: createBodyOf(reportSubscriptionKind),
  pairBody: reportSubscriptionSchema.pick({ monitorId: true, contactId: true }).required(),
  check: assertReportable,
  write: putReportSubscription,
  errors: ["unsupported_report_channel", "package_limit"],
};

/** Flat-list columns every subscription list sorts and keeps by. */
export const subscriptionSort = {
  columns: {
    created: { key: (s: SubscriptionDoc) => s.created, time: true },
    updated: { key: (s: SubscriptionDoc) => s.updated, time: true },
  },
  default: "created",
};

export const subscriptionFields = (v: Variant) => [
  "monitorId",
  "contactId",
  v.setMember,
  "created",
  "updated",
];

/** The any-of filter over a variant's set. */
export function setFilter(v: Variant) {
  return {
    param: {
      type: "enum" as const,
      values: v.values,
      list: true,
      description: `Any of these ${v.setMember}.`,
    },
    match: (s: SubscriptionDoc, wanted: string[]) => setOf(s).some((x) => wanted.includes(x)),
  };
}

/** An any-of id filter over one side of the pair. */
export function idFilter(key: "monitorId" | "contactId") {
  return {
    param: { type: "string" as const, list: true, description: `Any of these ${key.replace("Id", "")} ids.` },
    match: (s: SubscriptionDoc, ids: string[]) => ids.includes(s[key]),
  };
}
