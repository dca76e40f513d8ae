import { z } from "zod";
import {
  statusPageSubscriberCreateBody,
  statusPageSubscriberSchema,
  statusPageTemplateCreateBody,
  statusPageTemplateSchema,
} from "../../../kinds/index.ts";
import { newGuid } from "../../core/ids.ts";
import { listOperations } from "../../core/list.ts";
import { type Ctx, defineOperations, type Operation } from "../../core/operation.ts";
import { ApiProblem } from "../../core/problem.ts";
import { storedValues } from "../../core/stored.ts";
import {
  childrenOf,
  requireChild,
  requirePage,
  type SubscriberDoc,
  subscriberTable,
  type TemplateDoc,
  templateTable,
} from "./model.ts";

function render<T extends { accountId: string }>(doc: T): Omit<T, "accountId"> {
  const { accountId: _, ...rest } = doc;
  return rest;
}

type ChildDoc = { id: string; accountId: string; pageId: string; created: number };

const childReceipt = z.looseObject({ id: z.string(), deleted: z.literal(true), pageId: z.string() });

/**
 * The routes every page child has besides its create: the paged list (oldest
 * first by default), a single read (where a create's `Location` leads) and the delete.
 */
function childRoutes<T extends ChildDoc>(child: {
  noun: string;
  segment: string;
  param: string;
  table: string;
  schema: z.ZodObject;
}): Operation[] {
  const { noun, segment, param, table, schema } = child;
  const itemPath = `/statuspage/{id}/${segment}/{${param}}`;
  const requireOne = (ctx: Ctx, params: Record<string, string>) => {
    const page = requirePage(ctx, params.id!);
    return requireChild<T>(ctx, table, noun, page.id, params[param]!);
  };
  const list = listOperations<T>({
    id: `statusPage.${noun}.list`,
    path: `/statuspage/{id}/${segment}`,
    summary: `List a status page's ${noun}s.`,
    scope: "statuspage:read",
    rows: (ctx: Ctx, req) => childrenOf<T>(ctx, table, requirePage(ctx, req.params.id!).id),
    rowId: (c) => c.id,
    sort: { default: "created", columns: { created: { key: (c) => c.created, time: true } } },
    render: (_ctx, c) => render(c),
    errors: ["not_found"],
    rowsOf: { title: `${noun}s`, schema },
  });
  return defineOperations(
    ...list,
    {
      id: `statusPage.${noun}.get`,
      method: "GET",
      path: itemPath,
      summary: `Read one ${noun} of a status page.`,
      scope: "statuspage:read",
      errors: ["not_found"],
      response: { status: 200, description: `The ${noun}.`, schema },
      handle: (ctx, req) => ({ status: 200, body: render(requireOne(ctx, req.params)) }),
    },
    {
      id: `statusPage.${noun}.delete`,
      method: "DELETE",
      path: itemPath,
      summary: `Delete a ${noun}.`,
      scope: "statuspage:write",
      errors: ["not_found"],
      response: { status: 200, description: "The delete receipt.", schema: childReceipt },
      handle: (ctx, req) => {
        const doc = requireOne(ctx, req.params);
        ctx.store.remove(table, doc.id);
        return { status: 200, body: { id: doc.id, deleted: true, pageId: doc.pageId } };
      },
    },
  );
}

/** Subscribers are unique per page and url: a second one would only double every notice. */
function assertNewSubscriber(ctx: Ctx, pageId: string, url: string) {
  const existing = childrenOf<SubscriberDoc>(ctx, subscriberTable, pageId).find((s) => s.url === url);
  if (existing) {
    throw new ApiProblem("duplicate_resource", "This page already has a subscriber with that url.", {
      errors: [{ pointer: "/url", value: url, reason: "duplicate", existingId: existing.id }],
      extra: { existingId: existing.id },
    });
  }
}

export const templateOperations = defineOperations(
  ...childRoutes<TemplateDoc>({
    noun: "template",
    segment: "template",
    param: "templateId",
    table: templateTable,
    schema: statusPageTemplateSchema,
  }),
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
      const template = ctx.store.put<TemplateDoc>(templateTable, {
        id: newGuid(),
        accountId: ctx.account!.id,
        // The kind's members as sent, else their defaults; the page is the route's.
        ...storedValues(statusPageTemplateSchema, req.body as object, undefined, ["pageId"]),
        pageId: page.id,
        created: ctx.now,
      });
      return {
        status: 201,
        headers: { Location: `/statuspage/${page.id}/template/${template.id}` },
        body: render(template),
      };
    },
  },
);

export const subscriberOperations = defineOperations(
  ...childRoutes<SubscriberDoc>({
    noun: "subscriber",
    segment: "subscriber",
    param: "subscriberId",
    table: subscriberTable,
    schema: statusPageSubscriberSchema,
  }),
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
      const subscriber = ctx.store.put<SubscriberDoc>(subscriberTable, {
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
);
