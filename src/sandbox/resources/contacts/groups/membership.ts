import type { z } from "zod";
import { contactMembership, traitsOf } from "../../../../kinds/index.ts";
import { defineOperations } from "../../../core/operation.ts";
import { invalid } from "../../../core/problem.ts";
import { assertReportable } from "../../subscriptions/model.ts";
import { requireContact } from "../model.ts";
import { type ContactGroupDoc, groupTable, membershipsOf, putMembers, reportEventsOf } from "./model.ts";
import { membershipBody } from "./schemas.ts";

/** Events of a new membership that names none, as the kind declares them. */
const defaultMemberEvents = traitsOf(contactMembership.shape.events).default as string[];

export const membershipRoutes = defineOperations({
  id: "contact.group.setMemberships",
  method: "PUT",
  path: "/contact/{id}/group",
  summary:
    "Set the groups a contact belongs to. Listed groups keep its events unless `events` is sent (new ones default to down and up); unlisted groups lose it.",
  scope: "contact:write",
  body: membershipBody,
  errors: ["not_found", "validation_failed", "unsupported_report_channel", "package_limit"],
  response: {
    status: 200,
    description: "The contact's whole membership: {contactId, groups: [{id, name, events}]}.",
  },
  handle: (ctx, req) => {
    const contact = requireContact(ctx, req.params.id!);
    const { groups } = req.body as z.infer<typeof membershipBody>;
    const seen = new Map<string, number>();
    const entries = groups.flatMap((g, i) => {
      const first = seen.get(g.id);
      seen.set(g.id, first ?? i);
      if (first !== undefined)
        return [
          {
            pointer: `/groups/${i}/id`,
            value: g.id,
            reason: "duplicate",
            message: `repeats /groups/${first}`,
          },
        ];
      if (!ctx.store.owned(groupTable, ctx.account!.id, g.id))
        return [
          {
            pointer: `/groups/${i}/id`,
            value: g.id,
            reason: "unknown_group",
            message: "no such contact group",
          },
        ];
      return [];
    });
    if (entries.length > 0) throw invalid(entries);

    const current = new Map(membershipsOf(ctx, contact.id).map(({ group, events }) => [group.id, events]));
    const wanted = new Map(
      groups.map((g) => [g.id, [...new Set(g.events ?? current.get(g.id) ?? defaultMemberEvents)]]),
    );
    groups.forEach((g, i) => {
      const reports = reportEventsOf(wanted.get(g.id)!);
      if (reports.length > 0) assertReportable(ctx, contact, reports, `/groups/${i}/events`);
    });
    for (const group of ctx.store.all<ContactGroupDoc>(groupTable, ctx.account!.id)) {
      const events = wanted.get(group.id);
      const others = group.members.filter((m) => m.contactId !== contact.id);
      const kept = group.members.some((m) => m.contactId === contact.id);
      if (!events && !kept) continue;
      // A member keeps its place in the list; a new one joins at the end.
      const members = events
        ? kept
          ? group.members.map((m) => (m.contactId === contact.id ? { contactId: contact.id, events } : m))
          : [...others, { contactId: contact.id, events }]
        : others;
      putMembers(ctx, group, members);
    }
    const body = {
      contactId: contact.id,
      groups: membershipsOf(ctx, contact.id).map(({ group, events }) => ({
        id: group.id,
        name: group.name,
        events,
      })),
    };
    return { status: 200, body };
  },
});
