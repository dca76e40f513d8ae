import { z } from "zod";
import {
  defaultsOf,
  pageOf,
  statusPageSubscriberCreateBody,
  statusPageSubscriberSchema,
  statusPageTemplateCreateBody,
  statusPageTemplateSchema,
} from "../../../kinds/index.ts";
import { newGuid } from "../../core/ids.ts";
import { listOperations } from "../../core/list.ts";
import { type Ctx, defineOperations, type Operation } from "../../core/operation.ts";
import { ApiProblem } from "../../core/problem.ts";
import {
  childrenOf,
  requireChild,
  requirePage,
  type SubscriberDoc,
  subscriberCollection,
  type TemplateDoc,
  templateCollection,
} from "./model.ts";

const templateDefaults = defaultsOf(statusPageTemplateSchema) as Pick<TemplateDoc, "impact">;

function render<T extends { accountId: string }>(doc: T): Omit<T, "accountId"> {
  const { accountId: _, ...rest } = doc;
  return rest;
}

/** The paged list of one kind of page child, oldest first by default. */
function childList<T extends { id: string; accountId: string; pageId: string; created: number }>(
  id: string,
  path: string,
  noun: string,
  collection: string,
  schema: z.ZodObject,
): Operation[] {
  return listOperations<T>({
    id,
    path,
    summary: `List a status page's ${noun}s.`,
    scope: "statuspage:read",
    rows: (ctx: Ctx, req) => childrenOf<T>(ctx, collection, requirePage(ctx, req.params.id!).id),
    rowId: (c) => c.id,
    sort: { default: "created", columns: { created: { key: (c) => c.created, time: true } } },
    render: (_ctx, c) => render(c),
    errors: ["not_found"],
  }).map((op) => ({
    ...op,
    response: { status: 200, description: `One page of ${noun}s.`, schema: pageOf(schema) },
  }));
}

const childReceipt = z.looseObject({ id: z.string(), deleted: z.literal(true), pageId: z.string() });

/** Subscribers are unique per page and url: a second one would only double every notice. */
function assertNewSubscriber(ctx: Ctx, pageId: string, url: string) {
  const existing = childrenOf<SubscriberDoc>(ctx, subscriberCollection, pageId).find((s) => s.url === url);
  if (existing) {
    throw new ApiProblem("duplicate_resource", "This page already has a subscriber with that url.", {
      errors: [{ pointer: "/url", value: url, reason: "duplicate", existingId: existing.id }],
      extra: { existingId: existing.id },
    });
  }
}

export const childOperations = defineOperations(
  ...childList<TemplateDoc>(
    "statusPage.template.list",
    "/statuspage/{id}/template",
    "template",
    templateCollection,
    statusPageTemplateSchema,
  ),
  {
    id: "statusPage.template.create",
    method: "POST",
    path: "/statuspage/{id}/template",
    summary: "Save an incident template: title, message and default impact.",
    scope: "statuspage:write",
    body: statusPageTemplateCreateBody,
    errors: ["not_found", "validation_failed"],
    response: { status: 201, description: "The template.", schema: statusPageTemplateSchema },
    handle: (ctx, req) => {
      const page = requirePage(ctx, req.params.id!);
      const body = req.body as Pick<TemplateDoc, "title" | "message"> & Partial<Pick<TemplateDoc, "impact">>;
      const template = ctx.store.put<TemplateDoc>(templateCollection, {
        id: newGuid(),
        accountId: ctx.account!.id,
        pageId: page.id,
        title: body.title,
        message: body.message,
        impact: body.impact ?? templateDefaults.impact,
        created: ctx.now,
      });
      return {
        status: 201,
        headers: { Location: `/statuspage/${page.id}/template/${template.id}` },
        body: render(template),
      };
    },
  },
  {
    id: "statusPage.template.delete",
    method: "DELETE",
    path: "/statuspage/{id}/template/{templateId}",
    summary: "Delete a template.",
    scope: "statuspage:write",
    errors: ["not_found"],
    response: { status: 200, description: "The delete receipt.", schema: childReceipt },
    handle: (ctx, req) => {
      const page = requirePage(ctx, req.params.id!);
      const t = requireChild<TemplateDoc>(
        ctx,
        templateCollection,
        "template",
        page.id,
        req.params.templateId!,
      );
      ctx.store.remove(templateCollection, t.id);
      return { status: 200, body: { id: t.id, deleted: true, pageId: page.id } };
    },
  },
  ...childList<SubscriberDoc>(
    "statusPage.subscriber.list",
    "/statuspage/{id}/subscriber",
    "subscriber",
    subscriberCollection,
    statusPageSubscriberSchema,
  ),
  {
    id: "statusPage.subscriber.create",
    method: "POST",
    path: "/statuspage/{id}/subscriber",
    summary:
      "Add a slack, teams or webhook subscriber {kind, url}. Email subscribers join only through the public page's double opt-in.",
    scope: "statuspage:write",
    body: statusPageSubscriberCreateBody,
    errors: ["not_found", "validation_failed", "duplicate_resource"],
    response: { status: 201, description: "The subscriber.", schema: statusPageSubscriberSchema },
    handle: (ctx, req) => {
      const page = requirePage(ctx, req.params.id!);
      const body = req.body as { kind: SubscriberDoc["kind"]; url: string };
      assertNewSubscriber(ctx, page.id, body.url);
      const subscriber = ctx.store.put<SubscriberDoc>(subscriberCollection, {
        id: newGuid(),
        accountId: ctx.account!.id,
        pageId: page.id,
        kind: body.kind,
        url: body.url,
        created: ctx.now,
      });
      return {
        status: 201,
        headers: { Location: `/statuspage/${page.id}/subscriber/${subscriber.id}` },
        body: render(subscriber),
      };
    },
  },
  {
    id: "statusPage.subscriber.delete",
    method: "DELETE",
    path: "/statuspage/{id}/subscriber/{subscriberId}",
    summary: "Remove a subscriber.",
    scope: "statuspage:write",
    errors: ["not_found"],
    response: { status: 200, description: "The delete receipt.", schema: childReceipt },
    handle: (ctx, req) => {
      const page = requirePage(ctx, req.params.id!);
      const s = requireChild<SubscriberDoc>(
        ctx,
        subscriberCollection,
        "subscriber",
        page.id,
        req.params.subscriberId!,
      );
      ctx.store.remove(subscriberCollection, s.id);
      return { status: 200, body: { id: s.id, deleted: true, pageId: page.id } };
    },
  },
);
