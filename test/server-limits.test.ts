import { describe, expect, it } from "vitest";
import { defaultServerLimits, fastifyLimits, serverLimits } from "../src/server-limits.ts";

describe("server limits", () => {
  it("default to bounded timeouts and a cap: a body gets 30 s at most, headers 10 s", () => {
    expect(serverLimits()).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      idleTimeoutMs: 60_000,
      keepAliveTimeoutMs: 5_000,
      maxConnections: 512,
    });
    expect(serverLimits({ maxConnections: 8 })).toEqual({ ...defaultServerLimits, maxConnections: 8 });
  });

  it("turn into Fastify's options, which otherwise switch Node's request timeout off", () => {
    expect(fastifyLimits(serverLimits())).toEqual({
      requestTimeout: 30_000,
      connectionTimeout: 60_000,
      keepAliveTimeout: 5_000,
      http: { headersTimeout: 10_000, connectionsCheckingInterval: 1000 },
    });
    // Short timeouts are checked often enough to be kept close to their deadline.
    expect(fastifyLimits(serverLimits({ headersTimeoutMs: 300, requestTimeoutMs: 500 })).http).toEqual({
      headersTimeout: 300,
      connectionsCheckingInterval: 60,
    });
  });

  it.each([
    [{ maxConnections: 0 }, "maxConnections takes a positive integer, not 0."],
    [{ requestTimeoutMs: 1.5 }, "requestTimeoutMs takes a positive integer, not 1.5."],
    [{ idleTimeoutMs: Number.NaN }, "idleTimeoutMs takes a positive integer, not null."],
    [
      { headersTimeoutMs: 40_000 },
      "headersTimeoutMs (40000) cannot exceed requestTimeoutMs (30000): the headers are part of the request.",
    ],
  ])("refuse %j", (given, message) => {
    expect(() => serverLimits(given)).toThrow(new RangeError(message));
  });
});
