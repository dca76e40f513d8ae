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
  readonly drifted: Gauge<"kind"> = new Gauge({
    name: "vigil_watch_drifted_resources",
    help: "Managed resources whose live object differs from what vigil applied, by kind.",
    labelNames: ["kind"],
    registers: [this.registry],
  });
  readonly fighting: Gauge<"kind"> = new Gauge({
    name: "vigil_watch_fighting_resources",
    help: "Drifted resources that drifted again right after a heal, left alone, by kind.",
    labelNames: ["kind"],
    registers: [this.registry],
  });
  readonly lastFull: Gauge = new Gauge({
    name: "vigil_watch_last_full_refresh_timestamp_seconds",
    help: "Unix time of the last full refresh that succeeded.",
    registers: [this.registry],
  });
  readonly lastDelta: Gauge = new Gauge({
    name: "vigil_watch_last_delta_refresh_timestamp_seconds",
    help: "Unix time of the last delta sync that succeeded.",
    registers: [this.registry],
  });
  readonly eventsReceived: Counter<"event"> = new Counter({
    name: "vigil_watch_events_received_total",
    help: "Webhook deliveries received on POST /events, by SVC-Event header.",
    labelNames: ["event"],
    registers: [this.registry],
  });
  readonly eventsVerified: Counter<"event"> = new Counter({
    name: "vigil_watch_events_verified_total",
    help: "Deliveries whose signatures, timestamp and id passed, by event.",
    labelNames: ["event"],
    registers: [this.registry],
  });
  readonly eventsRefused: Counter<"reason"> = new Counter({
    name: "vigil_watch_events_refused_total",
    help: "Deliveries refused (too_large, unsigned, malformed, bad_signature, stale, replayed); they trigger nothing.",
    labelNames: ["reason"],
    registers: [this.registry],
  });
  readonly transitions: Counter<"transition"> = new Counter({
    name: "vigil_watch_transitions_total",
    help: "Drift transitions reported (drifted, cleared, fighting).",
    labelNames: ["transition"],
    registers: [this.registry],
  });
  readonly healAttempts: Counter<"kind"> = new Counter({
    name: "vigil_watch_heal_attempts_total",
    help: "Resources a heal tried to restore, by kind.",
    labelNames: ["kind"],
    registers: [this.registry],
  });
  readonly healOutcomes: Counter<"outcome"> = new Counter({
    name: "vigil_watch_heal_outcomes_total",
    help: "Outcomes of heal attempts per resource (healed, failed, declined).",
    labelNames: ["outcome"],
    registers: [this.registry],
  });
  readonly budget: Gauge = new Gauge({
    name: "vigil_watch_read_budget_per_hour",
    help: "Reads an hour the watcher allows itself (its share of the tightest read window).",
    registers: [this.registry],
  });
  readonly interval: Gauge<"refresh"> = new Gauge({
    name: "vigil_watch_refresh_interval_seconds",
    help: "Seconds between refreshes after fitting the read budget, by refresh (delta, full).",
    labelNames: ["refresh"],
    registers: [this.registry],
  });
  readonly lastSuccess: Gauge = new Gauge({
    name: "vigil_watch_last_successful_read_timestamp_seconds",
    help: "Unix time of the last refresh or event read whose API reads all succeeded.",
    registers: [this.registry],
  });
  readonly failedRefreshes: Gauge = new Gauge({
    name: "vigil_watch_failed_refreshes",
    help: "Refreshes that failed in a row since the last one that succeeded (GET /healthz fails at 3).",
    registers: [this.registry],
  });

  /** `client`: the API client whose reads and 429s are counted. */
  constructor(client: ClientMetrics) {
    clientCounters(client, [this.registry]);
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

/** The counters the client counts: each scrape copies its totals. */
function clientCounters(client: ClientMetrics, registers: Registry[]): void {
  const snapshot = () => client.snapshot();
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
