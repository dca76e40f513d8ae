import {
  type AssertionRow,
  formatAssertions,
  membersOf,
  monitorKind,
  monitorSchema,
  monitorTypes,
  refusedInAssertMode,
  variantMemberSchema,
  writeOnlyMembers,
} from "../../../kinds/index.ts";
import { accountMemberOf } from "../../core/members.ts";
import type { Ctx } from "../../core/operation.ts";
import { renderedValues } from "../../core/stored.ts";
import type { AccountDoc } from "../accounts.ts";
import { checkBlocks } from "../checks/blocks.ts";
import { maintenanceBlock, monitorState } from "../maintenance/model.ts";
import { subscriptionBlock } from "../subscriptions/render.ts";
import { attachedToggles, type MonitorDoc, monitorDefaults, monitorName } from "./model.ts";

export const monitorExpandTokens = [
  "settings",
  "attached",
  "subscription",
  "lastIncident",
  "lastResult",
  "maintenance",
  "uptime",
  "spans",
  "summary",
] as const;

/** Owners and members with edit rights see credentials in full; others see `{set: true, updatedAt}`. */
export function seesCredentials(ctx: Ctx): boolean {
  const memberId = ctx.claims?.mem;
  if (!memberId) return true;
  const account = ctx.store.get<AccountDoc>("account", ctx.account!.id)!;
  return accountMemberOf(account, memberId)?.rights.includes("monitor:write") ?? false;
}

/** Settings as read back: stored members, server defaults for the rest, credentials by the reader's rights. */
export function renderSettings(
  ctx: Ctx,
  m: MonitorDoc,
  full = seesCredentials(ctx),
): Record<string, unknown> {
  const schema = variantMemberSchema(monitorKind, m.type)!;
  const out: Record<string, unknown> = {};
  const excluded = m.settings.assertMode === true ? (refusedInAssertMode[m.type] ?? []) : [];
  for (const { name, traits } of membersOf(schema)) {
    if (traits.readOnly || traits.inputOnly || excluded.includes(name)) continue;
    if (m.settings[name] === undefined && traits.default !== undefined)
      out[name] = structuredClone(traits.default);
  }
  Object.assign(out, structuredClone(m.settings));
  for (const member of writeOnlyMembers(schema)) {
    if (out[member] !== undefined && !full)
      out[member] = { set: true, updatedAt: m.credentialsUpdatedAt[member] ?? m.updated };
  }
  const toggles = attachedToggles(m);
  if (toggles.length > 0)
    out.attached = Object.fromEntries(toggles.map(({ kind, enabled }) => [kind, { enabled }]));
  if (m.type === "http" || m.type === "api") {
    out.assertsText = formatAssertions((m.settings.asserts ?? []) as AssertionRow[]);
    out.forceRecheck = false;
  }
  if (m.type === "tran") {
    out.steps = [
      { action: "navigate", url: m.url, synthesized: true },
      ...((m.settings.steps as unknown[]) ?? []),
    ];
  }
  return out;
}

/** A monitor as the API answers it; `expand` adds blocks (a list row is bare by default). */
export function renderMonitor(ctx: Ctx, m: MonitorDoc, expand: ReadonlySet<string>): Record<string, unknown> {
  const info = monitorTypes[m.type];
  // Types without an address (database, snmp, counter) have no url member at all.
  const out: Record<string, unknown> = { id: m.id, type: m.type };
  if (m.url !== null) out.url = m.url;
  if (m.effectiveUrl !== null && m.effectiveUrl !== m.url) out.effectiveUrl = m.effectiveUrl;
  // The kind's members as stored, in its order; then those that read back otherwise, in their places.
  Object.assign(out, renderedValues(monitorSchema, m, ["type", "url", "settings"]));
  out.name = monitorName(m);
  if (!m.locations) delete out.locations;
  // Types where recheck has no effect show it only when one was sent.
  if (info.recheck || m.recheck) out.recheck = m.recheck ?? { strategy: monitorDefaults.strategy };
  else delete out.recheck;
  Object.assign(out, {
    state: monitorState(ctx, m),
    since: m.since,
    created: m.created,
    updated: m.updated,
  });
  if (m.overlimited) out.overlimited = true;
  if (m.type === "sslExp" || m.type === "domainExp") out.expirationDate = null;
  if (m.type === "sslExp") out.certNotBefore = null;

  if (expand.has("settings")) out.settings = renderSettings(ctx, m);
  if (expand.has("attached")) {
    out.attached = Object.fromEntries(
      attachedToggles(m).map(({ kind, enabled }) => [kind, { enabled, state: null, checkedAt: null }]),
    );
  }
  if (expand.has("subscription"))
    out.subscription = subscriptionBlock(ctx, { accountId: m.accountId, monitorId: m.id });
  if (expand.has("maintenance")) out.maintenance = maintenanceBlock(ctx, m);
  Object.assign(out, checkBlocks(ctx, m, expand));
  return out;
}

/**
 * A monitor as `monitor.created` and `monitor.updated` carry it: as `GET /monitor/{id}` answers,
 * except that credentials are always masked, because a webhook receiver is not the owner.
 */
export function monitorEventData(ctx: Ctx, m: MonitorDoc): Record<string, unknown> {
  return { ...renderMonitor(ctx, m, new Set()), settings: renderSettings(ctx, m, false) };
}
