import type * as Undici from "undici";
import type { Pool } from "undici";
import { commonJsExports } from "../commonjs.ts";
import { vigilVersion } from "../shipped.ts";
import type { QueryValue } from "./types.ts";

export const userAgent = `vigil/${vigilVersion()}`;

export interface TransportOptions {
  /** e.g. `https://api.example.com/v2`; a path prefix is kept. */
  baseUrl: string;
  /** Bearer token; absent for anonymous catalogue calls. */
  token?: string;
  /** Milliseconds for one HTTP request, answer body included. */
  timeoutMs?: number;
  /** Keep-alive connections kept open to the service. */
  connections?: number;
}

export interface TransportRequest {
  method: string;
  path: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface TransportResponse {
  status: number;
  /** Lower-cased names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  /** Parsed JSON, the raw text when it is not JSON, `undefined` when empty. */
  body: unknown;
}

/** The request got no answer: `timeout` when our own timer struck, else the connection failed. */
export class TransportFailure extends Error {
  readonly reason: "timeout" | "network";
  constructor(reason: "timeout" | "network", cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = "TransportFailure";
    this.reason = reason;
  }
}

/** Lists go as comma-separated values (`tags=a,b`), as the spec's query grammar reads them. */
export function serialiseQuery(query: Record<string, QueryValue> | undefined): string {
  if (!query) return "";
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    params.append(name, Array.isArray(value) ? value.join(",") : String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** One HTTP exchange with the API over a keep-alive pool: no retries, no pacing. */
export class Transport {
  readonly timeoutMs: number;
  readonly #prefix: string;
  readonly #token: string | undefined;
  readonly #origin: string;
  readonly #connections: number;
  /** Opened on the first exchange: a command that never calls the API (validate) never loads undici. */
  #pool: Promise<Pool> | undefined;

  constructor(options: TransportOptions) {
    const url = new URL(options.baseUrl);
    this.#prefix = url.pathname.replace(/\/+$/, "");
    this.#token = options.token;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.#origin = url.origin;
    this.#connections = options.connections ?? 32;
  }

  #openPool(): Promise<Pool> {
    this.#pool ??= commonJsExports<typeof Undici>(import("undici")).then(
      ({ Pool }) => new Pool(this.#origin, { connections: this.#connections, pipelining: 1 }),
    );
    return this.#pool;
  }

  async send(req: TransportRequest): Promise<TransportResponse> {
    const headers: Record<string, string> = { "user-agent": userAgent, accept: "application/json" };
    if (this.#token !== undefined) headers.authorization = `Bearer ${this.#token}`;
    let body: string | undefined;
    if (req.body !== undefined) {
      body = JSON.stringify(req.body);
      headers["content-type"] = "application/json";
    }
    Object.assign(headers, req.headers);
    const timer = AbortSignal.timeout(this.timeoutMs);
    const signal = req.signal ? AbortSignal.any([req.signal, timer]) : timer;
    try {
      const pool = await this.#openPool();
      const res = await pool.request({
        method: req.method as "GET",
        path: this.#prefix + req.path + serialiseQuery(req.query),
        headers,
        body,
        signal,
      });
      const text = await res.body.text();
      const flat: Record<string, string> = {};
      for (const [name, value] of Object.entries(res.headers)) {
        if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
      }
      return { status: res.statusCode, headers: flat, body: parseBody(text) };
    } catch (err) {
      // The caller's own abort is no failure of the service: it propagates as is.
      if (req.signal?.aborted) throw req.signal.reason;
      throw new TransportFailure(timer.aborted ? "timeout" : "network", err);
    }
  }

  async close(): Promise<void> {
    if (this.#pool) await (await this.#pool).close();
  }
}

function parseBody(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
