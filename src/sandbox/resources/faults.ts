import { z } from "zod";
import type { ProblemDetailEntry } from "../../kinds/index.ts";
import {
  type FaultConfig,
  type Faults,
  faultable,
  faultStatuses,
  randomSeed,
  routeOf,
} from "../core/faults.ts";
import { type Ctx, defineOperations } from "../core/operation.ts";
import { invalid } from "../core/problem.ts";
import { admin } from "./admin.ts";

/** `/_sandbox/faults`: random failures of public API calls (docs/sandbox-faults.md). */

const faultBody = z.strictObject({
  rate: z.number().min(0).max(1),
  statuses: z.array(z.literal(faultStatuses)).min(1).optional(),
  latencyMs: z.number().int().min(0).max(30_000).optional(),
  reset: z.union([z.boolean(), z.number().min(0).max(1)]).optional(),
  when: z.enum(["before", "after", "either"]).optional(),
  seed: z
    .number()
    .int()
    .min(0)
    .max(2 ** 32 - 1)
    .optional(),
  routes: z.array(z.string()).min(1).optional(),
});

const defaultStatuses: FaultConfig["statuses"] = [500, 502, 503];

/** The configuration in force, or `{active: false}`, with what it has injected so far. */
function view(faults: Faults) {
  const { config } = faults;
  return config ? { active: true, ...config, injected: faults.injected } : { active: false };
}

/** What the body cannot say through its schema: routes that exist, and an `after` fault that can answer. */
function check(ctx: Ctx, config: FaultConfig): void {
  const entries: ProblemDetailEntry[] = [];
  const routes = ctx.services.operations.filter(faultable).map(routeOf);
  config.routes?.forEach((route, i) => {
    if (!routes.includes(route)) {
      entries.push({
        pointer: `/routes/${i}`,
        value: route,
        reason: "unknown_route",
        allowed: routes,
        message: "is not a public API route (METHOD /path as in the OpenAPI document)",
      });
    }
  });
  if (config.when === "after" && config.reset !== true && !config.statuses.some((s) => s !== 429)) {
    entries.push({
      pointer: "/statuses",
      value: config.statuses,
      reason: "no_after_status",
      allowed: faultStatuses.filter((s) => s !== 429),
      message: "an after fault answers with a 5xx: a 429 would claim the committed call was refused",
    });
  }
  if (entries.length > 0) throw invalid(entries);
}

export const faultOperations = defineOperations(
  {
    ...admin,
    id: "sandbox.faults.set",
    method: "POST",
    path: "/_sandbox/faults",
    summary: "Inject random failures into public API calls; replaces any earlier configuration.",
    body: faultBody,
    handle: (ctx, req) => {
      const body = req.body as z.infer<typeof faultBody>;
      const config: FaultConfig = {
        rate: body.rate,
        statuses: body.statuses ?? defaultStatuses,
        latencyMs: body.latencyMs ?? 0,
        reset: body.reset ?? false,
        when: body.when ?? "either",
        // Drawn when absent and echoed, so a failing run can be replayed.
        seed: body.seed ?? randomSeed(),
        ...(body.routes && { routes: body.routes }),
      };
      check(ctx, config);
      ctx.services.faults.configure(config);
      return { status: 200, body: view(ctx.services.faults) };
    },
  },
  {
    ...admin,
    id: "sandbox.faults.get",
    method: "GET",
    path: "/_sandbox/faults",
    summary: "The fault configuration in force and what it has injected.",
    handle: (ctx) => ({ status: 200, body: view(ctx.services.faults) }),
  },
  {
    ...admin,
    id: "sandbox.faults.clear",
    method: "DELETE",
    path: "/_sandbox/faults",
    summary: "Stop injecting faults; answers what the cleared configuration injected.",
    handle: (ctx) => {
      const { faults } = ctx.services;
      const injected = faults.config ? faults.injected : undefined;
      faults.clear();
      return { status: 200, body: { active: false, ...(injected && { injected }) } };
    },
  },
);
