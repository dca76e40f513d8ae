import { z } from "zod";
import {
  type AccountView,
  bodySchema,
  discontinuedMonitorTypes,
  field,
  intervalRefusals,
  isDiscontinuedMonitorType,
  type MonitorBody,
  type MonitorType,
  monitorSchema,
  monitorTypeAliases,
  monitorTypes,
  monitorTypeVocabulary,
  type ProblemDetailEntry,
  recheckRefusedTypes,
  requiredSettingsRefusals,
  traitsOf,
} from "../../../kinds/index.ts";
import { cronProblem } from "../../../kinds/monitor/cron.ts";
import { agents, agentsFor, minLiveAgents, pools, resolvePools } from "../../core/fleet.ts";
import type { Ctx } from "../../core/operation.ts";
import { own } from "../../core/own.ts";
import { plans } from "../../core/plans.ts";
import { ApiProblem, invalid } from "../../core/problem.ts";
import { accountOf, entitlements } from "../accounts.ts";
import { effectiveAddress } from "./address.ts";
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

/**
 * A monitor body as the API takes it: the kind's, whose `type` also takes the discontinued type names,
 * outside the configuration vocabulary, to refuse them with their own code (422 `monitor_type_discontinued`
 * on create, `type_immutable` on update) rather than as an unknown value.
 */
export function monitorBody(operation: "create" | "update"): z.ZodObject {
  const type = field(
    z.enum([...monitorTypeVocabulary, ...discontinuedMonitorTypes]),
    traitsOf(monitorSchema.shape.type),
  );
  return bodySchema(monitorSchema, operation).extend({ type: type.optional() });
}

/** Resolves `type` on create: aliases map to their type, discontinued types are refused. */
export function resolveType(value: string | undefined): MonitorType {
  if (value === undefined) throw required("/type", "type is required");
  if (isDiscontinuedMonitorType(value)) {
    throw new ApiProblem("monitor_type_discontinued", `${value} monitors can no longer be created.`, {
      errors: [{ pointer: "/type", value, allowed: Object.keys(monitorTypes) }],
    });
  }
  return own(monitorTypeAliases, value) ?? (value as MonitorType);
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

  let url = current?.url ?? null;
  let effectiveUrl = current?.effectiveUrl ?? null;
  if (body.url !== undefined) {
    effectiveUrl = effectiveAddress(info, body.url);
    url = body.url;
  } else if (!current && info.url !== "none") throw required("/url", `${type} monitors need a url`);

  if (body.attached !== undefined && info.attached.length === 0) {
    throw notAllowed("/attached", `${type} monitors carry no attached checks`);
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

  let cronSchedule = current?.cronSchedule ?? null;
  if (body.cronSchedule !== undefined) {
    if (body.cronSchedule !== null) {
      if (info.fixedInterval !== null)
        throw notAllowed("/cronSchedule", `${type} monitors run on a fixed cadence`);
      if (!features.cron)
        throw new ApiProblem("package_limit", "The plan has no cron schedules.", {
          extra: { feature: "cron" },
        });
      const problem = cronProblem(body.cronSchedule);
      if (problem)
        throw invalid([
          { pointer: "/cronSchedule", value: body.cronSchedule, reason: "invalid_cron", message: problem },
        ]);
    }
    cronSchedule = body.cronSchedule;
  }

  let recheck = current?.recheck ?? null;
  if (body.recheck !== undefined) {
    if (recheckRefusedTypes.includes(type)) throw notAllowed("/recheck", `${type} monitors take no recheck`);
    if (!info.recheck) {
      warnings.push({
        pointer: "/recheck",
        reason: "no_effect",
        message: `${type} monitors confirm failures their own way; recheck is kept but has no effect`,
      });
    }
    // Members merge into the stored recheck; a null minNumDown clears it.
    const { strategy, minNumDown } = { strategy: monitorDefaults.strategy, ...recheck, ...body.recheck };
    if (strategy === "minNumDown" && minNumDown == null) {
      throw required("/recheck/minNumDown", "the minNumDown strategy needs minNumDown");
    }
    recheck = minNumDown == null ? { strategy } : { strategy, minNumDown };
  }

  if (body.fullLog === true && !features.fullLog) {
    throw new ApiProblem("package_limit", "The plan has no full log.", { extra: { feature: "fullLog" } });
  }
  if (body.tags !== undefined && (body.addTags !== undefined || body.removeTags !== undefined)) {
    throw invalid([
      {
        pointer: "/tags",
        reason: "mutually_exclusive",
        message: "send tags, or addTags/removeTags, not both",
      },
    ]);
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

function resolveLocations(
  type: MonitorType,
  body: MonitorBody,
  current: MonitorDoc | undefined,
  pinned?: string[],
) {
  const info = monitorTypes[type];
  if (info.locations !== "required") {
    if (body.locations !== undefined) throw notAllowed("/locations", `${type} monitors take no locations`);
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
  if (merged.pools.length === 0)
    throw required("/locations/pools", `${type} monitors need at least one pool`);
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
  const fleet = info.fleet ?? "net";
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
