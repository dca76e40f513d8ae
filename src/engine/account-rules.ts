/**
 * Plan-time checks against the account: what the account allows is read once per run (`GET /account`, and
 * the type catalogue and pools only when a written kind's rules need them), then every write of a plan is
 * judged by the rules its kind declares (`KindDefinition.rules`), before anything is written. Each refusal
 * carries the API's own code, the resource, the member and what is allowed.
 */
import type { z } from "zod";
import type { Operations } from "../api/index.ts";
import {
  type AccountView,
  type KindRules,
  kindNamed,
  type Members,
  type PoolInfo,
  type Quota,
  quotaLimit,
  type RuleContext,
  type TypeLimits,
  traitsOf,
} from "../kinds/index.ts";
import { engineKind, type Row } from "./kinds/index.ts";
import { type DesiredResource, isRef, type KindName, type Plan, type PlannedAction } from "./model.ts";
import { isObject } from "./pointer.ts";
import { resolveRefs } from "./refs.ts";
import { ConfigError, type Diagnostic, refusalDiagnostic } from "./validate.ts";

type Catalogue = NonNullable<KindRules["reads"]>[number];

/** The account's allowances, read at most once each for the life of this object (a run, a provider process). */
export class AccountAllowances {
  readonly #ops: Operations;
  #account: Promise<Row> | undefined;
  readonly #catalogues = new Map<Catalogue, Promise<Row>>();
  /** Reads made, for the read budget (`bench:engine`). */
  reads = 0;

  constructor(ops: Operations, account?: Row) {
    this.#ops = ops;
    // The refresh read the account already: its answer serves, at no further call.
    if (account) this.#account = Promise.resolve(account);
  }

  #read<T>(fn: () => Promise<T>): Promise<T> {
    this.reads++;
    return fn();
  }

  #catalogue(name: Catalogue): Promise<Row> {
    let read = this.#catalogues.get(name);
    if (!read) {
      read =
        name === "monitorTypes"
          ? this.#read(() => this.#ops.catalogue.monitorTypes() as Promise<Row>)
          : this.#read(() => this.#ops.catalogue.agentPools() as Promise<Row>);
      this.#catalogues.set(name, read);
      // A failed read is not remembered: the next plan asks again.
      read.catch(() => this.#catalogues.delete(name));
    }
    return read;
  }

  async view(reads: ReadonlySet<Catalogue>): Promise<AccountView> {
    this.#account ??= this.#read(() => this.#ops.account.get());
    const account = await this.#account;
    const limits = (isObject(account.limits) ? account.limits : {}) as Members;
    const pkg = isObject(account.package) ? account.package : {};
    const view: AccountView = {
      intervals: Array.isArray(limits.intervals) ? (limits.intervals as number[]) : [],
      maxInlineContacts: typeof limits.maxInlineContacts === "number" ? limits.maxInlineContacts : Infinity,
      features: isObject(pkg.features) ? pkg.features : {},
      usage: (isObject(account.usage) ? account.usage : {}) as AccountView["usage"],
    };
    if (reads.has("monitorTypes")) {
      const rows = ((await this.#catalogue("monitorTypes")).data ?? []) as Row[];
      view.types = new Map(
        rows
          .filter((r) => r.discontinued !== true && typeof r.type === "string")
          .map((r) => [String(r.type), r as unknown as TypeLimits]),
      );
    }
    if (reads.has("agentPools")) {
      const answer = await this.#catalogue("agentPools");
      view.pools = (answer.data ?? []) as PoolInfo[];
      const summary = isObject(answer.summary) ? answer.summary : {};
      if (typeof summary.minAgents === "number") view.minAgents = summary.minAgents;
    }
    return view;
  }
}

/** One write a plan would make, as the rules judge it. */
export interface JudgedWrite {
  resource: DesiredResource;
  context: RuleContext;
  /** A replace deleting first frees the room its new half takes. */
  deleteFirst?: true;
}

export interface AccountFindings {
  errors: Diagnostic[];
  /** Writes the API accepts but stores otherwise than written (an interval a fixed cadence overrides). */
  warnings: Diagnostic[];
}

// References stand for ids that exist by the time the write is sent.
const placeholderId = "00000000-0000-4000-8000-000000000000";

/** The catalogues the rules of these kinds read. */
export function readsFor(kinds: Iterable<KindName>): Set<Catalogue> {
  const out = new Set<Catalogue>();
  for (const name of kinds) for (const r of engineKind(name).definition.rules?.reads ?? []) out.add(r);
  return out;
}

/**
 * Judges writes by their kinds' account rules and quotas. `live` gives the live objects of a kind, to count
 * what a quota counts; without them, `usage.used` of the account stands in.
 */
export function judgeWrites(
  view: AccountView,
  writes: readonly JudgedWrite[],
  live: (kind: KindName) => readonly Row[] | undefined,
): AccountFindings {
  const errors: Diagnostic[] = [];
  const warnings: Diagnostic[] = [];
  for (const { resource, context } of writes) {
    const rules = engineKind(resource.kind).definition.rules;
    const members = resolveRefs(resource.members, () => placeholderId) as Members;
    for (const rule of rules?.account ?? []) {
      for (const refusal of rule(members, view, context)) {
        (refusal.warning ? warnings : errors).push(refusalDiagnostic(resource, refusal));
      }
    }
  }
  errors.push(...quotaRefusals(view, writes, live));
  return { errors, warnings };
}

/** Creates beyond what a quota leaves room for: apply creates before it deletes, so deletes free none. */
function quotaRefusals(
  view: AccountView,
  writes: readonly JudgedWrite[],
  live: (kind: KindName) => readonly Row[] | undefined,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const byKind = new Map<KindName, JudgedWrite[]>();
  for (const w of writes) byKind.set(w.resource.kind, [...(byKind.get(w.resource.kind) ?? []), w]);
  for (const [name, kindWrites] of byKind) {
    for (const quota of engineKind(name).definition.rules?.quotas ?? []) {
      const limit = quotaLimit(view, quota);
      if (limit === undefined) continue;
      const taking = kindWrites.filter(
        ({ resource, context, deleteFirst }) =>
          !deleteFirst &&
          quota.counts(resource.members) &&
          (context.creating || !context.live || !quota.counts(context.live)),
      );
      if (taking.length === 0) continue;
      const used = usedOf(view, quota, live(name));
      const room = Math.max(0, limit - used);
      for (const { resource } of taking.slice(room)) {
        out.push(
          refusalDiagnostic(resource, {
            code: "package_limit",
            pointer: "",
            feature: quota.feature,
            limit,
            allowed: [`${room} more ${quota.describe} (the plan allows ${limit}; ${used} exist)`],
            message: `this plan adds ${taking.length} ${quota.describe}, ${taking.length - room} more than the account has room for`,
          }),
        );
      }
    }
  }
  return out;
}

function usedOf(view: AccountView, quota: Quota, rows: readonly Row[] | undefined): number {
  if (rows) return rows.filter((r) => quota.counts(r)).length;
  const usage = quota.usage ? view.usage[quota.usage]?.used : undefined;
  return typeof usage === "number" ? usage : 0;
}

/** What a plan's action writes: creates, updates and replaces; imports and no-ops write nothing to judge. */
function contextOf(action: PlannedAction, liveRow: Row | undefined): RuleContext | undefined {
  if (action.action === "create" || action.action === "replace") return { creating: true };
  if (action.action === "update") {
    const kind = engineKind(action.kind);
    return { creating: false, ...(liveRow && { live: kind.normalizeLive(liveRow) }) };
  }
  return undefined;
}

/**
 * The members of what a resource's reference member names: the configuration's object for a reference to an
 * address, the live object for an id (when its kind was listed); undefined when neither is known.
 */
function referencedBy(
  resource: DesiredResource,
  byAddress: ReadonlyMap<string, DesiredResource>,
  live: PlanCheckInput["live"],
): (member: string) => Members | undefined {
  return (member) => {
    const value = resource.members[member];
    if (isRef(value)) {
      const target = byAddress.get(value.$ref);
      return target && engineKind(target.kind).normalizeDesired(target.members);
    }
    const schema = (engineKind(resource.kind).definition.schema.shape as Record<string, z.ZodType>)[member];
    const references = schema && traitsOf(schema).references;
    if (!references || typeof value !== "string") return undefined;
    const target = kindNamed(references);
    const row = live.get(target)?.get(value);
    return row && engineKind(target).normalizeLive(row);
  };
}

export class AccountCheckError extends ConfigError {
  readonly warnings: Diagnostic[];
  constructor(errors: Diagnostic[], warnings: Diagnostic[]) {
    super(errors);
    this.name = "AccountCheckError";
    this.message = `The account would refuse ${errors.length} write(s) of this plan; nothing was written:\n${errors
      .map((d) => `  ${d.address}${d.pointer}: ${d.message}`)
      .join("\n")}`;
    this.warnings = warnings;
  }
}

export interface PlanCheckInput {
  plan: Plan;
  desired: readonly DesiredResource[];
  live: ReadonlyMap<KindName, ReadonlyMap<string, Row>>;
  /** Kinds listed in full: their live rows are counted for quotas. */
  complete: ReadonlySet<KindName>;
}

/** Judges every write of a plan; reads what the account allows only when the plan writes something. */
export async function checkPlanAgainstAccount(
  allowances: AccountAllowances,
  input: PlanCheckInput,
): Promise<AccountFindings> {
  const byAddress = new Map(input.desired.map((d) => [d.address, d]));
  const writes: JudgedWrite[] = [];
  for (const action of input.plan.actions) {
    const resource = byAddress.get(action.address);
    if (!resource) continue;
    const liveRow = action.id ? input.live.get(action.kind)?.get(action.id) : undefined;
    const context = contextOf(action, liveRow);
    if (context)
      writes.push({
        resource,
        context: { ...context, referenced: referencedBy(resource, byAddress, input.live) },
        ...(action.action === "replace" && action.replaceOrder === "delete-first" && { deleteFirst: true }),
      });
  }
  if (writes.length === 0) return { errors: [], warnings: [] };
  const view = await allowances.view(readsFor(writes.map((w) => w.resource.kind)));
  return judgeWrites(view, writes, (kind) =>
    input.complete.has(kind) ? [...(input.live.get(kind)?.values() ?? [])] : undefined,
  );
}

const perClient = new WeakMap<Operations, AccountAllowances>();

/** The allowances of one client, kept for its life: a provider process reads the account once. */
export function allowancesOf(ops: Operations): AccountAllowances {
  let allowances = perClient.get(ops);
  if (!allowances) {
    allowances = new AccountAllowances(ops);
    perClient.set(ops, allowances);
  }
  return allowances;
}

/**
 * One resource's write judged alone, as Terraform and Pulumi plan one resource at a time: its quota is
 * counted from `usage` of the account (the other resources of the run are not seen).
 */
export async function judgeOne(
  allowances: AccountAllowances,
  resource: DesiredResource,
  context: RuleContext,
): Promise<AccountFindings> {
  const view = await allowances.view(readsFor([resource.kind]));
  return judgeWrites(view, [{ resource, context }], () => undefined);
}
