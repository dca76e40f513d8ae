import { z } from "zod";
import { createdAt, field, readOnlyId, unixTime } from "../../../kinds/index.ts";
import { newPrefixedId } from "../../core/ids.ts";
import { defineOperations } from "../../core/operation.ts";
import type { BackgroundTask } from "../../core/state.ts";
import { reportFormats, reportLimits } from "../catalogue/report-types.ts";
import { acceptedResponse, jobRouteErrors } from "../jobs/bulk.ts";
import { acceptedReply, assertCallback, createJob } from "../jobs/model.ts";
import type { JobProcessor } from "../jobs/processor.ts";
import { buildModel } from "./content.ts";
import { writeReport } from "./formats.ts";
import {
  contentTypeOf,
  downloadPath,
  purgeReports,
  type ReportDoc,
  type ReportRequest,
  type ReportRequestBody,
  renderReport,
  reportCollection,
  reportMonitors,
  reportRequestBody,
  requireReport,
  resolveRequest,
} from "./model.ts";

/** Generated reports: request (a job), details, file (docs/sandbox-reports.md). */

/**
 * The `monitor.report` job has one item, the resolved request and the id its
 * report will carry. Monitors are
 * checked again when it runs: one deleted meanwhile fails the job with the
 * answer the request would now get.
 */
export const reportProcessors: Record<"monitor.report", JobProcessor> = {
  "monitor.report": {
    run(ctx, input) {
      const { reportId: id, ...request } = input as ReportRequest & { reportId: string };
      const monitors = reportMonitors(ctx, request.monitorIds);
      const content = writeReport(request.format, buildModel(ctx, monitors, request), {
        id,
        from: String(request.from),
        to: String(request.to),
        timezone: request.timezone,
        generated: String(ctx.now),
      });
      const report = ctx.store.put<ReportDoc>(reportCollection, {
        id,
        accountId: ctx.account!.id,
        ...request,
        created: ctx.now,
        expiresAt: ctx.now + reportLimits.downloadableSec,
        content,
        size: Buffer.byteLength(content),
      });
      return {
        status: "created",
        entityId: id,
        result: { reportId: id, downloadUrl: downloadPath(id), expiresAt: report.expiresAt },
      };
    },
  },
};

/** Reports past their 7 days are purged, at most every few minutes. */
export const reportPurgeTask: BackgroundTask = {
  name: "reports",
  due: (state, now) => purgeReports(state.store, now),
};

const reportDetails = z.strictObject({
  id: readOnlyId,
  monitorIds: z.array(z.string()),
  from: unixTime,
  to: unixTime,
  format: z.enum(Object.keys(reportFormats) as [string, ...string[]]),
  sections: z.array(z.string()),
  timezone: field(z.string(), { description: "IANA zone the report's times are written in." }),
  created: createdAt,
  expiresAt: field(unixTime, { description: "created + 7 days; the report then answers 404." }),
  size: field(z.number().int().min(0), { description: "Bytes of the file." }),
  contentType: z.string(),
  downloadUrl: field(z.string(), { description: "Path of the file: GET it with a monitor:read token." }),
});

export const reportOperations = defineOperations(
  {
    id: "monitor.report",
    method: "POST",
    path: "/monitor/report",
    summary: "Generate an uptime report for up to 500 monitors, as a job whose result names the report.",
    scope: "monitor:write",
    idempotency: "required",
    body: reportRequestBody,
    errors: [...jobRouteErrors, "invalid_range"],
    response: acceptedResponse,
    handle: (ctx, req) => {
      const body = req.body as ReportRequestBody;
      const request = resolveRequest(ctx, body);
      assertCallback(ctx, body.callback);
      // The report's id is drawn now, so the job's one item names it from the start.
      const reportId = newPrefixedId("rep_");
      const job = createJob(ctx, {
        kind: "monitor.report",
        scopes: ["monitor:write"],
        items: [{ input: { ...request, reportId }, itemRef: reportId }],
        callback: body.callback,
      });
      return acceptedReply(job);
    },
  },
  {
    id: "monitor.generatedReport.get",
    method: "GET",
    path: "/monitor/report/{id}",
    summary: "A generated report's details and download path; 404 after its 7 days.",
    scope: "monitor:read",
    errors: ["not_found"],
    response: { status: 200, description: "The report's details.", schema: reportDetails },
    handle: (ctx, req) => ({ status: 200, body: renderReport(requireReport(ctx, req.params.id!)) }),
  },
  {
    id: "monitor.generatedReport.content",
    method: "GET",
    path: "/monitor/report/{id}/content",
    summary: "A generated report's file (pdf, csv, xml or html); 404 after its 7 days.",
    scope: "monitor:read",
    errors: ["not_found"],
    response: {
      status: 200,
      description: "The file, with its content-type and an attachment content-disposition.",
      mediaTypes: Object.values(reportFormats),
    },
    handle: (ctx, req) => {
      const report = requireReport(ctx, req.params.id!);
      return {
        status: 200,
        text: report.content,
        headers: {
          "content-type": contentTypeOf(report.format),
          "content-disposition": `attachment; filename="${report.id}.${report.format}"`,
        },
      };
    },
  },
);
