import { z } from "zod";
import { createdAt, field, readOnlyId, unixTime } from "../../../kinds/index.ts";
import { newPrefixedId } from "../../core/ids.ts";
import { defineOperations } from "../../core/operation.ts";
import { reportFormats } from "../catalogue/report-types.ts";
import { acceptedResponse, jobRouteErrors } from "../jobs/bulk.ts";
import { acceptedReply, assertCallback, createJob } from "../jobs/model.ts";
import {
  contentTypeOf,
  type ReportRequestBody,
  renderReport,
  reportRequestBody,
  requireReport,
  resolveRequest,
} from "./model.ts";

/** Generated reports: request (a job), details, file (docs/sandbox-reports.md). */

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
