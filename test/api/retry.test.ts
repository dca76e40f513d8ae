/**
 * The client's one retry policy (`src/api/retry.ts`), table by table: every status, every problem code of
 * every family, the conflicts of a key in flight, failures without an answer, the attempts budget, and
 * `Retry-After` as seconds and as an HTTP date read against a fake clock; then the client over HTTP, whose
 * waits and `ApiError.retryAfter` come from that clock.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ApiError,
  defaultRetry,
  type FailedAttempt,
  type Pacer,
  type RetryLimits,
  retryAfterSeconds,
  retryDecision,
  type TimeSource,
  VigilClient,
} from "../../src/api/index.ts";
import { type ProblemCodeName, problemCodes } from "../../src/kinds/index.ts";

const limits: RetryLimits = { policy: defaultRetry, maxBlockMs: 15 * 60_000, random: () => 0.5 };
const decide = (failed: FailedAttempt, attempt = 1) => retryDecision(failed, attempt, limits);
/** Full jitter at 0.5 of the capped exponential step. */
const backoff = (attempt: number) => 0.5 * Math.min(20_000, 200 * 2 ** (attempt - 1));

/** The spec's "Codes by family", written out here rather than read from the table under test. */
const specWaitAndRetry = [
  "quota_exceeded",
  "rate_limited",
  "service_unavailable",
  "upstream_error",
  "internal_error",
];

describe("what is retried", () => {
  const statuses = Array.from({ length: 200 }, (_, i) => 400 + i);
  it.each(statuses)("status %i with a code the table lacks: by the status's family", (status) => {
    const retried = [429, 500, 502, 503].includes(status);
    expect(decide({ status, code: `http_${status}` })).toEqual(
      retried ? { retry: true, waitMs: backoff(1) } : { retry: false },
    );
  });

  const codes = Object.keys(problemCodes) as ProblemCodeName[];
  it.each(codes)("%s: by its family in the problem table", (code) => {
    const { status, family } = problemCodes[code];
    const retried = specWaitAndRetry.includes(code);
    expect(family === "wait-and-retry").toBe(retried);
    expect(decide({ status, code }).retry).toBe(retried);
  });

  it("a known code decides by its own family, whatever status carried it", () => {
    expect(decide({ status: 500, code: "validation_failed" })).toEqual({ retry: false });
    expect(decide({ status: 503, code: "duplicate_monitor" })).toEqual({ retry: false });
    expect(decide({ status: 400, code: "rate_limited" })).toEqual({ retry: true, waitMs: backoff(1) });
    expect(decide({ status: 409, code: "quota_exceeded" })).toEqual({ retry: true, waitMs: backoff(1) });
  });

  it.each([
    ["in_flight", true],
    ["different_body", false],
    [undefined, false],
  ] as const)("409 idempotency_key_conflict, reason %s: retried %s", (reason, retried) => {
    expect(decide({ status: 409, code: "idempotency_key_conflict", reason }).retry).toBe(retried);
  });

  it.each(["network", "timeout"] as const)("no answer (%s): always retried, with backoff", (network) => {
    for (let attempt = 1; attempt < defaultRetry.attempts; attempt++)
      expect(decide({ network }, attempt)).toEqual({ retry: true, waitMs: backoff(attempt) });
  });

  it("stops at the last attempt allowed, whatever failed", () => {
    const last = defaultRetry.attempts;
    expect(decide({ network: "network" }, last)).toEqual({ retry: false });
    expect(decide({ status: 503, code: "service_unavailable" }, last)).toEqual({ retry: false });
    expect(decide({ status: 429, code: "quota_exceeded", retryAfterSec: 1 }, last)).toEqual({
      retry: false,
    });
  });

  it("backs off exponentially with full jitter, capped at maxMs", () => {
    const top = { ...limits, policy: { attempts: 20, baseMs: 200, maxMs: 20_000 }, random: () => 0.999 };
    const waits = [1, 2, 3, 8, 19].map(
      (attempt) => (retryDecision({ network: "network" }, attempt, top) as { waitMs: number }).waitMs,
    );
    expect(waits).toEqual([0.999 * 200, 0.999 * 400, 0.999 * 800, 0.999 * 20_000, 0.999 * 20_000]);
  });
});

describe("how long it waits", () => {
  it("honours Retry-After, with up to baseMs of jitter", () => {
    expect(decide({ status: 429, code: "rate_limited", retryAfterSec: 7 })).toEqual({
      retry: true,
      waitMs: 7000 + 0.5 * 200,
    });
    expect(decide({ status: 503, code: "service_unavailable", retryAfterSec: 0 })).toEqual({
      retry: true,
      waitMs: 100,
    });
  });

  it("ends the call at once when Retry-After is longer than the longest wait worth doing", () => {
    const brief = { ...limits, maxBlockMs: 60_000 };
    expect(retryDecision({ status: 429, code: "quota_exceeded", retryAfterSec: 60 }, 1, brief).retry).toBe(
      true,
    );
    expect(retryDecision({ status: 429, code: "quota_exceeded", retryAfterSec: 61 }, 1, brief)).toEqual({
      retry: false,
    });
  });

  it("never waits on a Retry-After for an answer it does not retry", () => {
    expect(decide({ status: 422, code: "validation_failed", retryAfterSec: 1 })).toEqual({ retry: false });
  });
});

describe("Retry-After", () => {
  const at = Date.UTC(2031, 4, 6, 12, 0, 0);
  const clock = { now: () => at };
  it.each([
    ["120", 120],
    [" 3 ", 3],
    ["0", 0],
    [new Date(at + 30_000).toUTCString(), 30],
    [new Date(at + 30_500).toUTCString(), 30],
    [new Date(at - 5_000).toUTCString(), 0],
    ["", undefined],
    [undefined, undefined],
    ["soon", undefined],
  ] as const)("%j is %j seconds on the caller's clock", (value, seconds) => {
    expect(retryAfterSeconds(value, clock)).toBe(seconds);
  });

  it("reads an HTTP date against the given clock, not the wall clock", () => {
    const date = new Date(at + 90_000).toUTCString();
    expect(retryAfterSeconds(date, clock)).toBe(90);
    expect(retryAfterSeconds(date, { now: () => at + 60_000 })).toBe(30);
  });
});

describe("the client, on a fake clock", () => {
  const fakeNow = Date.UTC(2031, 4, 6, 12, 0, 0);
  const freePacer: Pacer = { acquire: async () => {}, observe: () => {} };
  let server: Server;
  let url: string;
  let answers = 0;
  beforeAll(async () => {
    server = createServer((_, res) => {
      answers++;
      res.writeHead(answers === 1 ? 503 : 200, {
        "content-type": "application/json",
        // Twelve seconds after the fake clock's now, which is years from the wall clock's.
        "retry-after": new Date(fakeNow + 12_000).toUTCString(),
      });
      res.end(
        answers === 1
          ? JSON.stringify({ type: "about:blank", title: "x", status: 503, code: "service_unavailable" })
          : "{}",
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("waits the HTTP date's distance on its TimeSource, and its ApiError says the same", async () => {
    const sleeps: number[] = [];
    const time: TimeSource = { now: () => fakeNow, sleep: async (ms) => void sleeps.push(ms) };
    const get = { method: "GET", path: "/x", route: "GET /x", quotaClass: "read" } as const;
    const retrying = new VigilClient({ baseUrl: url, pacer: freePacer, time, random: () => 0 });
    await retrying.call(get);
    expect(sleeps).toEqual([12_000]);
    await retrying.close();

    answers = 0;
    const once = new VigilClient({ baseUrl: url, pacer: freePacer, time, retry: { attempts: 1 } });
    const error = await once.call(get).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).retryAfter).toBe(12);
    await once.close();
  });
});
