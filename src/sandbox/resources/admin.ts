import { z } from "zod";
import { DurationError, parseDuration } from "../../duration.ts";
import { memberRights } from "../../kinds/account.ts";
import { isMintableScope, retiredScopes, scopeFamilies } from "../../kinds/index.ts";
import { newGuid } from "../core/ids.ts";
import { isAllowListEntry } from "../core/ip.ts";
import { type Ctx, defineOperations, type Reply } from "../core/operation.ts";
import { planNames } from "../core/plans.ts";
import { notFound } from "../core/problem.ts";
import { defaultTokenLifetime, maxTokenLifetime, type TokenAuthority } from "../core/tokens.ts";
import { type AccountDoc, createAccount } from "./accounts.ts";
import { enforceMonitorLimit } from "./monitors/overlimit.ts";
import type { OutboxMessage } from "./outbox.ts";

/** Sandbox-only control routes under `/_sandbox/`, authorized by the admin token (docs/sandbox.md). */

const plan = z.enum(planNames as ["trial", "business", "enterprise"]);
const featureOverrides = z.record(z.string(), z.union([z.number(), z.boolean()]));

const accountBody = z.strictObject({
  plan: plan.optional(),
  login: z.string().min(1).max(255).optional(),
  metered: z.boolean().optional(),
  apiEnabled: z.boolean().optional(),
  featureOverrides: featureOverrides.optional(),
});

/** What a test may change on an existing account; `featureOverrides` replaces the whole map. */
const accountPatch = z.strictObject({
  plan: plan.optional(),
  featureOverrides: featureOverrides.optional(),
  apiEnabled: z.boolean().optional(),
  smsBalance: z.number().int().min(0).optional(),
});

const tokenBody = z.strictObject({
  accountId: z.string().optional(),
  scopes: z.array(z.string()),
  allowIps: z.array(z.string()).optional(),
  cap: z.number().optional(),
  expiresAt: z.number().optional(),
  duration: z.string().optional(),
  /** The spec's names for `expiresAt` and `duration`; either spelling is accepted. */
  tokenExpiration: z.number().optional(),
  tokenDuration: z.string().optional(),
  member: z.strictObject({ login: z.string().min(1), rights: z.array(z.enum(memberRights)) }).optional(),
});

/** The mint's own error shape (`{error, message}`, 400), which the spec keeps apart from problem documents. */
const mintError = (message: string): Reply => ({ status: 400, body: { error: "ValidationError", message } });

/** The owner token of an account: every scope, the default ten-year lifetime. */
export function mintOwnerToken(tokens: TokenAuthority, accountId: string, now: number, jti?: string): string {
  return tokens.mint({
    acc: accountId,
    scp: [...scopeFamilies],
    exp: now + defaultTokenLifetime,
    iat: now,
    ...(jti && { jti }),
  });
}

/** Mints a token by the mint's rules, or answers its 400. */
export function mintToken(ctx: Ctx, input: z.infer<typeof tokenBody>): Reply {
  const accountId = input.accountId ?? ctx.services.defaultAccountId();
  const account = ctx.store.get<AccountDoc>("account", accountId);
  if (!account) return mintError(`No account ${accountId}.`);
  if (!account.flags.apiEnabled) return mintError("API access is disabled for this account.");
  if (input.scopes.length === 0) return mintError("A token needs at least one scope.");
  for (const scope of input.scopes) {
    if ((retiredScopes as readonly string[]).includes(scope))
      return mintError(`The scope ${scope} is retired and cannot be minted.`);
    if (!isMintableScope(scope)) return mintError(`Unknown scope ${scope}.`);
  }
  if (input.allowIps && (input.allowIps.length > 10 || !input.allowIps.every(isAllowListEntry))) {
    return mintError("allowIps takes up to 10 addresses or from-to ranges.");
  }
  if (input.cap !== undefined && (!Number.isInteger(input.cap) || input.cap < 1))
    return mintError("cap is a positive integer.");
  const expiresAt = input.expiresAt ?? input.tokenExpiration;
  const duration = input.duration ?? input.tokenDuration;
  // Two lifetimes that could disagree: refuse rather than silently pick one.
  if (expiresAt !== undefined && duration !== undefined)
    return mintError("Give tokenExpiration or tokenDuration, not both.");
  let exp = ctx.now + defaultTokenLifetime;
  if (expiresAt !== undefined) {
    if (!Number.isInteger(expiresAt)) return mintError("tokenExpiration is Unix seconds, an integer.");
    if (expiresAt <= ctx.now) return mintError("tokenExpiration is in the past.");
    exp = expiresAt;
  } else if (duration !== undefined) {
    let ms: number;
    try {
      // The API's own time-span form only; the ten-year cap is checked below, with its own message.
      ms = parseDuration(String(duration), {
        name: "tokenDuration",
        forms: ["timespan"],
        minMs: 1000,
        maxMs: maxTokenLifetime * 1000,
      });
    } catch (error) {
      if (!(error instanceof DurationError)) throw error;
      // Too long is refused below with the cap of every form of lifetime.
      if (error.reason !== "max") return mintError(error.message);
      ms = Number.POSITIVE_INFINITY;
    }
    exp = ctx.now + ms / 1000;
  }
  if (exp - ctx.now > maxTokenLifetime) {
    return mintError(
      `A token lives at most ten years (${maxTokenLifetime} seconds): tokenExpiration is at most ${ctx.now + maxTokenLifetime}, tokenDuration at most 3650.00:00:00.`,
    );
  }
  let mem: string | undefined;
  if (input.member) {
    const existing = account.members.find((m) => m.login === input.member!.login);
    const member = existing
      ? { ...existing, rights: input.member.rights }
      : { id: newGuid(), login: input.member.login, rights: input.member.rights };
    ctx.store.put<AccountDoc>("account", {
      ...account,
      members: [...account.members.filter((m) => m.id !== member.id), member],
    });
    mem = member.id;
  }
  const token = ctx.tokens.mint({
    acc: account.id,
    scp: input.scopes,
    ...(mem && { mem }),
    // An empty allow-list restricts nothing (as in the app's token form); embedding `[]` would refuse every caller.
    ...(input.allowIps && input.allowIps.length > 0 && { ips: input.allowIps }),
    ...(input.cap !== undefined && { cap: input.cap }),
    exp,
    iat: ctx.now,
  });
  return { status: 201, body: { token, accountId: account.id, expiresAt: exp } };
}

export const admin = { scope: null, metering: "admin" as const, internal: true, errors: [] };

export const adminOperations = defineOperations(
  {
    ...admin,
    id: "sandbox.accounts.create",
    method: "POST",
    path: "/_sandbox/accounts",
    summary: "Create an isolated account and its owner token.",
    body: accountBody,
    handle: (ctx, req) => {
      const body = req.body as z.infer<typeof accountBody>;
      const account = createAccount(ctx.store, ctx.now, body);
      return {
        status: 201,
        body: { accountId: account.id, token: mintOwnerToken(ctx.tokens, account.id, ctx.now) },
      };
    },
  },
  {
    ...admin,
    id: "sandbox.accounts.update",
    method: "PATCH",
    path: "/_sandbox/accounts/{id}",
    summary: "Change an account's plan, overrides, API access or balance; applies the plan's monitor count.",
    body: accountPatch,
    handle: (ctx, req) => {
      const body = req.body as z.infer<typeof accountPatch>;
      const current = ctx.store.get<AccountDoc>("account", req.params.id!);
      if (!current) throw notFound("account", req.params.id!);
      const account = ctx.store.put<AccountDoc>("account", {
        ...current,
        plan: body.plan ?? current.plan,
        featureOverrides: body.featureOverrides ?? current.featureOverrides,
        smsBalance: body.smsBalance ?? current.smsBalance,
        flags: { ...current.flags, apiEnabled: body.apiEnabled ?? current.flags.apiEnabled },
      });
      const entitlementsChanged = body.plan !== undefined || body.featureOverrides !== undefined;
      const disabledMonitors = entitlementsChanged ? enforceMonitorLimit(ctx, account.id) : [];
      return {
        status: 200,
        body: {
          accountId: account.id,
          plan: account.plan,
          featureOverrides: account.featureOverrides,
          apiEnabled: account.flags.apiEnabled,
          smsBalance: account.smsBalance,
          disabledMonitors,
        },
      };
    },
  },
  {
    ...admin,
    id: "sandbox.tokens.create",
    method: "POST",
    path: "/_sandbox/tokens",
    summary: "Mint a token with the mint's rules.",
    handle: (ctx, req) => {
      const parsed = tokenBody.safeParse(req.body ?? {});
      if (!parsed.success)
        return mintError(
          parsed.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; "),
        );
      return mintToken(ctx, parsed.data);
    },
  },
  {
    ...admin,
    id: "sandbox.clock",
    method: "POST",
    path: "/_sandbox/clock",
    summary: "Read, advance or set the sandbox clock.",
    body: z.strictObject({
      advanceSec: z.number().int().min(0).optional(),
      now: z.number().int().min(0).optional(),
      stepped: z.boolean().optional(),
    }),
    handle: (ctx, req) => {
      const body = req.body as { advanceSec?: number; now?: number; stepped?: boolean };
      const background = ctx.services.background;
      let stops: number | undefined;
      if (body.stepped) {
        // Each timer on the way fires at its own moment, as if the sandbox had waited.
        const target = (body.now ?? ctx.clock.now()) + (body.advanceSec ?? 0);
        stops = background.runDueThrough(target);
      } else {
        if (body.now !== undefined) ctx.clock.set(body.now);
        if (body.advanceSec !== undefined) ctx.clock.advance(body.advanceSec);
        // Timers that fell due in the jump fire before the answer, once, at its end.
        background.runDue();
      }
      // Deliveries the timers queued follow soon after.
      background.kick();
      return { status: 200, body: { now: ctx.clock.now(), ...(stops !== undefined && { stops }) } };
    },
  },
  {
    ...admin,
    id: "sandbox.outbox",
    method: "GET",
    path: "/_sandbox/outbox",
    summary: "Every message the service sent.",
    handle: (ctx) => {
      const data = ctx.store
        .scan<OutboxMessage>("outbox")
        .sort((a, b) => a.at - b.at || a.id.localeCompare(b.id));
      return { status: 200, body: { data } };
    },
  },
  {
    ...admin,
    id: "sandbox.stats.get",
    method: "GET",
    path: "/_sandbox/stats",
    summary: "Public API request counts by route and status.",
    handle: (ctx) => ({ status: 200, body: ctx.services.stats.toJSON() }),
  },
  {
    ...admin,
    id: "sandbox.stats.reset",
    method: "DELETE",
    path: "/_sandbox/stats",
    summary: "Reset the request counts.",
    handle: (ctx) => {
      ctx.services.stats.reset();
      return { status: 200, body: ctx.services.stats.toJSON() };
    },
  },
);
