/**
 * A monitor's cross-member rules that its type decides: which members a type takes, and how `recheck` and
 * `tags` combine. They need only the monitor's own members, so `vigil validate` runs them (the monitor
 * kind's `rules.offline`), and the sandbox's monitor validation calls the same functions on a request.
 */
import type { Members, Refusal } from "../account-rules.ts";
import { monitorAddress } from "./address.ts";
import {
  type MonitorType,
  type MonitorTypeInfo,
  monitorTypeAliases,
  monitorTypes,
  recheckRefusedTypes,
} from "./types.ts";

const isObject = (v: unknown): v is Members => typeof v === "object" && v !== null && !Array.isArray(v);

/** The type's catalogue row and canonical name, or undefined for a type outside the catalogue. */
function typeOf(m: Members): { type: MonitorType; info: MonitorTypeInfo } | undefined {
  if (typeof m.type !== "string") return undefined;
  const type = (
    Object.hasOwn(monitorTypeAliases, m.type) ? monitorTypeAliases[m.type] : m.type
  ) as MonitorType;
  return Object.hasOwn(monitorTypes, type) ? { type, info: monitorTypes[type] } : undefined;
}

const refusal = (
  pointer: string,
  reason: string,
  message: string,
  extra: Partial<Refusal> = {},
): Refusal => ({
  code: "validation_failed",
  pointer,
  reason,
  message,
  ...extra,
});

/** Members a create of the type must carry besides `type`: an address, unless the type has none. */
export const membersRequiredBy = (type: string): readonly string[] =>
  Object.hasOwn(monitorTypes, type) && monitorTypes[type as MonitorType].url !== "none" ? ["url"] : [];

/** An address only where the type has one (database, snmp and counter probes have none). */
export function urlRefusals(m: Members): Refusal[] {
  const known = typeOf(m);
  if (known?.info.url !== "none" || m.url === undefined) return [];
  return [refusal("/url", "not_allowed", `${known.type} monitors take no url`, { value: m.url })];
}

/** The url in the form the type takes (`monitorAddress`): 422 `invalid_url`, as the API refuses it. */
export function urlFormRefusals(m: Members): Refusal[] {
  const known = typeOf(m);
  if (!known || known.info.url === "none" || typeof m.url !== "string") return [];
  const check = monitorAddress(known.info, m.url);
  if (!("refused" in check)) return [];
  const { reason, expected } = check.refused;
  return [
    {
      code: "invalid_url",
      pointer: "/url",
      reason,
      value: m.url,
      expected,
      message: `url must be ${expected}`,
    },
  ];
}

/**
 * Location-based types run from at least one pool (a preset pins its own); the others take no locations.
 * `locations` is the monitor's as it will be stored (on an update, the stored one with the request's).
 */
export function locationRefusals(m: Members): Refusal[] {
  const known = typeOf(m);
  if (!known) return [];
  const { type, info } = known;
  if (info.locations !== "required")
    return m.locations === undefined
      ? []
      : [refusal("/locations", "not_allowed", `${type} monitors take no locations`)];
  const pools = isObject(m.locations) && Array.isArray(m.locations.pools) ? m.locations.pools : [];
  if (pools.length > 0 || (isObject(m.settings) && m.settings.preset != null)) return [];
  return [
    refusal(
      "/locations/pools",
      "required",
      `locations.pools is required: ${type} monitors run from at least one pool (allworld: every location)`,
    ),
  ];
}

/** A type that refuses `recheck` outright, and a `minNumDown` strategy without its count. */
export function recheckRefusals(m: Members): Refusal[] {
  const known = typeOf(m);
  if (!isObject(m.recheck)) return [];
  if (known && recheckRefusedTypes.includes(known.type))
    return [refusal("/recheck", "not_allowed", `${known.type} monitors take no recheck`)];
  if (m.recheck.strategy === "minNumDown" && m.recheck.minNumDown == null)
    return [refusal("/recheck/minNumDown", "required", "the minNumDown strategy needs minNumDown")];
  return [];
}

/**
 * Attached sub-checks only of the kinds the type carries, whether written in `settings.attached` or in the
 * top-level `attached` alias (pointed at where they were written).
 */
export function attachedRefusals(m: Members): Refusal[] {
  const known = typeOf(m);
  if (!known) return [];
  const { type, info } = known;
  const alias = isObject(m.attached) ? m.attached : undefined;
  if (m.attached !== undefined && info.attached.length === 0)
    return [refusal("/attached", "not_allowed", `${type} monitors carry no attached checks`)];
  const inSettings = isObject(m.settings) && isObject(m.settings.attached) ? m.settings.attached : {};
  const allowed: readonly string[] = info.attached;
  return [...new Set([...Object.keys(inSettings), ...Object.keys(alias ?? {})])]
    .filter((kind) => !allowed.includes(kind))
    .map((kind) =>
      refusal(
        alias && Object.hasOwn(alias, kind) ? `/attached/${kind}` : `/settings/attached/${kind}`,
        "not_allowed",
        `${type} monitors do not carry an attached ${kind} check`,
        { allowed: [...allowed] },
      ),
    );
}

/** The whole tag set, or changes to it: not both. */
export function tagRefusals(m: Members): Refusal[] {
  if (m.tags === undefined || (m.addTags === undefined && m.removeTags === undefined)) return [];
  return [refusal("/tags", "mutually_exclusive", "send tags, or addTags/removeTags, not both")];
}
