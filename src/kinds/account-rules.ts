/**
 * What an account allows, and the rules a write is judged by against it. The rules are pure functions,
 * declared on each kind (`KindDefinition.rules`): the sandbox evaluates them against its own account, the
 * engine against what `GET /account`, the type catalogue and the pool list answered. Both run the same code,
 * so a plan can never accept what the service refuses for a reason the account states.
 */
import { type ProblemCodeName, problemCodes } from "./problems.ts";

/** The type catalogue row as rules read it (`GET /monitor/type`). */
export interface TypeLimits {
  minInterval: number;
  fixedInterval: number | null;
  feature: string | null;
  fleet?: string | null;
}

/** One location pool (`GET /agent/pool`): live locations per fleet. */
export interface PoolInfo {
  id: string;
  agents: Readonly<Record<string, number>>;
}

/** What the account allows, as `GET /account` (plus the catalogue and pools, when read) answer it. */
export interface AccountView {
  intervals: readonly number[];
  maxInlineContacts: number;
  /** `package.features`: booleans gate a feature, numbers cap a count, lists name what is offered. */
  features: Readonly<Record<string, unknown>>;
  /** `usage`: per area, what is used and what the plan allows (null: no cap). */
  usage: Readonly<Record<string, { used: number; allowed: number | null }>>;
  types?: ReadonlyMap<string, TypeLimits>;
  pools?: readonly PoolInfo[];
  /** Live locations a selection of pools must reach (`summary.minAgents`). */
  minAgents?: number;
}

/** One predicted refusal: the API's own code and `errors[]` members, at a pointer into the resource. */
export interface Refusal {
  code: ProblemCodeName;
  /** JSON pointer into the resource's members. */
  pointer: string;
  message: string;
  /** The entry's `reason`, where the API gives one. */
  reason?: string;
  value?: unknown;
  /** What would be accepted instead (`allowed` of the API's entry). */
  allowed?: readonly unknown[];
  /** The plan feature a 403 `package_limit` names. */
  feature?: string;
  limit?: number;
  /** The API accepts the write but stores something other than what was written. */
  warning?: true;
}

export type Members = Record<string, unknown>;

export interface RuleContext {
  /** The write creates the object (quotas, create-only checks). */
  creating: boolean;
  /** The live object an update starts from, as comparable members. */
  live?: Members;
  /**
   * The members of the object a reference member names (`contactId` → the contact): the configuration's
   * object, or the live one; undefined when neither is known (Terraform and Pulumi judge one resource alone).
   */
  referenced?: (member: string) => Members | undefined;
}

/** A rule that needs only the resource's own members (runs in `vigil validate`). */
export type OfflineRule = (members: Members) => Refusal[];
/** A rule that needs what the account allows (runs in every plan, before any write). */
export type AccountRule = (members: Members, account: AccountView, context: RuleContext) => Refusal[];

/**
 * A count the plan caps: creating an object that `counts` takes room; `usage` names the `GET /account`
 * usage area when there is one (else the live objects of the kind are counted).
 */
export interface Quota {
  feature: string;
  usage?: string;
  counts: (members: Members) => boolean;
  describe: string;
}

export interface KindRules {
  offline?: readonly OfflineRule[];
  account?: readonly AccountRule[];
  quotas?: readonly Quota[];
  /** Catalogues the account rules read besides `GET /account`: each is read once per run, only when needed. */
  reads?: readonly ("monitorTypes" | "agentPools")[];
  /** Two objects with the same natural key are refused with this code (409). */
  duplicate?: ProblemCodeName;
}

export const statusOf = (code: ProblemCodeName): number => problemCodes[code].status;

/** A feature is offered unless the plan says `false` or a count of 0. */
export function offers(features: AccountView["features"], feature: string): boolean {
  const value = features[feature];
  return value !== false && value !== 0;
}

export function packageLimit(feature: string, pointer: string, message: string, limit?: number): Refusal {
  return { code: "package_limit", pointer, feature, message, ...(limit !== undefined && { limit }) };
}

/** The cap a quota's feature sets: a number, or none. */
export function quotaLimit(account: AccountView, quota: Quota): number | undefined {
  const fromUsage = quota.usage ? account.usage[quota.usage]?.allowed : undefined;
  if (typeof fromUsage === "number") return fromUsage;
  const feature = account.features[quota.feature];
  return typeof feature === "number" ? feature : undefined;
}

/** A maintenance-style window: `to` after `from`, and a weekly one at most 7 days long. */
export function windowRefusals(w: Members): Refusal[] {
  const { from, to, repeat } = w;
  if (typeof from !== "number" || typeof to !== "number") return [];
  if (to <= from)
    return [
      {
        code: "validation_failed",
        pointer: "/to",
        reason: "not_after_from",
        value: to,
        message: "to must be after from",
      },
    ];
  const week = 7 * 86400;
  if (repeat === "weekly" && to - from > week)
    return [
      {
        code: "validation_failed",
        pointer: "/to",
        reason: "out_of_range",
        value: to,
        allowed: [`at most ${from + week} (from + 7 days)`],
        message: "a weekly window lasts at most 7 days",
      },
    ];
  return [];
}
