import { accountPatchSchema } from "../../kinds/account.ts";
import { type Scope, scopeDescriptions } from "../../kinds/index.ts";
import { resolvePools } from "../core/fleet.ts";
import { newGuid } from "../core/ids.ts";
import type { Account, Ctx } from "../core/operation.ts";
import { defineOperations } from "../core/operation.ts";
import { type PlanName, plans } from "../core/plans.ts";
import { type Pool, poolWindows } from "../core/quota.ts";
import type { Store } from "../core/store.ts";
import { type MonitorDoc, monitorCollection } from "./monitors/model.ts";

/** A sandbox account: the spec's account members plus the sandbox's own knobs. */
export interface AccountDoc extends Account {
  name: string;
  company: string | null;
  phone: string | null;
  country: string | null;
  timezone: string;
  language: string;
  defaultAgentPools: string[];
  flags: { enabled: boolean; active: boolean; overlimited: boolean; apiEnabled: boolean };
  smsBalance: number;
  /** False for accounts created unmetered through `/_sandbox/accounts` (benchmarks, bulk fixtures). */
  metered: boolean;
  /** Overrides of plan counts, for tests that need a small limit. */
  featureOverrides: Record<string, number | boolean>;
  members: Array<{ id: string; login: string; rights: string[] }>;
  /** Delta-sync sequence: bumped by every change a sync cursor must catch. */
  syncSeq: number;
  created: number;
}

export function createAccount(
  store: Store,
  now: number,
  options: {
    plan?: PlanName;
    login?: string;
    metered?: boolean;
    apiEnabled?: boolean;
    featureOverrides?: Record<string, number | boolean>;
  } = {},
): AccountDoc {
  const id = newGuid();
  const plan = options.plan ?? "business";
  return store.put<AccountDoc>("account", {
    id,
    accountId: id,
    login: options.login ?? `sandbox-${id.slice(0, 8)}@example.com`,
    plan,
    name: "Sandbox account",
    company: null,
    phone: null,
    country: null,
    timezone: "UTC",
    language: "en",
    defaultAgentPools: ["allworld"],
    flags: {
      enabled: true,
      active: true,
      overlimited: false,
      apiEnabled: options.apiEnabled ?? plans[plan].features.apiEnabled,
    },
    smsBalance: plans[plan].smsBalance,
    metered: options.metered ?? true,
    featureOverrides: options.featureOverrides ?? {},
    members: [],
    syncSeq: 0,
    created: now,
  });
}

export const accountOf = (ctx: Ctx) => ctx.account as AccountDoc;

/** The plan's entitlements with the account's overrides applied. */
export function entitlements(account: AccountDoc) {
  return {
    ...plans[account.plan].features,
    ...account.featureOverrides,
  } as (typeof plans)[PlanName]["features"];
}

/**
 * Takes the next delta-sync sequence number for a change that sync cursors
 * must catch; control routes name the account, API routes use the caller's.
 */
export function nextSyncSeq(ctx: Ctx, accountId = ctx.account!.id): number {
  const current = ctx.store.get<AccountDoc>("account", accountId)!;
  const seq = current.syncSeq + 1;
  const stored = ctx.store.put<AccountDoc>("account", { ...current, syncSeq: seq });
  if (ctx.account?.id === accountId) ctx.account = stored;
  return seq;
}

function renderAccount(ctx: Ctx) {
  const a = ctx.store.get<AccountDoc>("account", ctx.account!.id)!;
  const features = entitlements(a);
  const monitors = ctx.store.count("monitor", a.id);
  const usage = {
    monitors: { used: monitors, allowed: features.monitors },
    statusPages: { used: ctx.store.count("statusPage", a.id), allowed: features.statusPages },
    webhooks: { used: ctx.store.count("webhook", a.id), allowed: features.webhooks },
    contacts: { used: ctx.store.count("contact", a.id), allowed: null },
    smsBalance: { used: 0, allowed: a.smsBalance },
  };
  // Nothing is deleted over the limit: the monitors the plan has no room for are disabled, and named here.
  const disabled = ctx.store
    .all<MonitorDoc>(monitorCollection, a.id)
    .filter((m) => m.overlimited)
    .map((m) => m.id);
  const overlimits =
    monitors > features.monitors
      ? [{ area: "monitors", used: monitors, allowed: features.monitors, disabled }]
      : [];
  return {
    id: a.id,
    login: a.login,
    name: a.name,
    company: a.company,
    phone: a.phone,
    country: a.country,
    timezone: a.timezone,
    language: a.language,
    defaultAgentPools: a.defaultAgentPools,
    flags: { ...a.flags, overlimited: overlimits.length > 0 },
    package: { name: a.plan, features },
    usage,
    limits: plans[a.plan].limits,
    overlimits,
  };
}

/** One row per window of every scope family and leaf of the pool; none for an unmetered account. */
function quotaRows(ctx: Ctx, pool: Pool) {
  const a = accountOf(ctx);
  if (!a.metered) return [];
  return poolWindows(plans[a.plan], pool).map(({ scope, window: w }) => {
    const u = ctx.services.meter.usage(a.id, scope, w, ctx.now);
    return {
      scope,
      quota: w.quota,
      limit: w.limit,
      used: u.used,
      remaining: u.remaining,
      resetAt: u.resetAt,
      windowSec: w.windowSec,
      successOnly: w.successOnly,
    };
  });
}

export const accountOperations = defineOperations(
  {
    id: "account.get",
    method: "GET",
    path: "/account",
    summary: "Read the account: flags, package, usage, limits and over-limits.",
    scope: "account:read",
    errors: [],
    response: {
      status: 200,
      description: "The account: profile, flags, package and its features, usage, limits and overlimits.",
    },
    handle: (ctx) => ({ status: 200, body: renderAccount(ctx) }),
  },
  {
    id: "account.update",
    method: "PATCH",
    path: "/account",
    summary: "Change account settings.",
    scope: "account:write",
    body: accountPatchSchema,
    errors: ["validation_failed", "unknown_pool"],
    response: { status: 200, description: "The account as changed, as GET /account answers it." },
    handle: (ctx, req) => {
      const body = req.body as Record<string, unknown>;
      const current = ctx.store.get<AccountDoc>("account", ctx.account!.id)!;
      // The stored pools are the resolved ones; the request body stays as it was sent.
      const changes = Array.isArray(body.defaultAgentPools)
        ? {
            ...body,
            defaultAgentPools: resolvePools(body.defaultAgentPools as string[], "/defaultAgentPools"),
          }
        : body;
      ctx.store.put("account", { ...current, ...changes });
      return { status: 200, body: renderAccount(ctx) };
    },
  },
  {
    id: "account.usage",
    method: "GET",
    path: "/account/usage",
    summary: "Usage per plan-controlled area.",
    scope: "account:read",
    errors: [],
    response: {
      status: 200,
      description: "{usage: {area: {used, allowed}}, overlimits: [{area, used, allowed, disabled}]}.",
    },
    handle: (ctx) => ({
      status: 200,
      body: { usage: renderAccount(ctx).usage, overlimits: renderAccount(ctx).overlimits },
    }),
  },
  {
    id: "account.quota",
    method: "GET",
    path: "/account/quota",
    summary: "Quota windows, their use, and the mintable scopes. Spends nothing.",
    scope: "account:read",
    metering: "free",
    errors: [],
    response: {
      status: 200,
      description:
        "The tightest window (limit, used, remaining, resetAt), every window per pool, the mintable scopes, apiEnabled, and the token's cap when it has one.",
    },
    handle: (ctx) => {
      const account = accountOf(ctx);
      const pools = {
        account: { quotas: quotaRows(ctx, "account") },
        check: { quotas: quotaRows(ctx, "check") },
      };
      const rows = [...pools.account.quotas, ...pools.check.quotas];
      const tightest = rows.reduce<(typeof rows)[number] | undefined>(
        (t, r) => (!t || r.remaining < t.remaining ? r : t),
        undefined,
      );
      const body: Record<string, unknown> = {
        limit: tightest?.limit ?? null,
        used: tightest?.used ?? null,
        remaining: tightest?.remaining ?? null,
        resetAt: tightest?.resetAt ?? null,
        pools,
        scopes: Object.entries(scopeDescriptions).map(([scope, description]) => ({
          scope: scope as Scope,
          description,
        })),
        apiEnabled: account.flags.apiEnabled,
      };
      if (ctx.claims?.cap !== undefined) {
        // `tokenCap` echoes the minted integer as is; how much of it is spent rides alongside.
        const spent = ctx.services.meter.tokenSpent(ctx.claims.jti);
        body.tokenCap = ctx.claims.cap;
        body.tokenCapUsed = spent;
        body.tokenCapRemaining = Math.max(0, ctx.claims.cap - spent);
      }
      return { status: 200, body };
    },
  },
  {
    id: "account.members",
    method: "GET",
    path: "/account/member",
    summary: "Shared-access members and their rights.",
    scope: "account:read",
    errors: [],
    response: { status: 200, description: "{data: [{id, login, rights}]}." },
    handle: (ctx) => ({ status: 200, body: { data: accountOf(ctx).members } }),
  },
);
