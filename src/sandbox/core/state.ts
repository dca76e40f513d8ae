import { randomBytes } from "node:crypto";
import { realTime, type TimeSource } from "../../kinds/time.ts";
import { Background, type BackgroundTaskOf } from "./background.ts";
import { Clock } from "./clock.ts";
import { CursorCodec } from "./cursor.ts";
import { Faults } from "./faults.ts";
import { InFlightKeys } from "./in-flight.ts";
import type { Account, Ctx, SandboxServices, SandboxSettings } from "./operation.ts";
import { Meter } from "./quota.ts";
import { Store } from "./store.ts";
import { TokenAuthority } from "./tokens.ts";

/** Request counts for `GET /_sandbox/stats`: how many API calls a client really made. */
export class Stats {
  byRoute = new Map<string, number>();
  byStatus = new Map<string, number>();
  total = 0;

  /** `status` is the answer's, or `reset` for a connection reset by fault injection. */
  count(route: string, status: number | "reset") {
    this.total++;
    this.byRoute.set(route, (this.byRoute.get(route) ?? 0) + 1);
    this.byStatus.set(String(status), (this.byStatus.get(String(status)) ?? 0) + 1);
  }

  reset() {
    this.byRoute.clear();
    this.byStatus.clear();
    this.total = 0;
  }

  toJSON() {
    return {
      total: this.total,
      byRoute: Object.fromEntries(this.byRoute),
      byStatus: Object.fromEntries(this.byStatus),
    };
  }
}

/** Everything one sandbox instance holds. Created per instance, so tests can run many in parallel. */
export class SandboxState {
  readonly store: Store;
  readonly clock: Clock;
  readonly tokens: TokenAuthority;
  readonly meter = new Meter();
  readonly stats = new Stats();
  /** Fault injection; in memory only, so a restart clears it. */
  readonly faults = new Faults();
  /** Idempotency keys whose first request is still running; in memory only, so a restart holds none. */
  readonly inFlight = new InFlightKeys();
  readonly services: SandboxServices;
  baseUrl = "";

  readonly background: Background<SandboxState>;
  /** Real time, as the ticker, the clock and deliveries read it. */
  readonly time: TimeSource;

  /** `data`: a SQLite file to write through to, or a store already loaded (from a snapshot); in memory when absent. */
  constructor(data?: string | Store, settings: SandboxSettings = { allowInsecureWebhooks: false }) {
    this.store = data instanceof Store ? data : new Store(data);
    this.time = settings.time ?? realTime;
    this.background = new Background(this);
    this.clock = new Clock(this.store, {
      manual: settings.manualClock ?? false,
      ...(settings.time && { time: settings.time }),
    });
    const secret = this.#persistentSecret("signingKey");
    this.tokens = new TokenAuthority(secret);
    this.services = {
      cursors: new CursorCodec(secret),
      meter: this.meter,
      stats: this.stats,
      adminToken: `vgla_${this.#persistentSecret("adminSecret").toString("base64url")}`,
      defaultAccountId: () => this.store.meta<string>("defaultAccountId") ?? "",
      operations: [],
      background: this.background,
      faults: this.faults,
      settings,
    };
  }

  /** A secret kept in the store (data file or snapshot), so tokens and cursors survive a restart. */
  #persistentSecret(name: string): Buffer {
    const stored = this.store.meta<string>(name);
    if (stored) return Buffer.from(stored, "base64");
    const fresh = randomBytes(32);
    this.store.setMeta(name, fresh.toString("base64"));
    return fresh;
  }
}

/** Work the sandbox does on its own time, given the whole sandbox state. */
export type BackgroundTask = BackgroundTaskOf<SandboxState>;

/** A handler context for work done on the sandbox's own time, on behalf of one account. */
export function systemCtx(state: SandboxState, accountId: string): Ctx {
  return {
    store: state.store,
    clock: state.clock,
    tokens: state.tokens,
    now: state.clock.now(),
    baseUrl: state.baseUrl,
    requestId: "",
    clientIp: "",
    account: state.store.get<Account>("account", accountId),
    services: state.services,
  };
}
