import { z } from "zod";
import type { Account } from "../../core/operation.ts";
import { defineOperations } from "../../core/operation.ts";
import { ApiProblem, notFound } from "../../core/problem.ts";
import { admin } from "../admin.ts";
import { type MonitorDoc, monitorTable } from "../monitors/model.ts";
import { recordOutcome } from "./incident-machine.ts";

const outcomeBody = z.strictObject({
  state: z.enum(["up", "down"]),
  /** Members not sent read from the default failure, a timeout; ignored when `state` is up. */
  error: z
    .strictObject({
      code: z.number().int().optional(),
      message: z.string().min(1).max(1000).optional(),
      codename: z.string().min(1).max(100).optional(),
    })
    .optional(),
});

/** `POST /_sandbox/monitor/{id}/outcome`: one confirmed check of a monitor (docs/sandbox-checks.md). */
export const outcomeOperations = defineOperations({
  ...admin,
  id: "sandbox.monitor.outcome",
  method: "POST",
  path: "/_sandbox/monitor/{id}/outcome",
  summary: "Record a confirmed check of a monitor: drives results, incidents, spans, events and alerts.",
  body: outcomeBody,
  errors: ["not_found", "validation_failed"],
  response: {
    status: 200,
    description: "The check as recorded: its result row and, while down, its incident.",
    schema: z.object({
      id: z.string(),
      state: z.enum(["up", "down"]),
      resultId: z.string(),
      incidentId: z.string().nullable(),
      changed: z.boolean(),
    }),
  },
  handle: (ctx, req) => {
    const monitor = ctx.store.get<MonitorDoc>(monitorTable, req.params.id!);
    if (!monitor) throw notFound("monitor", req.params.id!);
    const body = req.body as z.infer<typeof outcomeBody>;
    // A paused monitor runs no checks, so no check can confirm a state for it.
    if (!monitor.enabled) {
      throw new ApiProblem(
        "validation_failed",
        "The monitor is paused: it runs no checks. Enable it first.",
        {
          errors: [{ pointer: "/state", value: body.state, reason: "monitor_paused" }],
        },
      );
    }
    // The control route has no account of its own: the engine works on behalf of the monitor's.
    const account = ctx.store.get<Account>("account", monitor.accountId);
    const effect = recordOutcome({ ...ctx, account }, monitor, body);
    return { status: 200, body: { id: monitor.id, state: body.state, ...effect } };
  },
});
