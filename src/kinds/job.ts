import { z } from "zod";
import { createdAt, readOnlyId, unixTime } from "./common.ts";
import { jobResultRow } from "./events.ts";
import { field } from "./field.ts";
import { jobItemStatuses, jobStates } from "./job-states.ts";
import { defineKind } from "./kind.ts";
import { problemDocumentSchema } from "./problem-document.ts";

/** What a job does: the operation that created it. */
export const jobKinds = [
  "monitor.bulkCreate",
  "monitor.bulkUpdate",
  "monitor.bulkDelete",
  "monitor.copy",
  "monitor.resetStats",
  "monitor.report",
  "contact.bulkWrite",
  "contact.bulkDelete",
] as const;
export type JobKind = (typeof jobKinds)[number];
export type JobState = (typeof jobStates)[number];
export type JobItemStatus = (typeof jobItemStatuses)[number];

/** `callback` of a job-creating body: the webhook that receives `job.completed` (and `job.progress` when asked). */
export const jobCallback = z.strictObject({
  webhookId: field(z.string().min(1), { description: "A webhook of this account." }),
  on: field(z.enum(["progress"]), { description: "progress adds throttled job.progress events." }).optional(),
});

const count = z.number().int().min(0);

/** A job as `GET /job/{id}` answers it; jobs are created by the operations they run, never written directly. */
export const jobSchema = z
  .strictObject({
    id: readOnlyId,
    kind: field(z.enum(jobKinds), { readOnly: true, description: "The operation that created the job." }),
    state: field(z.enum(jobStates), { readOnly: true }),
    progress: field(z.strictObject({ done: count, total: count }), {
      readOnly: true,
      description: "Items processed, of all items.",
    }),
    summary: field(z.record(z.enum(jobItemStatuses), count), {
      readOnly: true,
      description: "Item counts per status.",
    }),
    created: createdAt,
    startedAt: field(unixTime.nullable(), { readOnly: true, description: "When the first item ran." }),
    finishedAt: field(unixTime.nullable(), {
      readOnly: true,
      description: "When a terminal state was reached.",
    }),
    expiresAt: field(unixTime, {
      readOnly: true,
      description: "created + 7 days; the job then answers 404.",
    }),
    callback: field(jobCallback.nullable(), { readOnly: true, description: "As sent on creation." }),
    error: field(problemDocumentSchema.nullable(), {
      readOnly: true,
      description: "A failed job: the first item's problem document.",
    }),
    results: field(z.array(jobResultRow), {
      readOnly: true,
      description: "One page of result rows, by index (single reads only).",
    }),
    resultsNextCursor: field(z.string().nullable(), {
      readOnly: true,
      description: "Send as cursor for the next page of results; null on the last page.",
    }),
    resultsHasMore: field(z.boolean(), { readOnly: true }),
  })
  .partial();

/** The 202 answer of every job-creating operation. */
export const jobAccepted = z.strictObject({
  jobId: field(z.string(), { description: "Poll GET /job/{jobId} (also the Location header)." }),
  accepted: field(count, { description: "How many items the job will process." }),
});

export const jobKind = defineKind({
  name: "job",
  title: "Job",
  schema: jobSchema,
  naturalKey: [],
  paths: { collection: "/job", item: "/job/{id}" },
  list: { sort: ["created"], defaultSort: "created", filters: ["state", "kind"] },
});
