import {
  discontinuedMonitorTypes,
  type MonitorType,
  monitorTypeAliases,
  monitorTypeNames,
  monitorTypes,
} from "../../../kinds/index.ts";
import { plans } from "../../core/plans.ts";
import { type AccountDoc, entitlements } from "../accounts.ts";

/** What each discontinued type was, and what replaces it (null: nothing does). */
const discontinued: Record<
  (typeof discontinuedMonitorTypes)[number],
  { label: string; replacedBy: string | null }
> = {
  keyword: { label: "Keyword (use http with settings.keywords)", replacedBy: "http" },
  rum: { label: "Real user monitoring", replacedBy: null },
};

/**
 * The account's view of a type: the lowest interval it may actually set
 * (the smallest plan interval at or above the type's floor; the fixed
 * cadence for fixed types) and whether the plan includes the type.
 */
export function accountLimits(type: MonitorType, account: AccountDoc) {
  const info = monitorTypes[type];
  const features: Record<string, unknown> = entitlements(account);
  const planFloor = plans[account.plan].limits.intervals
    .filter((i) => i >= info.minInterval)
    .sort((a, b) => a - b)[0];
  const available = info.feature === null || Boolean(features[info.feature]);
  return {
    minInterval: info.fixedInterval ?? planFloor ?? info.minInterval,
    available,
    cron: info.fixedInterval === null && Boolean(features.cron),
  };
}

export function typeRow(type: MonitorType, account?: AccountDoc): Record<string, unknown> {
  const info = monitorTypes[type];
  const row: Record<string, unknown> = {
    type,
    label: info.label,
    minInterval: info.minInterval,
    fixedInterval: info.fixedInterval,
    requiresPool: info.locations === "required",
    locations: info.locations,
    fleet: monitorTypes[type].fleet,
    url: info.url,
    attached: [...info.attached],
    recheck: info.recheck,
    cron: info.fixedInterval === null,
    feature: info.feature,
    aliases: Object.keys(monitorTypeAliases).filter((alias) => monitorTypeAliases[alias] === type),
    discontinued: false,
  };
  if (account) row.accountLimits = accountLimits(type, account);
  return row;
}

export function discontinuedRow(type: (typeof discontinuedMonitorTypes)[number]) {
  return { type, ...discontinued[type], discontinued: true };
}

export function allTypeRows(account?: AccountDoc) {
  return [
    ...monitorTypeNames.map((type) => typeRow(type, account)),
    ...discontinuedMonitorTypes.map(discontinuedRow),
  ];
}
