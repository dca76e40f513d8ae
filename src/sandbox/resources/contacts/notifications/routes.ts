import { type ListSpec, listOperations } from "../../../core/list.ts";
import { type Ctx, defineOperations, type OpRequest } from "../../../core/operation.ts";
import { requireContact } from "../model.ts";
import {
  type NotificationDoc,
  notificationKinds,
  notificationOutcomes,
  notificationTable,
  notificationWindow,
  renderNotification,
  requireNotification,
} from "./model.ts";

const filters: NonNullable<ListSpec<NotificationDoc>["filters"]> = {
  kind: {
    param: { type: "enum", values: notificationKinds, list: true, description: "Any of these kinds." },
    match: (n, kinds: string[]) => kinds.includes(n.kind),
  },
  outcome: {
    param: { type: "enum", values: notificationOutcomes, list: true, description: "Any of these outcomes." },
    match: (n, outcomes: string[]) => outcomes.includes(n.outcome),
  },
};

function notificationList(
  spec: Pick<ListSpec<NotificationDoc>, "id" | "path" | "summary" | "rows" | "filters" | "errors">,
) {
  return listOperations<NotificationDoc>({
    ...spec,
    rowsOf: {
      title:
        "notifications {id, contactId, kind, event, channel, address, monitorIds, period, outcome, reason, time}",
    },
    scope: "contact:read",
    rowId: (n) => n.id,
    sort: { columns: { time: { key: (n) => n.time, time: true } }, default: "time" },
    expand: ["count"],
    window: { ...notificationWindow, filter: (n, from, to) => n.time >= from && n.time <= to },
    render: (_ctx, n) => renderNotification(n),
  });
}

const all = (ctx: Ctx) => ctx.store.all<NotificationDoc>(notificationTable, ctx.account!.id);

export const notificationRoutes = defineOperations(
  ...notificationList({
    id: "contact.notification.list",
    path: "/contact/notification",
    summary: "Notifications sent or attempted to the account's contacts, newest first.",
    rows: all,
    filters: {
      ...filters,
      contact: {
        param: { type: "string", list: true, description: "Any of these contact ids." },
        match: (n, ids: string[]) => ids.includes(n.contactId),
      },
    },
  }),
  ...notificationList({
    id: "contact.notification.listOfContact",
    path: "/contact/{id}/notification",
    summary: "Notifications of one contact, newest first.",
    rows: (ctx: Ctx, req: OpRequest) => {
      const contact = requireContact(ctx, req.params.id!);
      return all(ctx).filter((n) => n.contactId === contact.id);
    },
    filters,
    errors: ["not_found"],
  }),
  {
    id: "contact.notification.get",
    method: "GET",
    path: "/contact/notification/{id}",
    summary: "Read one notification.",
    scope: "contact:read",
    errors: ["not_found"],
    response: {
      status: 200,
      description:
        "The notification (`alt_` id): {contactId, kind, event, channel, address, monitorIds, period, outcome, reason, time}.",
    },
    handle: (ctx, req) => ({
      status: 200,
      body: renderNotification(requireNotification(ctx, req.params.id!)),
    }),
  },
);
