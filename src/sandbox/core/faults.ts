import { randomInt } from "node:crypto";
import type { ProblemCodeName } from "../../kinds/index.ts";
import { ApiProblem } from "./problem.ts";

/**
 * Fault injection (`POST /_sandbox/faults`, docs/sandbox-faults.md): public
 * API calls fail at random, either before anything happens or after the
 * handler committed its change, so a client can prove its retries neither
 * lose nor duplicate anything.
 */

/** The spec's wait-and-retry statuses: the ones a client must survive by retrying. */
export const faultStatuses = [429, 500, 502, 503] as const;
export type FaultStatus = (typeof faultStatuses)[number];
export type FaultTiming = "before" | "after" | "either";

export interface FaultConfig {
  /** Probability, 0 to 1, that an eligible call is faulted. */
  rate: number;
  /** Statuses a fault answers with, drawn uniformly (repeat one to weight it). */
  statuses: FaultStatus[];
  /** Delay added to every eligible call, faulted or not. */
  latencyMs: number;
  /** Share of faults that reset the connection instead of answering: true is all, false none. */
  reset: boolean | number;
  when: FaultTiming;
  seed: number;
  /** `METHOD /path` of the operations to fault; absent, every eligible one. */
  routes?: string[];
}

/** The fate drawn for one faulted call. */
export interface Fault {
  when: "before" | "after";
  status: FaultStatus;
  reset: boolean;
}

const codeFor: Record<FaultStatus, ProblemCodeName> = {
  429: "rate_limited",
  500: "internal_error",
  502: "upstream_error",
  503: "service_unavailable",
};

/** What fault injection needs of an operation: its route, and whether it is a control route. */
export interface FaultRoute {
  method: string;
  path: string;
  internal?: boolean;
}

export const routeOf = (op: FaultRoute) => `${op.method} ${op.path}`;

/**
 * Control routes are never faulted, nor the documents that describe the API
 * (the OpenAPI document and the problem pages): tooling reads them, and they
 * are no call a client retries.
 */
export function faultable(op: FaultRoute): boolean {
  return !op.internal && op.path !== "/openapi/v2.json" && !/^\/problems(\/|$)/.test(op.path);
}

/** mulberry32: a small, fast 32-bit PRNG; the same seed gives the same sequence. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const randomSeed = () => randomInt(2 ** 32);

/** The active fault configuration of one sandbox instance, and what it has injected. */
export class Faults {
  #config: FaultConfig | undefined;
  #random: () => number = Math.random;
  injected = { before: 0, after: 0, reset: 0 };

  get config(): FaultConfig | undefined {
    return this.#config;
  }

  /** Replaces the configuration; the sequence restarts from its seed. */
  configure(config: FaultConfig): void {
    this.#config = config;
    this.#random = seeded(config.seed);
    this.injected = { before: 0, after: 0, reset: 0 };
  }

  clear(): void {
    this.#config = undefined;
  }

  /**
   * Draws the fate of a call as it arrives. Every eligible call takes four
   * draws, faulted or not, so a seed replays the same sequence for the same calls.
   */
  draw(op: FaultRoute): { latencyMs: number; fault?: Fault } | undefined {
    const config = this.#config;
    if (!config || !faultable(op)) return undefined;
    if (config.routes && !config.routes.includes(routeOf(op))) return undefined;
    const [hit, timing, resets, pick] = [this.#random(), this.#random(), this.#random(), this.#random()];
    if (hit >= config.rate) return { latencyMs: config.latencyMs };
    const share = config.reset === true ? 1 : config.reset === false ? 0 : config.reset;
    const reset = resets < share;
    let when: Fault["when"] = config.when === "either" ? (timing < 0.5 ? "before" : "after") : config.when;
    // A 429 tells the client its call was refused, which would be false after a commit.
    let statuses = when === "after" && !reset ? config.statuses.filter((s) => s !== 429) : config.statuses;
    if (statuses.length === 0) {
      when = "before";
      statuses = config.statuses;
    }
    const status = statuses[Math.floor(pick * statuses.length)]!;
    return { latencyMs: config.latencyMs, fault: { when, status, reset } };
  }
}

/** The problem a fault answers with, for the call whose id is `requestId`. */
export function faultProblem(fault: Fault, requestId: string): ApiProblem {
  const detail =
    fault.when === "before"
      ? "Fault injected by the sandbox before the call was handled."
      : "Fault injected by the sandbox after the call was handled.";
  switch (fault.status) {
    case 429:
      return new ApiProblem(codeFor[429], detail, {
        extra: { limit: 0, window: 1, retryAfter: 1 },
        errors: [{ limit: 0, window: 1, retryAfter: 1 }],
        headers: { "Retry-After": "1" },
      });
    case 500:
      return new ApiProblem(codeFor[500], detail, { errors: [{ traceId: requestId }] });
    case 503:
      return new ApiProblem(codeFor[503], detail, { headers: { "Retry-After": "1" } });
    default:
      return new ApiProblem(codeFor[fault.status], detail);
  }
}
