/**
 * The watcher's Prometheus metrics (`GET /metrics`), with prom-client on a
 * registry of its own: nothing is registered globally, so two watchers in one
 * process (tests) never share counters.
 */
import { Counter, Gauge, Registry } from "prom-client";
import type { ClientMetrics } from "../api/index.ts";
import type { KindName } from "../engine/index.ts";
import type { Refusal } from "./deliveries.ts";

/**
 * Failed attempts by reason, from the client's count of answers by status: no answer at all (`network`,
 * `timeout`), the API's failure (`5xx`), a refusal (`4xx`). A 404 or 410 says the object is gone, and 429s
 * have their own counter: neither is an error of the API.
 */
function apiErrors(byStatus: Record<string, number>): Record<"network" | "timeout" | "5xx" | "4xx", number> {
  const out = { network: 0, timeout: 0, "5xx": 0, "4xx": 0 };
  for (const [status, n] of Object.entries(byStatus)) {
    if (status === "network" || status === "timeout") out[status] += n;
    else if (Number(status) >= 500) out["5xx"] += n;
    else if (Number(status) >= 400 && !["404", "410", "429"].includes(status)) out["4xx"] += n;
  }
  return out;
}

export class WatchMetrics {
  readonly registry = new Registry();
  readonly drifted: Gauge<"kind">;
  readonly fighting: Gauge<"kind">;
  readonly lastFull: Gauge;
  readonly lastDelta: Gauge;
  readonly eventsReceived: Counter<"event">;
  readonly eventsVerified: Counter<"event">;
  readonly eventsRefused: Counter<"reason">;
  readonly transitions: Counter<"transition">;
  readonly healAttempts: Counter<"kind">;
  readonly healOutcomes: Counter<"outcome">;
  readonly budget: Gauge;
  readonly interval: Gauge<"refresh">;
  readonly lastSuccess: Gauge;
  readonly failedRefreshes: Gauge;

  /** `client`: the API client whose reads and 429s are counted. */
  constructor(client: ClientMetrics) {
    const registers = [this.registry];
    this.drifted = new Gauge({
      name: "vigil_watch_drifted_resources",
      help: "Managed resources whose live object differs from what vigil applied, by kind.",
      labelNames: ["kind"],
      registers,
    });
    this.fighting = new Gauge({
      name: "vigil_watch_fighting_resources",
      help: "Drifted resources that drifted again right after a heal, left alone, by kind.",
      labelNames: ["kind"],
      registers,
    });
    this.lastFull = new Gauge({
      name: "vigil_watch_last_full_refresh_timestamp_seconds",
      help: "Unix time of the last full refresh that succeeded.",
      registers,
    });
    this.lastDelta = new Gauge({
      name: "vigil_watch_last_delta_refresh_timestamp_seconds",
      help: "Unix time of the last delta sync that succeeded.",
      registers,
    });
    this.eventsReceived = new Counter({
      name: "vigil_watch_events_received_total",
      help: "Webhook deliveries received on POST /events, by SVC-Event header.",
      labelNames: ["event"],
      registers,
    });
    this.eventsVerified = new Counter({
      name: "vigil_watch_events_verified_total",
      help: "Deliveries whose signatures, timestamp and id passed, by event.",
      labelNames: ["event"],
      registers,
    });
    this.eventsRefused = new Counter({
      name: "vigil_watch_events_refused_total",
      help: "Deliveries refused (too_large, unsigned, malformed, bad_signature, stale, replayed); they trigger nothing.",
      labelNames: ["reason"],
      registers,
    });
    this.transitions = new Counter({
      name: "vigil_watch_transitions_total",
      help: "Drift transitions reported (drifted, cleared, fighting).",
      labelNames: ["transition"],
      registers,
    });
    this.healAttempts = new Counter({
      name: "vigil_watch_heal_attempts_total",
      help: "Resources a heal tried to restore, by kind.",
      labelNames: ["kind"],
      registers,
    });
    this.healOutcomes = new Counter({
      name: "vigil_watch_heal_outcomes_total",
      help: "Outcomes of heal attempts per resource (healed, failed, declined).",
      labelNames: ["outcome"],
      registers,
    });
    this.budget = new Gauge({
      name: "vigil_watch_read_budget_per_hour",
      help: "Reads an hour the watcher allows itself (its share of the tightest read window).",
      registers,
    });
    this.interval = new Gauge({
      name: "vigil_watch_refresh_interval_seconds",
      help: "Seconds between refreshes after fitting the read budget, by refresh (delta, full).",
      labelNames: ["refresh"],
      registers,
    });
    this.lastSuccess = new Gauge({
      name: "vigil_watch_last_successful_read_timestamp_seconds",
      help: "Unix time of the last refresh or event read whose API reads all succeeded.",
      registers,
    });
    this.failedRefreshes = new Gauge({
      name: "vigil_watch_failed_refreshes",
      help: "Refreshes that failed in a row since the last one that succeeded (GET /healthz fails at 3).",
      registers,
    });
    const snapshot = () => client.snapshot();
    // Counted by the client; each scrape copies its totals.
    new Counter({
      name: "vigil_watch_api_reads_total",
      help: "API reads the watcher made (lists, gets), since it started.",
      registers,
      collect() {
        const s = snapshot();
        this.reset();
        this.inc((s.byClass.read ?? 0) + (s.byClass.checkRead ?? 0));
      },
    });
    new Counter({
      name: "vigil_watch_api_errors_total",
      help: "API attempts that got no answer (network, timeout) or an error answer (5xx, 4xx other than 404, 410 and 429), by reason.",
      labelNames: ["reason"],
      registers,
      collect() {
        this.reset();
        for (const [reason, n] of Object.entries(apiErrors(snapshot().byStatus))) this.inc({ reason }, n);
      },
    });
    new Counter({
      name: "vigil_watch_api_pacing_wait_seconds_total",
      help: "Seconds the watcher's API calls waited for room in the read budget or the account's quota.",
      registers,
      collect() {
        this.reset();
        this.inc(snapshot().pacingWaits.totalMs / 1000);
      },
    });
    new Counter({
      name: "vigil_watch_api_rate_limited_total",
      help: "API answers 429 the watcher met, since it started.",
      registers,
      collect() {
        this.reset();
        this.inc(snapshot().byStatus["429"] ?? 0);
      },
    });
  }

  refused(reason: Refusal | "too_large"): void {
    this.eventsRefused.inc({ reason });
  }

  setDrifted(counts: ReadonlyMap<KindName, { drifted: number; fighting: number }>): void {
    this.drifted.reset();
    this.fighting.reset();
    for (const [kind, c] of counts) {
      this.drifted.set({ kind }, c.drifted);
      this.fighting.set({ kind }, c.fighting);
    }
  }
}
