/**
 * Turns drift into transitions: a resource drifts (or its drift changes), is
 * fighting (it drifted again right after a heal), or matches the config
 * again. What was reported is remembered by digest, so the same drift seen
 * again (by an event, a poll, or a restarted watcher) is not reported twice.
 */
import type { KindName } from "../engine/index.ts";
import type { Drift, MemberDrift } from "./drift.ts";
import type { HealRecord, Reported, WatchRecord } from "./record.ts";

export type SeenBy = "event" | "poll";

/** One JSON line on stdout, and one `--notify` post. */
export interface Transition {
  /** ISO 8601, on the watcher's clock. */
  time: string;
  transition: "drifted" | "fighting" | "cleared";
  address: string;
  kind: KindName;
  id: string;
  seenBy: SeenBy;
  /** The object was deleted outside vigil. */
  deleted?: true;
  /** Each member that moved: `before` is what vigil applied, `after` what is live. Credentials masked. */
  members?: MemberDrift[];
}

/** The reported drift and heal history per address, kept in Maps (addresses are user input). */
export class Reports {
  readonly reported = new Map<string, Reported>();
  readonly heals = new Map<string, HealRecord>();

  constructor(record: WatchRecord) {
    for (const r of record.reported) this.reported.set(r.address, r);
    for (const h of record.heals) this.heals.set(h.address, h);
  }

  toRecord(base: WatchRecord): WatchRecord {
    return { ...base, reported: [...this.reported.values()], heals: [...this.heals.values()] };
  }

  /**
   * The transition this evaluation makes, if any, and the bookkeeping for it.
   * `fightWindowMs`: a drift this soon after a successful heal is fighting.
   */
  judge(
    address: string,
    drift: Drift | undefined,
    context: { kind: KindName; id: string; now: number; seenBy: SeenBy; fightWindowMs?: number },
  ): Transition | undefined {
    const prev = this.reported.get(address);
    const base = {
      time: new Date(context.now).toISOString(),
      address,
      kind: context.kind,
      id: drift?.id ?? prev?.id ?? context.id,
      seenBy: context.seenBy,
    };
    if (!drift) {
      if (!prev) return undefined;
      this.reported.delete(address);
      return { ...base, transition: "cleared" };
    }
    if (prev?.digest === drift.digest) return undefined;
    const healedAt = this.heals.get(address)?.healedAt;
    const fighting =
      prev?.fighting === true ||
      (context.fightWindowMs !== undefined &&
        healedAt !== undefined &&
        context.now - healedAt < context.fightWindowMs);
    this.reported.set(address, {
      address,
      kind: drift.kind,
      id: drift.id,
      digest: drift.digest,
      since: prev?.since ?? context.now,
      ...(fighting && { fighting: true }),
    });
    return {
      ...base,
      transition: fighting ? "fighting" : "drifted",
      ...(drift.deleted && { deleted: true as const }),
      ...(drift.members.length > 0 && { members: drift.members }),
    };
  }

  /** Drifted and fighting resources per kind, for the gauges. */
  counts(): Map<KindName, { drifted: number; fighting: number }> {
    const out = new Map<KindName, { drifted: number; fighting: number }>();
    for (const r of this.reported.values()) {
      const kind = r.kind as KindName;
      const c = out.get(kind) ?? { drifted: 0, fighting: 0 };
      c.drifted++;
      if (r.fighting) c.fighting++;
      out.set(kind, c);
    }
    return out;
  }
}
