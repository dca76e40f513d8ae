import type { BackgroundTask } from "../../core/state.ts";
import { reportLimits } from "../catalogue/report-types.ts";
import type { JobProcessor } from "../jobs/processor.ts";
import { buildModel } from "./content.ts";
import { writeReport } from "./formats.ts";
import {
  downloadPath,
  purgeReports,
  type ReportDoc,
  type ReportRequest,
  reportMonitors,
  reportTable,
} from "./model.ts";

/** Report work done off the request: the job that writes a report, and the purge of expired ones. */

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
      const report = ctx.store.put<ReportDoc>(reportTable, {
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
