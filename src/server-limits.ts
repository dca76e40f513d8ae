/**
 * What one client may hold of an HTTP server that vigil runs (the sandbox, the
 * watcher's listener): each request is bounded in time, so a slow client is cut
 * off, and the open connections are capped, so slow clients cannot take every
 * socket the process may open. Fastify turns Node's own request timeout off
 * (`requestTimeout: 0`) unless told otherwise.
 */
import type { Server } from "node:http";

export interface ServerLimits {
  /** From a connection's opening (or its next request's first byte) to the end of the request's headers. */
  headersTimeoutMs: number;
  /** From a request's first byte to the last byte of its body (nginx's `client_body_timeout` is 60 s). */
  requestTimeoutMs: number;
  /** Silence allowed on a connection while a request or answer is under way (nothing read or written). */
  idleTimeoutMs: number;
  /** How long a kept-alive connection may wait for its next request. */
  keepAliveTimeoutMs: number;
  /** Connections open at once at most; one more is closed as it arrives. */
  maxConnections: number;
}

export const defaultServerLimits: Readonly<ServerLimits> = Object.freeze({
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  idleTimeoutMs: 60_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 512,
});

/** The defaults with `given` over them; a value that is not a positive integer, or headers allowed longer than the request, throws. */
export function serverLimits(given: Partial<ServerLimits> = {}): ServerLimits {
  const limits = { ...defaultServerLimits };
  for (const name of Object.keys(defaultServerLimits) as (keyof ServerLimits)[]) {
    const value = given[name];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 1)
      throw new RangeError(`${name} takes a positive integer, not ${JSON.stringify(value)}.`);
    limits[name] = value;
  }
  if (limits.headersTimeoutMs > limits.requestTimeoutMs)
    throw new RangeError(
      `headersTimeoutMs (${limits.headersTimeoutMs}) cannot exceed requestTimeoutMs (${limits.requestTimeoutMs}): the headers are part of the request.`,
    );
  return limits;
}

/** Fastify's server options for `limits`; the connection cap is `capConnections`' once the server exists. */
export function fastifyLimits(limits: ServerLimits) {
  return {
    requestTimeout: limits.requestTimeoutMs,
    connectionTimeout: limits.idleTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      // Node looks for expired requests on this period (30 s by default): a fifth of the shorter
      // timeout, at most a second, so a slow client is cut off close to its deadline.
      connectionsCheckingInterval: Math.max(
        10,
        Math.min(1000, Math.floor(Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 5)),
      ),
    },
  };
}

/**
 * Caps the open connections of `server`: Node closes each one past the cap as it arrives. `onRefused`
 * hears of them at most once a minute, with how many were refused since it last heard.
 */
export function capConnections(
  server: Server,
  limits: ServerLimits,
  onRefused?: (refused: number) => void,
): void {
  server.maxConnections = limits.maxConnections;
  if (!onRefused) return;
  let refused = 0;
  let lastTold = Number.NEGATIVE_INFINITY;
  server.on("drop", () => {
    refused++;
    if (Date.now() - lastTold < 60_000) return;
    lastTold = Date.now();
    onRefused(refused);
    refused = 0;
  });
}
