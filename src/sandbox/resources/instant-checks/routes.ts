import { monitorKind, monitorTypes, variantMemberSchema, writeOnlyMembers } from "../../../kinds/index.ts";
import {
  type InstantCheckBody,
  type InstantCheckType,
  instantCheckBody,
  instantCheckKind,
  instantCheckSchema,
  instantCheckStates,
  instantCheckTypes,
} from "../../../kinds/instant-check.ts";
import { rowFieldsOf } from "../../core/crud.ts";
import { resolvePools } from "../../core/fleet.ts";
import { newGuid } from "../../core/ids.ts";
import { listOperations } from "../../core/list.ts";
import { type Ctx, defineOperations, type Reply } from "../../core/operation.ts";
import { invalid } from "../../core/problem.ts";
import { accountOf } from "../accounts.ts";
import { checkedAddress } from "../monitors/address.ts";
import { resolveSettings } from "../monitors/settings.ts";
import { assertTypeInPlan } from "../monitors/validate.ts";
import {
  checkAgents,
  type InstantCheckDoc,
  instantCheckCollection,
  instantCheckPath,
  instantCheckRetention,
  queueInstantCheck,
  requireInstantCheck,
  shardOf,
} from "./model.ts";

/** Settings members that make no sense for a one-off check: sub-checks riding on a monitor, and presets pinning its pools. */
const refusedSettings = ["attached", "preset"];

/**
 * The type's monitor settings by the monitor rules (schema, cross-field rules,
 * plan features). Credentials serve the run and are not kept: what is stored
 * and read back is `{set: true, updatedAt}`.
 */
function checkSettings(ctx: Ctx, type: InstantCheckType, sent: Record<string, unknown> | undefined) {
  const refused = Object.keys(sent ?? {}).filter((member) => refusedSettings.includes(member));
  if (refused.length > 0) {
    throw invalid(
      refused.map((member) => ({
        pointer: `/settings/${member}`,
        reason: "not_allowed",
        message: `instant checks take no ${member}`,
      })),
    );
  }
  const { settings } = resolveSettings(ctx, type, {}, {}, sent, undefined);
  for (const member of writeOnlyMembers(variantMemberSchema(monitorKind, type)!)) {
    if (settings[member] !== undefined) settings[member] = { set: true, updatedAt: ctx.now };
  }
  return settings;
}

const rowFields = rowFieldsOf(instantCheckKind);

function renderInstantCheck(c: InstantCheckDoc, withResults: boolean): Record<string, unknown> {
  const up = c.results.filter((r) => r.state === "up").length;
  return {
    id: c.id,
    dbId: c.dbId,
    type: c.type,
    url: c.url,
    ...(c.effectiveUrl !== c.url && { effectiveUrl: c.effectiveUrl }),
    locations: { pools: c.pools },
    settings: c.settings,
    state: c.state,
    created: c.created,
    startedAt: c.startedAt,
    finishedAt: c.finishedAt,
    expiresAt: c.expiresAt,
    summary: { total: c.agentIds.length, up, down: c.results.length - up },
    ...(withResults && { results: c.results }),
  };
}

/** A single check; until it has finished, `Retry-After` says when to look again. */
function checkReply(status: number, c: InstantCheckDoc, headers: Record<string, string> = {}): Reply {
  return {
    status,
    headers: c.state === "finished" ? headers : { ...headers, "Retry-After": "1" },
    body: renderInstantCheck(c, true),
  };
}

export const instantCheckOperations = defineOperations(
  {
    id: "instantCheck.create",
    method: "POST",
    path: "/check",
    summary:
      "Run a one-off check from every live location of the chosen pools; it finishes within about a second (poll Location).",
    scope: "check:write",
    body: instantCheckBody,
    errors: [
      "validation_failed",
      "invalid_url",
      "url_blacklisted",
      "unknown_pool",
      "invalid_settings",
      "credential_write_only",
      "package_limit",
    ],
    response: { status: 201, description: "The queued check.", schema: instantCheckSchema },
    handle: (ctx, req) => {
      const body = req.body as InstantCheckBody;
      assertTypeInPlan(ctx, body.type);
      const effectiveUrl = checkedAddress(monitorTypes[body.type], body.url);
      const pools = resolvePools(
        body.locations?.pools ?? accountOf(ctx).defaultAgentPools,
        "/locations/pools",
      );
      const settings = checkSettings(ctx, body.type, body.settings);
      const check = queueInstantCheck(ctx.store, {
        id: newGuid(),
        accountId: ctx.account!.id,
        dbId: shardOf(ctx.account!.id),
        type: body.type,
        url: body.url,
        effectiveUrl,
        pools,
        settings,
        state: "queued",
        agentIds: checkAgents(body.type, pools).map((a) => a.id),
        created: ctx.now,
        startedAt: null,
        finishedAt: null,
        expiresAt: ctx.now + instantCheckRetention,
        results: [],
      });
      return checkReply(201, check, { Location: instantCheckPath(check) });
    },
  },
  ...listOperations<InstantCheckDoc>({
    id: "instantCheck.list",
    path: "/check",
    kind: instantCheckKind,
    summary: "List the account's instant checks of the last 7 days, newest first.",
    scope: "check:read",
    rows: (ctx) =>
      ctx.store
        .all<InstantCheckDoc>(instantCheckCollection, ctx.account!.id)
        .filter((c) => c.expiresAt > ctx.now),
    rowId: (c) => c.id,
    filters: {
      type: {
        param: { type: "enum", values: instantCheckTypes, list: true, description: "Any of these types." },
        match: (c, types: string[]) => types.includes(c.type),
      },
      state: {
        param: { type: "enum", values: instantCheckStates, list: true, description: "Any of these states." },
        match: (c, states: string[]) => states.includes(c.state),
      },
    },
    sort: { columns: { created: { key: (c) => c.created, time: true } }, default: "created" },
    expand: ["results", "count"],
    fields: rowFields,
    render: (_ctx, c, expand) => renderInstantCheck(c, expand.has("results")),
  }),
  {
    id: "instantCheck.get",
    method: "GET",
    path: "/check/{dbId}/{id}",
    summary: "Read an instant check with its results; until finished it carries Retry-After.",
    scope: "check:read",
    errors: ["not_found"],
    response: { status: 200, description: "The check and its results.", schema: instantCheckSchema },
    handle: (ctx, req) => checkReply(200, requireInstantCheck(ctx, req.params.dbId!, req.params.id!)),
  },
);
