import type { z } from "zod";
import { type contactGroupSchema, reportFrequencies } from "../../../../kinds/index.ts";
import type { Ctx } from "../../../core/operation.ts";
import { invalid, notFound } from "../../../core/problem.ts";
import type { Doc } from "../../../core/store.ts";
import type { KindMembers } from "../../../core/stored.ts";
import { assertReportable } from "../../subscriptions/model.ts";
import type { ContactDoc } from "../doc.ts";

/** One contact of a group and the events it receives when the group is applied. */
export interface GroupMember {
  contactId: string;
  events: string[];
}

/**
 * A contact group: a preset of members that writes ordinary subscriptions when applied. The kind's members as
 * a write keeps them (`storedValues`), with those the sandbox reads itself typed as stored.
 */
export interface ContactGroupDoc
  extends Doc,
    KindMembers<Omit<z.output<typeof contactGroupSchema>, "members">> {
  name: string;
  members: GroupMember[];
  created: number;
  updated: number;
}

export const groupTable = "contactGroup";

export function requireGroup(ctx: Ctx, id: string): ContactGroupDoc {
  const group = ctx.store.owned<ContactGroupDoc>(groupTable, ctx.account!.id, id);
  if (!group) throw notFound("contact group", id);
  return group;
}

/** Names are unique per account, compared without case so "Ops" and "ops" cannot both exist. */
export function findGroupByName(ctx: Ctx, name: string): ContactGroupDoc | undefined {
  const wanted = name.trim().toLowerCase();
  return ctx.store
    .all<ContactGroupDoc>(groupTable, ctx.account!.id)
    .find((g) => g.name.trim().toLowerCase() === wanted);
}

/** The report frequencies among a member's events. */
export const reportEventsOf = (events: readonly string[]) =>
  events.filter((e) => (reportFrequencies as readonly string[]).includes(e));
/** The alert types among a member's events. */
export const alertEventsOf = (events: readonly string[]) =>
  events.filter((e) => !(reportFrequencies as readonly string[]).includes(e));

/**
 * Checks a member list: every contact exists in the account and appears once,
 * and members with report events are email contacts on a plan that offers them.
 */
export function assertMembers(ctx: Ctx, members: readonly GroupMember[], prefix: string): void {
  const seen = new Map<string, number>();
  const entries = members.flatMap((m, i) => {
    const pointer = `${prefix}/${i}/contactId`;
    const first = seen.get(m.contactId);
    seen.set(m.contactId, first ?? i);
    if (first !== undefined) {
      return [{ pointer, value: m.contactId, reason: "duplicate", message: `repeats ${prefix}/${first}` }];
    }
    if (!ctx.store.owned("contact", ctx.account!.id, m.contactId)) {
      return [{ pointer, value: m.contactId, reason: "unknown_contact", message: "no such contact" }];
    }
    return [];
  });
  if (entries.length > 0) throw invalid(entries);
  members.forEach((m, i) => {
    const reports = reportEventsOf(m.events);
    if (reports.length === 0) return;
    const contact = ctx.store.get<ContactDoc>("contact", m.contactId)!;
    assertReportable(ctx, contact, reports, `${prefix}/${i}/events`);
  });
}

/** The groups a contact belongs to, with the events it has in each. */
export function membershipsOf(
  ctx: Ctx,
  contactId: string,
): Array<{ group: ContactGroupDoc; events: string[] }> {
  return ctx.store.all<ContactGroupDoc>(groupTable, ctx.account!.id).flatMap((group) => {
    const member = group.members.find((m) => m.contactId === contactId);
    return member ? [{ group, events: member.events }] : [];
  });
}

/** Writes a group's member list (changing `updated` only when it really changed). */
export function putMembers(ctx: Ctx, group: ContactGroupDoc, members: GroupMember[]): ContactGroupDoc {
  if (JSON.stringify(members) === JSON.stringify(group.members)) return group;
  return ctx.store.put<ContactGroupDoc>(groupTable, { ...group, members, updated: ctx.now });
}

/** Takes a contact out of every group; answers the ids of the groups it left. */
export function removeFromGroups(ctx: Ctx, contactId: string): string[] {
  return membershipsOf(ctx, contactId).map(({ group }) => {
    putMembers(
      ctx,
      group,
      group.members.filter((m) => m.contactId !== contactId),
    );
    return group.id;
  });
}

export function renderGroup(doc: ContactGroupDoc): Record<string, unknown> {
  const { accountId: _, ...group } = doc;
  return group;
}
