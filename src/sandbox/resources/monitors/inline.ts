import type { MonitorBody, ProblemDetailEntry } from "../../../kinds/index.ts";
import type { Ctx } from "../../core/operation.ts";
import { plans } from "../../core/plans.ts";
import { ApiProblem, invalid } from "../../core/problem.ts";
import { accountOf } from "../accounts.ts";
import type { ContactDoc, ContactInput } from "../contacts/doc.ts";
import { emitContactUpdated } from "../contacts/events.ts";
import { assertContactRules, findContactByAddress, insertContact } from "../contacts/model.ts";
import { assertReportable, putAlertSubscription, putReportSubscription } from "../subscriptions/model.ts";

/**
 * Inline `contacts`, `alertSubscriptions` and `reportSubscriptions` of a
 * monitor create. Everything is checked first (`planInline`), so a bad entry
 * changes nothing; `applyInline` then binds or creates contacts and writes
 * ordinary subscriptions.
 */
export interface InlinePlan {
  contacts: Array<{ ref: string; input: ContactInput; existing?: ContactDoc }>;
  alerts: Array<{ contact: string; alertTypes: string[] }>;
  reports: Array<{ contact: string; frequencies: string[] }>;
}

type Target = { contactIds?: string[]; contactRefs?: string[] };

export function planInline(ctx: Ctx, body: MonitorBody): InlinePlan {
  const plan: InlinePlan = { contacts: [], alerts: [], reports: [] };
  const max = plans[accountOf(ctx).plan].limits.maxInlineContacts;
  const inline = body.contacts ?? [];
  if (inline.length > max) {
    throw new ApiProblem("too_many_items", `At most ${max} inline contacts.`, {
      errors: [{ pointer: "/contacts", value: inline.length, maximum: max }],
    });
  }
  const seen = new Set<string>();
  inline.forEach(({ ref, ...rest }, i) => {
    if (seen.has(ref))
      throw invalid([
        { pointer: `/contacts/${i}/ref`, value: ref, reason: "duplicate", message: "refs are unique" },
      ]);
    seen.add(ref);
    const input = rest as ContactInput;
    assertContactRules(ctx, input, `/contacts/${i}`);
    plan.contacts.push({ ref, input, existing: findContactByAddress(ctx, input.type, input.address) });
  });

  const resolveTargets = (entry: Target, pointer: string): Array<{ key: string; type: string }> => {
    if (!entry.contactIds?.length && !entry.contactRefs?.length) {
      throw invalid([
        { pointer, reason: "required", message: "name contacts with contactIds or contactRefs" },
      ]);
    }
    const out: Array<{ key: string; type: string }> = [];
    const missing: ProblemDetailEntry[] = [];
    entry.contactIds?.forEach((id, j) => {
      const contact = ctx.store.owned<ContactDoc>("contact", ctx.account!.id, id);
      if (contact) out.push({ key: `id:${id}`, type: contact.type });
      else
        missing.push({
          pointer: `${pointer}/contactIds/${j}`,
          value: id,
          reason: "not_found",
          message: "no such contact",
        });
    });
    if (missing.length > 0) throw invalid(missing);
    entry.contactRefs?.forEach((ref, j) => {
      const found = plan.contacts.find((c) => c.ref === ref);
      if (!found) {
        throw new ApiProblem("unknown_contact_ref", `No inline contact has ref "${ref}".`, {
          errors: [{ pointer: `${pointer}/contactRefs/${j}`, value: ref, allowed: [...seen] }],
        });
      }
      out.push({ key: `ref:${ref}`, type: found.input.type });
    });
    return out;
  };

  body.alertSubscriptions?.forEach((entry, i) => {
    for (const { key } of resolveTargets(entry, `/alertSubscriptions/${i}`))
      plan.alerts.push({ contact: key, alertTypes: entry.alertTypes });
  });
  body.reportSubscriptions?.forEach((entry, i) => {
    for (const { key, type } of resolveTargets(entry, `/reportSubscriptions/${i}`)) {
      assertReportable(ctx, { type } as ContactDoc, [entry.frequency], `/reportSubscriptions/${i}`);
      plan.reports.push({ contact: key, frequencies: [entry.frequency] });
    }
  });
  return plan;
}

export function applyInline(ctx: Ctx, monitorId: string, plan: InlinePlan) {
  const byRef = new Map<string, string>();
  for (const { ref, input, existing } of plan.contacts) {
    // A create that resolves to an existing contact is reported as that contact's update.
    if (existing) emitContactUpdated(ctx, existing);
    byRef.set(ref, (existing ?? insertContact(ctx, input)).id);
  }
  const contactId = (key: string) => (key.startsWith("ref:") ? byRef.get(key.slice(4))! : key.slice(3));
  // Several entries may name the same contact: their sets add up.
  const alertSets = new Map<string, Set<string>>();
  for (const a of plan.alerts) {
    const id = contactId(a.contact);
    alertSets.set(id, new Set([...(alertSets.get(id) ?? []), ...a.alertTypes]));
  }
  for (const [id, types] of alertSets) putAlertSubscription(ctx, monitorId, id, [...types]);
  const reportSets = new Map<string, Set<string>>();
  for (const r of plan.reports) {
    const id = contactId(r.contact);
    reportSets.set(id, new Set([...(reportSets.get(id) ?? []), ...r.frequencies]));
  }
  for (const [id, frequencies] of reportSets) putReportSubscription(ctx, monitorId, id, [...frequencies]);
}
