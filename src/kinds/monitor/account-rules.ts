/**
 * A monitor's rules against the account: intervals, plan features, pools, inline contacts and counts.
 * Declared on the monitor kind (`monitorKind.rules`); the sandbox's monitor validation calls the same
 * functions, so what a plan predicts is what the service answers.
 */
import {
  type AccountRule,
  type AccountView,
  type KindRules,
  type Members,
  offers,
  packageLimit,
  type Refusal,
  type RuleContext,
  type TypeLimits,
} from "../account-rules.ts";
import { contactTypeRefusals, inlineContactRefusals } from "../contact.ts";
import {
  attachedRefusals,
  locationRefusals,
  recheckRefusals,
  tagRefusals,
  urlFormRefusals,
  urlRefusals,
} from "./type-rules.ts";
import { type MonitorType, monitorTypeAliases, monitorTypes } from "./types.ts";

const isObject = (v: unknown): v is Members => typeof v === "object" && v !== null && !Array.isArray(v);

const canonicalType = (type: unknown): string =>
  typeof type === "string"
    ? Object.hasOwn(monitorTypeAliases, type)
      ? monitorTypeAliases[type]!
      : type
    : "";

/** The catalogue row of a type: the account's when read, else the built-in catalogue. */
function typeLimits(account: AccountView | undefined, type: string): TypeLimits | undefined {
  const read = account?.types?.get(type);
  if (read) return read;
  return Object.hasOwn(monitorTypes, type) ? monitorTypes[type as MonitorType] : undefined;
}

/** A type the plan gates by a yes/no feature (counts, such as `tranCount`, are quotas). */
export const typeFeatureRule: AccountRule = (m, account) => {
  const type = canonicalType(m.type);
  const feature = typeLimits(account, type)?.feature;
  if (!feature || account.features[feature] !== false) return [];
  return [packageLimit(feature, "/type", `the plan does not include ${type} monitors`)];
};

/**
 * The interval: one of the account's, at or above the type's floor. A fixed-cadence type ignores it: the
 * API accepts the write and stores its own cadence, so that is a warning naming the value stored.
 */
export function intervalRefusals(m: Members, account: AccountView, context: RuleContext): Refusal[] {
  const type = canonicalType(m.type);
  const info = typeLimits(account, type);
  if (!info) return [];
  const interval = m.interval;
  if (info.fixedInterval !== null) {
    if (typeof interval === "number" && interval !== info.fixedInterval)
      return [
        {
          code: "invalid_interval",
          warning: true,
          pointer: "/interval",
          value: interval,
          allowed: [info.fixedInterval],
          message: `interval ${interval} is ignored: ${type} monitors run every ${info.fixedInterval} seconds, and the API stores ${info.fixedInterval} (remove interval, or write ${info.fixedInterval})`,
        },
      ];
    return [];
  }
  const allowed = account.intervals;
  const stored = context.live?.interval;
  if (typeof interval !== "number") {
    // An update that leaves the interval as stored: the service refuses it once the plan stopped offering it.
    if (!context.creating && typeof stored === "number" && !allowed.includes(stored))
      return [conflict(stored, allowed)];
    return [];
  }
  if (!allowed.includes(interval)) {
    if (!context.creating && interval === stored) return [conflict(interval, allowed)];
    return [
      {
        code: "invalid_interval",
        pointer: "/interval",
        value: interval,
        allowed,
        message: `${interval} seconds is not one of the account's intervals`,
      },
    ];
  }
  if (interval < info.minInterval)
    return [
      {
        code: "interval_below_type_floor",
        pointer: "/interval",
        value: interval,
        allowed: allowed.filter((i) => i >= info.minInterval),
        message: `${type} monitors run at most every ${info.minInterval} seconds`,
      },
    ];
  return [];
}

const conflict = (interval: number, allowed: readonly number[]): Refusal => ({
  code: "package_interval_conflict",
  pointer: "/interval",
  value: interval,
  allowed,
  message: `the plan no longer offers the monitor's ${interval}-second interval; write one it offers`,
});

/** `cronSchedule` needs a cadence the type lets the account choose, and the plan's `cron` feature. */
export const cronRule: AccountRule = (m, account) => {
  if (m.cronSchedule == null) return [];
  const type = canonicalType(m.type);
  if (typeLimits(account, type)?.fixedInterval != null)
    return [
      {
        code: "validation_failed",
        pointer: "/cronSchedule",
        reason: "not_allowed",
        message: `${type} monitors run on a fixed cadence`,
      },
    ];
  if (!offers(account.features, "cron"))
    return [packageLimit("cron", "/cronSchedule", "the plan has no cron schedules")];
  return [];
};

export const fullLogRule: AccountRule = (m, account) =>
  m.fullLog === true && !offers(account.features, "fullLog")
    ? [packageLimit("fullLog", "/fullLog", "the plan has no full log")]
    : [];

/**
 * `attached` and `settings.attached` are one member spelled twice (the spec: "Same as `settings.attached`"),
 * and the spec does not say which wins when a write holds both: a config writes one of them. Written twice,
 * a sub-check could say on in one and off in the other, and whichever the service keeps, the other would be
 * a change in every plan. A config rule only: the sandbox, like the service, takes what a request sends.
 */
export function attachedAliasRefusals(m: Members): Refusal[] {
  if (m.attached === undefined || !isObject(m.settings) || m.settings.attached === undefined) return [];
  return [
    {
      code: "validation_failed",
      pointer: "/attached",
      reason: "mutually_exclusive",
      message:
        "attached is the same member as settings.attached (an alias of it); write the sub-checks in one of them, settings.attached (where the service reads them back), not both",
    },
  ];
}

/** `settings.attached`, with the top-level `attached` alias merged in, as `{kind: {enabled}}`. */
export function attachedOf(m: Members, settings: Members = isObject(m.settings) ? m.settings : {}): Members {
  const toggles: Members = {};
  for (const source of [settings.attached, m.attached]) {
    if (!isObject(source)) continue;
    for (const [k, v] of Object.entries(source)) toggles[k] = isObject(v) ? v : { enabled: v };
  }
  return toggles;
}

/** Settings members that are plan features (403 `package_limit` naming the feature). */
export function settingsFeatureRefusals(
  settings: Members,
  features: AccountView["features"],
  attached: Members = isObject(settings.attached) ? settings.attached : {},
): Refusal[] {
  const out: Refusal[] = [];
  const without = (feature: string) => !offers(features, feature);
  if (Array.isArray(settings.dns) && settings.dns.length > 0 && without("dnsManual"))
    out.push(packageLimit("dnsManual", "/settings/dns", "the plan has no own DNS resolvers"));
  if (typeof settings.publicDns === "number" && settings.publicDns !== 0 && without("dnsPublic"))
    out.push(packageLimit("dnsPublic", "/settings/publicDns", "the plan has no public DNS option"));
  for (const member of ["requireValidChain", "requireStrongTls", "blockWeakCiphers"]) {
    if (settings[member] === true && without("sslPolicy"))
      out.push(packageLimit("sslPolicy", `/settings/${member}`, "the plan has no SSL policy options"));
  }
  if (settings.checkRevocation === true && without("certRevocation"))
    out.push(
      packageLimit("certRevocation", "/settings/checkRevocation", "the plan has no revocation checks"),
    );
  const asserts = Array.isArray(settings.asserts) ? settings.asserts.length : 0;
  const allowedAsserts = typeof features.assertions === "number" ? features.assertions : undefined;
  if ((settings.assertMode === true || asserts > 0) && allowedAsserts === 0) {
    const pointer = settings.assertMode === true ? "/settings/assertMode" : "/settings/asserts";
    out.push(packageLimit("assertions", pointer, "the plan has no assertions", 0));
  } else if (allowedAsserts !== undefined && asserts > allowedAsserts)
    out.push(
      packageLimit(
        "assertions",
        "/settings/asserts",
        `the plan allows ${allowedAsserts} assertion rules`,
        allowedAsserts,
      ),
    );
  if (Object.values(attached).some((t) => isObject(t) && t.enabled === true) && without("attachedChecks"))
    out.push(packageLimit("attachedChecks", "/settings/attached", "the plan has no attached sub-checks"));
  return out;
}

export const settingsFeatureRule: AccountRule = (m, account) => {
  const settings = isObject(m.settings) ? m.settings : {};
  // assertsSource is parsed into rules by the service: a written one holds at least one.
  const source = typeof settings.assertsSource === "string" ? settings.assertsSource.trim() : "";
  const counted =
    source !== "" && settings.asserts === undefined ? { ...settings, asserts: [source] } : settings;
  return settingsFeatureRefusals(counted, account.features, attachedOf(m, settings));
};

/** Pools the service knows, and enough live locations among them (a preset pins its own). */
export const poolRule: AccountRule = (m, account) => {
  const pools = isObject(m.locations) ? m.locations.pools : undefined;
  if (!account.pools || !Array.isArray(pools) || (isObject(m.settings) && m.settings.preset != null))
    return [];
  const known = new Map(account.pools.map((p) => [p.id.toLowerCase(), p]));
  const allowed = account.pools.map((p) => p.id);
  const unknown: Refusal[] = [];
  pools.forEach((p, i) => {
    if (typeof p === "string" && !known.has(p.toLowerCase()))
      unknown.push({
        code: "unknown_pool",
        pointer: `/locations/pools/${i}`,
        value: p,
        allowed,
        message: `${JSON.stringify(p)} is not a location pool`,
      });
  });
  if (unknown.length > 0 || account.minAgents === undefined) return unknown;
  // Pools overlap (a region holds its countries), so the sum of their counts bounds what they reach:
  // below the minimum, the service refuses for certain.
  const fleet = typeLimits(account, canonicalType(m.type))?.fleet ?? "net";
  const reach = [...new Set(pools.map((p) => String(p).toLowerCase()))].reduce(
    (n, id) => n + (known.get(id)?.agents[fleet] ?? 0),
    0,
  );
  if (reach >= account.minAgents) return [];
  return [
    {
      code: "insufficient_agents",
      pointer: "/locations/pools",
      value: pools,
      message: `the pools reach at most ${reach} live locations; ${account.minAgents} are required (add pools, or use allworld)`,
    },
  ];
};

/** Inline contacts: at most `limits.maxInlineContacts`, of types the API can create. */
export const inlineContactsRule: AccountRule = (m, account, context) => {
  if (!context.creating || !Array.isArray(m.contacts)) return [];
  const out: Refusal[] = [];
  if (m.contacts.length > account.maxInlineContacts)
    out.push({
      code: "too_many_items",
      pointer: "/contacts",
      value: m.contacts.length,
      limit: account.maxInlineContacts,
      allowed: [`at most ${account.maxInlineContacts}`],
      message: `${m.contacts.length} inline contacts; the account allows ${account.maxInlineContacts}`,
    });
  m.contacts.forEach((c, i) => {
    if (isObject(c) && typeof c.type === "string")
      out.push(...contactTypeRefusals(c.type, account, `/contacts/${i}`));
  });
  return out;
};

/** An interval is a positive number of seconds whatever the account: judged offline. */
function offlineInterval(m: Members): Refusal[] {
  if (typeof m.interval !== "number" || m.interval > 0) return [];
  return [
    {
      code: "invalid_interval",
      pointer: "/interval",
      value: m.interval,
      message: `${m.interval} is not an interval: an interval is a positive number of seconds, one of the account's limits.intervals (a plan lists them)`,
    },
  ];
}

/** Settings members the type needs on create (`monitorTypes[type].requiredSettings`). */
export function requiredSettingsRefusals(m: Members): Refusal[] {
  const type = canonicalType(m.type);
  const required = Object.hasOwn(monitorTypes, type)
    ? monitorTypes[type as MonitorType].requiredSettings
    : [];
  const settings = isObject(m.settings) ? m.settings : {};
  return (required ?? [])
    .filter((member) => settings[member] === undefined)
    .map((member) => ({
      code: "validation_failed",
      pointer: `/settings/${member}`,
      reason: "required",
      message: `${type} monitors need settings.${member}`,
    }));
}

/** The pools each `settings.preset` pins: sent pools must be those (or none). */
export const presetPools: Readonly<Record<string, readonly string[]>> = { "bl:ru": ["easteurope", "asia"] };

/** Pools sent beside a preset are the ones it pins. */
export function presetPoolRefusals(m: Members): Refusal[] {
  const preset = isObject(m.settings) ? m.settings.preset : undefined;
  const pinned =
    typeof preset === "string" && Object.hasOwn(presetPools, preset) ? presetPools[preset]! : undefined;
  const sent = isObject(m.locations) && Array.isArray(m.locations.pools) ? m.locations.pools : undefined;
  if (!pinned || !sent) return [];
  const lower = sent.map((p) => String(p).toLowerCase());
  if (lower.length === pinned.length && lower.every((p) => pinned.includes(p))) return [];
  return [
    {
      code: "validation_failed",
      pointer: "/locations/pools",
      reason: "pinned_by_preset",
      value: sent,
      allowed: [pinned],
      message: "settings.preset pins the pools; write them as pinned, or leave them out",
    },
  ];
}

/** Counts toward the monitor quota: enabled, and not created disabled when the plan has no room. */
const takesRoom = (m: Members) => m.enabled !== false && m.onOverlimit !== "disable";

export const monitorRules: KindRules = {
  offline: [
    offlineInterval,
    requiredSettingsRefusals,
    presetPoolRefusals,
    urlRefusals,
    urlFormRefusals,
    locationRefusals,
    recheckRefusals,
    attachedRefusals,
    attachedAliasRefusals,
    tagRefusals,
    inlineContactRefusals,
  ],
  account: [
    typeFeatureRule,
    intervalRefusals,
    cronRule,
    fullLogRule,
    settingsFeatureRule,
    poolRule,
    inlineContactsRule,
  ],
  quotas: [
    { feature: "monitors", usage: "monitors", counts: takesRoom, describe: "enabled monitors" },
    { feature: "tranCount", counts: (m) => canonicalType(m.type) === "tran", describe: "tran monitors" },
  ],
  reads: ["monitorTypes", "agentPools"],
  duplicate: "duplicate_monitor",
};
