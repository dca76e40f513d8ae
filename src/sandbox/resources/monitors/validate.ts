import { z } from "zod";
import {
  type AccountView,
  attachedRefusals,
  bodySchema,
  discontinuedCode,
  field,
  intervalRefusals,
  locationRefusals,
  type MonitorBody,
  type MonitorType,
  monitorKind,
  monitorSchema,
  monitorTypes,
  monitorTypeVocabulary,
  type ProblemDetailEntry,
  recheckRefusals,
  requiredSettingsRefusals,
  tagRefusals,
  traitsOf,
  urlRefusals,
  variantOf,
  variantRequires,
} from "../../../kinds/index.ts";
import { cronProblem } from "../../../kinds/monitor/cron.ts";
import { agents, agentsFor, minLiveAgents, pools, resolvePools } from "../../core/fleet.ts";
import type { Ctx } from "../../core/operation.ts";
import { plans } from "../../core/plans.ts";
import { ApiProblem, invalid } from "../../core/problem.ts";
import { throwRefusals } from "../../core/refusal.ts";
import { accountOf, entitlements } from "../accounts.ts";
import { checkedAddress } from "./address.ts";
import { type MonitorDoc, monitorCollection, monitorDefaults } from "./model.ts";
import { resolveSettings } from "./settings.ts";

/** The members of a monitor as a write would leave them, and the warnings to answer with. */
export interface PreparedMonitor {
  fields: Omit<
    MonitorDoc,
    "id" | "accountId" | "state" | "since" | "created" | "updated" | "syncSeq" | "overlimited"
  >;
  warnings: ProblemDetailEntry[];
}

const required = (pointer: string, message: string) => invalid([{ pointer, reason: "required", message }]);
const notAllowed = (pointer: string, message: string) =>
  invalid([{ pointer, reason: "not_allowed", message }]);

/** The monitor kind's discontinued types (`monitorKind.variants.discontinued`). */
const discontinued = monitorKind.variants?.discontinued?.values ?? [];

/**
 * A monitor body as the API takes it: the kind's, whose `type` also takes the discontinued type names,
 * outside the configuration vocabulary, to refuse them with their own code (422 `monitor_type_discontinued`
 * on create, `type_immutable` on update) rather than as an unknown value.
 */
export function monitorBody(operation: "create" | "update"): z.ZodObject {
  const type = field(
    z.enum([...monitorTypeVocabulary, ...discontinued] as [string, ...string[]]),
    traitsOf(monitorSchema.shape.type),
  );
  return bodySchema(monitorSchema, operation).extend({ type: type.optional() });
}

/** Resolves `type` on create: aliases map to their type, discontinued types are refused. */
export function resolveType(value: string | undefined): MonitorType {
  if (value === undefined) throw required("/type", "type is required");
  const code = discontinuedCode(monitorKind, value);
  if (code) {
    throw new ApiProblem(code, `${value} monitors can no longer be created.`, {
      errors: [{ pointer: "/type", value, allowed: Object.keys(monitorKind.variants?.schemas ?? {}) }],
    });
  }
  return (variantOf(monitorKind, { type: value }) ?? value) as MonitorType;
}

/** A type gated by a plan feature the account lacks answers 403 `package_limit` naming the feature. */
export function assertTypeInPlan(ctx: Ctx, type: MonitorType): void {
  const feature = monitorTypes[type].feature;
  const features = entitlements(accountOf(ctx));
  if (feature && features[feature as keyof typeof features] === false) {
    throw new ApiProblem("package_limit", `The plan does not include the ${type} type.`, {
      extra: { feature },
    });
  }
}

/**
 * Checks a create (no `current`) or an update body against the type's rules,
 * the fleet and the plan, and returns the members to store.
 */
export function prepareMonitor(
  ctx: Ctx,
  type: MonitorType,
  body: MonitorBody,
  current?: MonitorDoc,
): PreparedMonitor {
  const info = monitorTypes[type];
  const features = entitlements(accountOf(ctx));
  const warnings: ProblemDetailEntry[] = [];

  assertTypeInPlan(ctx, type);

  // What the type asks of the monitor's members: the monitor kind's own rules, as `vigil validate` runs them.
  const members = body as Record<string, unknown>;
  const unsent = current
    ? undefined
    : variantRequires(monitorKind, { type }).find((m) => members[m] === undefined);
  if (unsent) throw required(`/${unsent}`, `${type} monitors need a ${unsent}`);
  throwRefusals([...urlRefusals({ type, url: body.url }), ...tagRefusals(members)]);
  throwRefusals(attachedRefusals({ type, attached: body.attached }));

  let url = current?.url ?? null;
  let effectiveUrl = current?.effectiveUrl ?? null;
  if (body.url !== undefined) {
    effectiveUrl = checkedAddress(info, body.url);
    url = body.url;
  }
  const settings = resolveSettings(
    ctx,
    type,
    current?.settings ?? {},
    current?.credentialsUpdatedAt ?? {},
    body.settings as Record<string, unknown> | undefined,
    body.attached as Record<string, unknown> | undefined,
  );
  // The monitor kind's own rule, as plans judge it.
  const [missing] = requiredSettingsRefusals({ type, settings: settings.settings });
  if (missing) throw required(missing.pointer, missing.message);

  const locations = resolveLocations(type, body, current, settings.pinnedPools);
  const interval = resolveInterval(ctx, type, body, current, warnings);

  const cronSchedule = resolveCronSchedule(ctx, type, body, current);
  const recheck = resolveRecheck(type, body, current, warnings);

  if (body.fullLog === true && !features.fullLog) {
    throw new ApiProblem("package_limit", "The plan has no full log.", { extra: { feature: "fullLog" } });
  }
  let tags = body.tags ?? current?.tags ?? [];
  if (body.addTags) tags = [...tags, ...body.addTags];
  if (body.removeTags) tags = tags.filter((t) => !body.removeTags!.includes(t));

  if (effectiveUrl !== null) assertUnique(ctx, type, effectiveUrl, current?.id);

  return {
    fields: {
      type,
      url,
      effectiveUrl,
      // Unsent (or null) stays null, so the name read back follows the address.
      name: body.name !== undefined ? body.name : (current?.name ?? null),
      interval,
      cronSchedule,
      enabled: body.enabled ?? current?.enabled ?? monitorDefaults.enabled,
      tags: [...new Set(tags)],
      locations,
      recheck,
      openStat: body.openStat ?? current?.openStat ?? monitorDefaults.openStat,
      fullLog: body.fullLog ?? current?.fullLog ?? monitorDefaults.fullLog,
      slaTarget: body.slaTarget !== undefined ? body.slaTarget : (current?.slaTarget ?? null),
      settings: settings.settings,
      credentialsUpdatedAt: settings.credentialsUpdatedAt,
    },
    warnings,
  };
}

/** A cron schedule replaces the interval where the type's cadence is not fixed and the plan has cron. */
function resolveCronSchedule(
  ctx: Ctx,
  type: MonitorType,
  body: MonitorBody,
  current: MonitorDoc | undefined,
): MonitorDoc["cronSchedule"] {
  if (body.cronSchedule === undefined) return current?.cronSchedule ?? null;
  if (body.cronSchedule !== null) {
    if (monitorTypes[type].fixedInterval !== null)
      throw notAllowed("/cronSchedule", `${type} monitors run on a fixed cadence`);
    if (!entitlements(accountOf(ctx)).cron)
      throw new ApiProblem("package_limit", "The plan has no cron schedules.", {
        extra: { feature: "cron" },
      });
    const problem = cronProblem(body.cronSchedule);
    if (problem)
      throw invalid([
        { pointer: "/cronSchedule", value: body.cronSchedule, reason: "invalid_cron", message: problem },
      ]);
  }
  return body.cronSchedule;
}

/** Members merge into the stored recheck; a null minNumDown clears it. A type that confirms its own way warns. */
function resolveRecheck(
  type: MonitorType,
  body: MonitorBody,
  current: MonitorDoc | undefined,
  warnings: ProblemDetailEntry[],
): MonitorDoc["recheck"] {
  const recheck = current?.recheck ?? null;
  if (body.recheck === undefined) return recheck;
  const { strategy, minNumDown } = { strategy: monitorDefaults.strategy, ...recheck, ...body.recheck };
  throwRefusals(recheckRefusals({ type, recheck: { strategy, minNumDown } }));
  if (!monitorTypes[type].recheck) {
    warnings.push({
      pointer: "/recheck",
      reason: "no_effect",
      message: `${type} monitors confirm failures their own way; recheck is kept but has no effect`,
    });
  }
  return minNumDown == null ? { strategy } : { strategy, minNumDown };
}

function resolveLocations(
  type: MonitorType,
  body: MonitorBody,
  current: MonitorDoc | undefined,
  pinned?: string[],
) {
  if (monitorTypes[type].locations !== "required") {
    throwRefusals(locationRefusals({ type, locations: body.locations }));
    return null;
  }
  const merged = {
    pools: [] as string[],
    fallback: monitorDefaults.fallback as string | null,
    excludedAgents: [] as string[],
    ...current?.locations,
  };
  if (body.locations) {
    for (const [member, value] of Object.entries(body.locations)) {
      if (value !== undefined) (merged as Record<string, unknown>)[member] = value;
    }
  }
  if (pinned) {
    const sent = body.locations?.pools?.map((p) => p.toLowerCase());
    if (sent && (sent.length !== pinned.length || sent.some((p) => !pinned.includes(p)))) {
      throw invalid([
        {
          pointer: "/locations/pools",
          value: body.locations!.pools,
          allowed: [pinned],
          reason: "pinned_by_preset",
          message: "settings.preset pins the pools; send them as pinned or clear the preset",
        },
      ]);
    }
    merged.pools = pinned;
  }
  throwRefusals(locationRefusals({ type, locations: merged }));
  merged.pools = resolvePools(merged.pools, "/locations/pools");
  const agentIds = new Set(agents.map((a) => a.id));
  const strangers = merged.excludedAgents
    .map((id, i) => ({ id, i }))
    .filter(({ id }) => !agentIds.has(id))
    .map(({ id, i }) => ({
      pointer: `/locations/excludedAgents/${i}`,
      value: id,
      reason: "not_found",
      message: "no such location",
    }));
  if (strangers.length > 0) throw invalid(strangers);
  merged.excludedAgents = [...new Set(merged.excludedAgents)];
  const fleet = monitorTypes[type].fleet ?? "net";
  const reached = agentsFor(merged.pools, fleet, merged.excludedAgents);
  if (reached.length < minLiveAgents) {
    throw new ApiProblem(
      "insufficient_agents",
      `The pools reach ${reached.length} live locations; ${minLiveAgents} are required.`,
      {
        extra: {
          required: minLiveAgents,
          matched: reached.length,
          pools: merged.pools.map((id) => ({
            id,
            live: agentsFor([id], fleet, merged.excludedAgents).length,
            children: pools.find((p) => p.id === id)?.children ?? [],
          })),
        },
        errors: [
          {
            pointer: "/locations/pools",
            value: merged.pools,
            required: minLiveAgents,
            matched: reached.length,
          },
        ],
      },
    );
  }
  return merged;
}

/** The rules' view of the caller's account: its plan's intervals and its entitlements. */
export function accountView(ctx: Ctx): AccountView {
  const plan = plans[accountOf(ctx).plan];
  return {
    intervals: plan.limits.intervals,
    maxInlineContacts: plan.limits.maxInlineContacts,
    features: entitlements(accountOf(ctx)),
    usage: {},
  };
}

/** Judged by the monitor kind's own interval rule (`kinds/monitor/account-rules.ts`), as plans judge it. */
function resolveInterval(
  ctx: Ctx,
  type: MonitorType,
  body: MonitorBody,
  current: MonitorDoc | undefined,
  warnings: ProblemDetailEntry[],
) {
  const info = monitorTypes[type];
  const [refusal] = intervalRefusals({ type, interval: body.interval }, accountView(ctx), {
    creating: !current,
    ...(current && { live: { interval: current.interval } }),
  });
  if (info.fixedInterval !== null) {
    if (refusal?.warning) {
      warnings.push({
        pointer: "/interval",
        value: body.interval,
        reason: "ignored",
        message: `${type} monitors run every ${info.fixedInterval} seconds; interval is ignored`,
      });
    }
    return info.fixedInterval;
  }
  const allowed = plans[accountOf(ctx).plan].limits.intervals;
  const interval = body.interval ?? current?.interval;
  if (refusal?.code === "interval_below_type_floor") {
    throw new ApiProblem(
      "interval_below_type_floor",
      `${type} monitors run at most every ${info.minInterval} seconds.`,
      {
        errors: [{ pointer: "/interval", value: refusal.value, minimum: info.minInterval }],
        extra: { minInterval: info.minInterval },
      },
    );
  }
  if (refusal) {
    const detail =
      refusal.code === "package_interval_conflict"
        ? `The plan no longer offers the monitor's ${String(refusal.value)}-second interval; send one it offers.`
        : `${String(refusal.value)} seconds is not one of the account's intervals.`;
    throw new ApiProblem(refusal.code, detail, {
      errors: [{ pointer: "/interval", value: refusal.value, allowed }],
    });
  }
  if (interval === undefined) {
    // The default, or the plan's nearest interval the type can run at.
    const floor = Math.max(monitorDefaults.interval, info.minInterval);
    return allowed.find((i) => i >= floor) ?? allowed.at(-1)!;
  }
  return interval;
}

/** A monitor is unique per (address, type): a second one answers 409 naming the first. */
function assertUnique(ctx: Ctx, type: MonitorType, effectiveUrl: string, selfId?: string) {
  const existing = ctx.store
    .all<MonitorDoc>(monitorCollection, ctx.account!.id)
    .find((m) => m.type === type && m.effectiveUrl === effectiveUrl && m.id !== selfId);
  if (existing) {
    throw new ApiProblem("duplicate_monitor", `A monitor of type ${type} for ${effectiveUrl} exists.`, {
      extra: { existingId: existing.id },
      errors: [{ pointer: "/url", value: effectiveUrl, existingId: existing.id }],
    });
  }
}
