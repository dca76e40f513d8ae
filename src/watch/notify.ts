/**
 * `--notify URL`: posts each transition, as JSON or as a message Slack and
 * Teams incoming webhooks accept (`{"text": ...}`). Deliveries go one at a
 * time in order, retried with capped exponential backoff; a failure is a
 * warning and never stops the watcher.
 */
import { request } from "undici";
import { realTime, type TimeSource } from "../api/index.ts";
import type { Transition } from "./transitions.ts";

export type NotifyFormat = "json" | "slack";

export interface NotifierOptions {
  url: string;
  format: NotifyFormat;
  warn: (message: string) => void;
  time?: TimeSource;
  /** Attempts per transition, the first included. */
  attempts?: number;
  /** The first retry's wait; doubles each time, up to `maxDelayMs`. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  timeoutMs?: number;
  /** What a body goes through before it leaves: the CLI takes its secrets out (a notification is output too). */
  redact?: (text: string) => string;
}

const show = (value: unknown) => (value === undefined ? "(none)" : JSON.stringify(value));

/** One line per member, as a person reads it in a chat channel. */
export function transitionText(t: Transition): string {
  const head =
    t.transition === "cleared"
      ? `✅ ${t.address} (${t.kind}) matches the config again`
      : t.transition === "fighting"
        ? `⚠️ ${t.address} (${t.kind}) drifted again right after a heal: something is fighting vigil; left alone`
        : t.deleted
          ? `🗑️ ${t.address} (${t.kind}) was deleted outside vigil`
          : `🔀 ${t.address} (${t.kind}) drifted`;
  const lines = (t.members ?? []).map((m) => `• ${m.member}: ${show(m.before)} → ${show(m.after)}`);
  return [`${head} (seen by ${t.seenBy})`, ...lines].join("\n");
}

export class Notifier {
  readonly #options: Required<Omit<NotifierOptions, "time">> & { time: TimeSource };
  #queue: Promise<void> = Promise.resolve();

  constructor(options: NotifierOptions) {
    const url = new URL(options.url);
    if (url.protocol !== "https:" && url.protocol !== "http:")
      throw new Error(`--notify must be an http(s) URL, not ${JSON.stringify(options.url)}`);
    this.#options = {
      attempts: 5,
      baseDelayMs: 1000,
      maxDelayMs: 60_000,
      timeoutMs: 10_000,
      time: realTime,
      redact: (text: string) => text,
      ...options,
    };
  }

  /** Queues the transition; resolves once it was delivered or given up on (never rejects). */
  send(t: Transition): Promise<void> {
    const body = this.#options.redact(
      JSON.stringify(this.#options.format === "slack" ? { text: transitionText(t) } : t),
    );
    const next = this.#queue.then(() => this.#deliver(body, t.address));
    this.#queue = next;
    return next;
  }

  /** Waits for everything queued so far. */
  idle(): Promise<void> {
    return this.#queue;
  }

  async #deliver(body: string, address: string): Promise<void> {
    const o = this.#options;
    let last = "";
    for (let attempt = 1; attempt <= o.attempts; attempt++) {
      try {
        const res = await request(o.url, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body,
          headersTimeout: o.timeoutMs,
          bodyTimeout: o.timeoutMs,
        });
        await res.body.dump();
        if (res.statusCode < 300) return;
        last = `answered ${res.statusCode}`;
        // Another 4xx will not change on a retry (a wrong URL, a payload the receiver refuses).
        if (res.statusCode < 500 && res.statusCode !== 408 && res.statusCode !== 429) break;
      } catch (error) {
        last = (error as Error).message;
      }
      if (attempt < o.attempts)
        await o.time.sleep(Math.min(o.maxDelayMs, o.baseDelayMs * 2 ** (attempt - 1)));
    }
    o.warn(`--notify: the transition of ${address} was not delivered (${last}); it is on stdout.`);
  }
}
