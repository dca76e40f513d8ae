import { z } from "zod";
import {
  field,
  issuesToEntries,
  type LeafScope,
  type MonitorBody,
  monitorSchema,
} from "../../../kinds/index.ts";
import { type JobKind, jobCallback } from "../../../kinds/job.ts";
import { defineOperations } from "../../core/operation.ts";
import { ApiProblem, invalid } from "../../core/problem.ts";
import { resetCheckHistory } from "../checks/history.ts";
import { monitorListFilters } from "../monitors/filters.ts";
import { type MonitorDoc, monitorCollection, monitorName, ownedMonitor } from "../monitors/model.ts";
import { renderMonitor } from "../monitors/render.ts";
import { monitorBody } from "../monitors/validate.ts";
import { createMonitor, deleteMonitor, monitorBodyErrors, updateMonitor } from "../monitors/writes.ts";
import {
  acceptedResponse,
  assertItemCount,
  bulkDeleteOperations,
  type ItemsBody,
  itemsOperations,
  jobRouteErrors,
} from "./bulk.ts";
import { acceptedReply, assertCallback, createJob } from "./model.ts";
import type { ItemOutcome, JobProcessor } from "./processor.ts";
import { underPointer } from "./processor.ts";

/** Bulk items take the single routes' bodies; `onOverlimit` also accepts `stop` in bulk. */
const overlimitInBulk = field(z.enum(["fail", "disable", "stop"]), {
  inputOnly: true,
  description: "fail (default), disable, or stop: fail this item and cancel the rest.",
}).optional();
const createItem = monitorBody("create").extend({ onOverlimit: overlimitInBulk });
const updateItem = monitorBody("update").extend({
  id: field(z.string().min(1), { description: "The monitor to change." }),
  onOverlimit: overlimitInBulk,
});

/** Checks an item against the single route's schema; errors point into the bulk body. */
function parseItem(schema: z.ZodObject, input: unknown, index: number): Record<string, unknown> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw invalid(issuesToEntries(parsed.error.issues, input, schema, ["items", index]));
  return input as Record<string, unknown>;
}

/** Runs an item's work; a refusal keeps the single route's problem with its pointers under the item. */
function atItem<T>(prefix: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw error instanceof ApiProblem ? underPointer(error, prefix) : error;
  }
}

const created = (m: MonitorDoc): ItemOutcome => ({
  status: m.overlimited ? "createdDisabled" : "created",
  entityId: m.id,
  result: monitorSummary(m),
});

function monitorSummary(m: MonitorDoc) {
  return { id: m.id, type: m.type, name: monitorName(m), url: m.url, enabled: m.enabled };
}

/** `onOverlimit: stop`: the item that met the plan's monitor limit fails, and the rest are cancelled. */
const stopsOnOverlimit = (input: unknown, problem: ApiProblem) =>
  (input as { onOverlimit?: string }).onOverlimit === "stop" &&
  problem.code === "package_limit" &&
  problem.extra.feature === "monitors";

/** A create body that repeats a monitor's configuration at another address (its name follows the address). */
function copyBody(source: MonitorDoc, url: string, onOverlimit: unknown): MonitorBody {
  return {
    type: source.type,
    url,
    interval: source.interval,
    ...(source.cronSchedule !== null && { cronSchedule: source.cronSchedule }),
    enabled: source.enabled,
    tags: source.tags,
    ...(source.locations && { locations: source.locations }),
    ...(source.recheck && { recheck: source.recheck }),
    openStat: source.openStat,
    fullLog: source.fullLog,
    ...(source.slaTarget !== null && { slaTarget: source.slaTarget }),
    ...(Object.keys(source.settings).length > 0 && { settings: source.settings }),
    ...(onOverlimit !== undefined && { onOverlimit }),
  } as MonitorBody;
}

export const monitorProcessors: Record<
  Exclude<Extract<JobKind, `monitor.${string}`>, "monitor.report">,
  JobProcessor
> = {
  "monitor.bulkCreate": {
    run(ctx, input, index) {
      const body = parseItem(createItem, input, index);
      return created(atItem(`/items/${index}`, () => createMonitor(ctx, body as MonitorBody).monitor));
    },
    stopsRest: stopsOnOverlimit,
  },
  "monitor.bulkUpdate": {
    run(ctx, input, index) {
      const { id, ...body } = parseItem(updateItem, input, index) as { id: string };
      return atItem(`/items/${index}`, () => {
        const before = ctx.store.get<MonitorDoc>(monitorCollection, id);
        const { monitor } = updateMonitor(ctx, id, body as MonitorBody);
        return {
          status: monitor === before ? "skipped" : "updated",
          entityId: id,
          result: monitorSummary(monitor),
        };
      });
    },
    stopsRest: stopsOnOverlimit,
  },
  "monitor.bulkDelete": {
    run(ctx, input) {
      const id = input as string;
      const monitor = ctx.store.owned<MonitorDoc>(monitorCollection, ctx.account!.id, id);
      // Deleted since the job was accepted: the goal is reached, nothing to do.
      if (!monitor) return { status: "skipped", entityId: id, result: { reason: "already_deleted" } };
      return { status: "deleted", entityId: id, result: deleteMonitor(ctx, monitor) };
    },
  },
  "monitor.copy": {
    run(ctx, input, index, params) {
      const source = ownedMonitor(ctx, params.sourceId as string);
      const body = copyBody(source, input as string, params.onOverlimit);
      try {
        return created(createMonitor(ctx, body).monitor);
      } catch (error) {
        // The address is the only member the caller sent per copy: point at it.
        if (!(error instanceof ApiProblem)) throw error;
        throw new ApiProblem(error.code, error.message, {
          errors: error.errors?.map((e) => (e.pointer === "/url" ? { ...e, pointer: `/urls/${index}` } : e)),
          extra: error.extra,
        });
      }
    },
  },
  "monitor.resetStats": {
    run(ctx, input) {
      const monitor = ownedMonitor(ctx, input as string);
      return {
        status: "updated",
        entityId: monitor.id,
        result: { removed: resetCheckHistory(ctx, monitor.id) },
      };
    },
  },
};

/** Monitor bulk needs monitor:write; inline contacts in any create item reach into contacts too. */
function createScopes(body: unknown): LeafScope[] {
  const items = (body as Partial<ItemsBody> | undefined)?.items ?? [];
  const withContacts = items.some((item) => {
    const contacts = (item as { contacts?: unknown } | null)?.contacts;
    return Array.isArray(contacts) && contacts.length > 0;
  });
  return withContacts ? ["contact:write"] : [];
}

const copyBodySchema = z.strictObject({
  urls: field(z.array(z.string().min(1)).min(1), {
    description: "Addresses to copy the monitor's configuration to; more than 10 make a job.",
  }),
  onOverlimit: field(z.enum(["fail", "disable"]), { description: "As on monitor create." }).optional(),
  callback: jobCallback.optional(),
});
type CopyBody = z.infer<typeof copyBodySchema>;
/** Copies up to this many answer at once; more become a job. */
const directCopyMax = 10;

export const monitorBulkOperations = defineOperations(
  ...itemsOperations({
    kind: "monitor.bulkCreate",
    validateId: "monitor.bulkValidate",
    path: "/monitor/bulk",
    validatePath: "/monitor/bulk-validate",
    summary: "Create monitors as a job, item by item (each item a monitor create body).",
    validateSummary: "Judge monitor create items without creating anything.",
    scope: "monitor:write",
    extraScopes: createScopes,
    processor: monitorProcessors["monitor.bulkCreate"],
    itemRef: "url",
  }),
  ...itemsOperations({
    kind: "monitor.bulkUpdate",
    validateId: "monitor.bulkUpdateValidate",
    path: "/monitor/bulk-update",
    validatePath: "/monitor/bulk-update-validate",
    summary: "Change monitors as a job; each item is {id, ...members to change}.",
    validateSummary: "Judge monitor update items ({id, ...members}) without changing anything.",
    scope: "monitor:write",
    processor: monitorProcessors["monitor.bulkUpdate"],
    itemRef: "id",
  }),
  ...bulkDeleteOperations<MonitorDoc>({
    kind: "monitor.bulkDelete",
    validateId: "monitor.bulkDeleteValidate",
    path: "/monitor/bulk-delete",
    noun: "monitors",
    scope: "monitor:write",
    collection: monitorCollection,
    filters: monitorListFilters,
    sampleRow: monitorSummary,
  }),
  {
    id: "monitor.resetStats",
    method: "POST",
    path: "/monitor/{id}/reset-stats",
    summary: "Forget a monitor's results, spans and resolved incidents, as a job.",
    scope: "monitor:write",
    idempotency: "required",
    body: z.strictObject({ callback: jobCallback.optional() }),
    errors: ["not_found", ...jobRouteErrors],
    response: acceptedResponse,
    handle: (ctx, req) => {
      const monitor = ownedMonitor(ctx, req.params.id!);
      const callback = (req.body as { callback?: ItemsBody["callback"] }).callback;
      assertCallback(ctx, callback);
      return acceptedReply(
        createJob(ctx, {
          kind: "monitor.resetStats",
          scopes: ["monitor:write"],
          items: [{ input: monitor.id, itemRef: monitor.id }],
          callback,
        }),
      );
    },
  },
  {
    id: "monitor.copy",
    method: "POST",
    path: "/monitor/{id}/copy",
    summary:
      "Copy a monitor's configuration to other addresses: up to 10 at once (all or nothing), more as a job.",
    scope: "monitor:write",
    idempotency: (req) => ((req.body as Partial<CopyBody> | undefined)?.urls?.length ?? 0) > directCopyMax,
    body: copyBodySchema,
    errors: [...monitorBodyErrors, "not_found", "too_many_items", "idempotency_key_required"],
    response: {
      status: 201,
      description: "Up to 10 addresses: the created monitors. More: 202 with the job, as every job route.",
      schema: z.strictObject({ data: z.array(monitorSchema) }),
    },
    handle: (ctx, req) => {
      const body = req.body as CopyBody;
      const source = ownedMonitor(ctx, req.params.id!);
      assertItemCount(ctx, body.urls.length, "/urls");
      assertCallback(ctx, body.callback);
      const params = { sourceId: source.id, onOverlimit: body.onOverlimit };
      if (body.urls.length > directCopyMax) {
        const items = body.urls.map((url) => ({ input: url, itemRef: url }));
        return acceptedReply(
          createJob(ctx, {
            kind: "monitor.copy",
            scopes: ["monitor:write"],
            items,
            params,
            callback: body.callback,
          }),
        );
      }
      // One transaction: the first refusal answers, and nothing is created.
      const ids = body.urls.map(
        (url, i) => monitorProcessors["monitor.copy"].run(ctx, url, i, params).entityId!,
      );
      const settings = new Set(["settings"]);
      const data = ids.map((id) =>
        renderMonitor(ctx, ctx.store.get<MonitorDoc>(monitorCollection, id)!, settings),
      );
      return { status: 201, body: { data } };
    },
  },
);
