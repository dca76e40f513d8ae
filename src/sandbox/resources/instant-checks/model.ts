import { createHash } from "node:crypto";
import type { z } from "zod";
import { monitorTypes } from "../../../kinds/index.ts";
import type {
  InstantCheckState,
  InstantCheckType,
  instantCheckResult,
} from "../../../kinds/instant-check.ts";
import { type Agent, agents, agentsFor } from "../../core/fleet.ts";
import type { Ctx } from "../../core/operation.ts";
import { notFound } from "../../core/problem.ts";
import type { Doc, Store } from "../../core/store.ts";
import { defaultCheckError } from "../checks/incident-machine.ts";

/**
 * Instant checks: one-off checks run outside any schedule. A check is queued
 * by `POST /check`, picked up by the background task (`running`) and
 * finished once the sandbox clock has passed the second it was created in:
 * within a second of real time, or at once when the clock is advanced.
 * docs/sandbox-instant-checks.md describes every choice.
 */
export type InstantCheckResult = z.infer<typeof instantCheckResult>;

export interface InstantCheckDoc extends Doc {
  dbId: string;
  type: InstantCheckType;
  url: string;
  effectiveUrl: string;
  pools: string[];
  /** As validated; credentials are never kept, only that they were set. */
  settings: Record<string, unknown>;
  state: InstantCheckState;
  /** The locations that check, fixed when the check is created. */
  agentIds: string[];
  created: number;
  startedAt: number | null;
  finishedAt: number | null;
  expiresAt: number;
  results: InstantCheckResult[];
}

export const instantCheckCollection = "instantCheck";
/**
 * One entry (`{id, accountId}`, the check's id) per queued or running check:
 * what the background task scans, so it never reads the finished checks kept
 * for 7 days. It lives in the store, so transactions and the data file keep
 * it in step with the checks.
 */
export const pendingInstantCheckCollection = "instantCheckPending";
/** Checks stay readable 7 days from creation, then answer 404 and are purged. */
export const instantCheckRetention = 7 * 86400;
/** Sandbox seconds a check takes from creation to its results. */
export const instantCheckRunSec = 1;

/**
 * The storage shards checks live on. An account's checks all live on one,
 * picked from its id, so the same account always reads the same `dbId`.
 */
export const instantCheckShards = ["eu1", "eu2", "us1", "us2", "ap1"] as const;

const digest = (text: string) => createHash("sha256").update(text).digest();

export function shardOf(accountId: string): string {
  return instantCheckShards[digest(accountId)[0]! % instantCheckShards.length]!;
}

export const instantCheckPath = (c: Pick<InstantCheckDoc, "dbId" | "id">) => `/check/${c.dbId}/${c.id}`;

/** The live locations a check runs from: every one its pools reach for the type's fleet. */
export function checkAgents(type: InstantCheckType, pools: readonly string[]): Agent[] {
  return agentsFor(pools, monitorTypes[type].fleet ?? "net");
}

/** A check of this account at this address that has not passed its 7 days; 404 otherwise. */
export function requireInstantCheck(ctx: Ctx, dbId: string, id: string): InstantCheckDoc {
  const check = ctx.store.owned<InstantCheckDoc>(instantCheckCollection, ctx.account!.id, id);
  if (!check || check.dbId !== dbId || check.expiresAt <= ctx.now) throw notFound("check", `${dbId}/${id}`);
  return check;
}

/** The host of a normalised address: a URL's host name, or a host with an optional port. */
function hostOf(effectiveUrl: string): string {
  if (/^https?:\/\//i.test(effectiveUrl)) return new URL(effectiveUrl).hostname;
  return effectiveUrl.replace(/:\d+$/, "").replace(/^\[|\]$/g, "");
}

/**
 * Reserved names that fail on purpose, so clients can see a failing check:
 * `.invalid` never resolves (RFC 6761); `down.example` and its subdomains
 * never answer.
 */
function simulatedFailure(host: string): InstantCheckResult["error"] {
  const name = host.toLowerCase();
  if (name === "invalid" || name.endsWith(".invalid")) {
    return { code: 6, message: `Could not resolve host: ${host}`, codename: "dnsNotResolved" };
  }
  if (name === "down.example" || name.endsWith(".down.example")) return { ...defaultCheckError };
  return null;
}

/**
 * One location's result. Measurements are derived from the address and the
 * location, so the same check reads the same figures every time.
 */
function resultAt(check: InstantCheckDoc, agent: Agent, now: number): InstantCheckResult {
  const location = {
    id: agent.id,
    country: agent.country,
    region: agent.region,
    city: agent.city,
    ip: agent.ip,
  };
  const failure = simulatedFailure(hostOf(check.effectiveUrl));
  if (failure) {
    // A name that never resolves fails fast; a host that never answers runs into the timeout.
    const timedOut = failure.codename === defaultCheckError.codename;
    const dns = timedOut ? 9 : 12;
    const durationMs = timedOut ? 30000 : dns;
    const metrics = { responseTime: durationMs, dns, connect: 0, tls: 0, ttfb: 0, transfer: 0 };
    return { location, state: "down", time: now, durationMs, error: failure, metrics };
  }
  const seed = digest(`${check.effectiveUrl}|${agent.id}`);
  const dns = 2 + (seed[0]! % 20);
  const connect = 5 + (seed[1]! % 60);
  const kind = monitorTypes[check.type].url;
  // ping and port checks only resolve and connect; the others also talk TLS and HTTP.
  const web = kind !== "host" && kind !== "hostPort";
  const tls = web && check.effectiveUrl.startsWith("https:") ? 10 + (seed[2]! % 40) : 0;
  const ttfb = web ? 20 + (seed[3]! % 200) : 0;
  const transfer = web ? 1 + (seed[4]! % 30) : 0;
  const responseTime = dns + connect + tls + ttfb + transfer;
  return {
    location,
    state: "up",
    time: now,
    durationMs: responseTime,
    error: null,
    metrics: { responseTime, dns, connect, tls, ttfb, transfer },
  };
}

/** Stores a new check and queues it for the background task. */
export function queueInstantCheck(store: Store, check: InstantCheckDoc): InstantCheckDoc {
  store.put<Doc>(pendingInstantCheckCollection, { id: check.id, accountId: check.accountId });
  return store.put<InstantCheckDoc>(instantCheckCollection, check);
}

/** Removes a check (and its queue entry, if unfinished). */
export function removeInstantCheck(store: Store, id: string): void {
  store.remove(pendingInstantCheckCollection, id);
  store.remove(instantCheckCollection, id);
}

/** Moves an unfinished check on by the sandbox clock: queued to running, then finished with its results. */
export function advanceInstantCheck(store: Store, check: InstantCheckDoc, now: number): void {
  if (now >= check.created + instantCheckRunSec) {
    store.remove(pendingInstantCheckCollection, check.id);
    const results = check.agentIds.flatMap((id) => {
      const agent = agents.find((a) => a.id === id);
      return agent ? [resultAt(check, agent, now)] : [];
    });
    store.put<InstantCheckDoc>(instantCheckCollection, {
      ...check,
      state: "finished",
      startedAt: check.startedAt ?? now,
      finishedAt: now,
      results,
    });
  } else if (check.state === "queued") {
    store.put<InstantCheckDoc>(instantCheckCollection, { ...check, state: "running", startedAt: now });
  }
}
