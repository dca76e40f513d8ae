import { listOperations, resolveWindow } from "../../../core/list.ts";
import {
  type NotificationDoc,
  notificationKinds,
  notificationOutcomes,
  notificationTable,
  notificationWindow,
} from "./model.ts";

const day = 86400;

/** One contact on one UTC day. */
interface SummaryRow {
  contactId: string;
  /** Start of the UTC day, Unix seconds. */
  day: number;
  count: number;
  outcomes: Record<string, number>;
  kinds: Record<string, number>;
}

const zeros = (names: readonly string[]) => Object.fromEntries(names.map((n) => [n, 0]));

/** Counts per contact and UTC day, ordered by contact id then day (no `sort`), with the log's window rules. */
export const summaryRoutes = listOperations<SummaryRow>({
  id: "contact.notification.summary",
  path: "/contact/notification/summary",
  summary: "Notification counts per contact and UTC day within the window.",
  rowsOf: { title: "daily counts {contactId, day, count, outcomes, kinds}" },
  scope: "contact:read",
  rows: (ctx, req) => {
    const { from, to } = resolveWindow(
      req.query,
      ctx.now,
      notificationWindow.maxSpan,
      notificationWindow.defaultSpan,
    );
    const rows = new Map<string, SummaryRow>();
    for (const n of ctx.store.all<NotificationDoc>(notificationTable, ctx.account!.id)) {
      if (n.time < from || n.time > to) continue;
      const start = Math.floor(n.time / day) * day;
      const key = `${n.contactId}:${start}`;
      const row = rows.get(key) ?? {
        contactId: n.contactId,
        day: start,
        count: 0,
        outcomes: zeros(notificationOutcomes),
        kinds: zeros(notificationKinds),
      };
      row.count++;
      row.outcomes[n.outcome]!++;
      row.kinds[n.kind]!++;
      rows.set(key, row);
    }
    return [...rows.values()].sort((a, b) => a.contactId.localeCompare(b.contactId) || a.day - b.day);
  },
  rowId: (r) => `${r.contactId}:${r.day}`,
  filters: {
    contact: {
      param: { type: "string", list: true, description: "Any of these contact ids." },
      match: (r, ids: string[]) => ids.includes(r.contactId),
    },
  },
  window: notificationWindow,
  render: (_ctx, r) => ({ ...r }),
});
