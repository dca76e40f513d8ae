/**
 * Verifies the account's webhook deliveries before anything acts on them:
 * both of the API's signature schemes (`SVC-Signature`, and Standard Webhooks
 * through its reference library), the timestamp's age, and the delivery id,
 * so a captured delivery sent again triggers nothing.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { Webhook } from "standardwebhooks";

/** Why a delivery was refused: the `reason` label of the refused-events metric. */
export type Refusal = "unsigned" | "malformed" | "bad_signature" | "stale" | "replayed";

export interface Delivery {
  /** `d_` + 32 hex; stable across retries and redeliveries. */
  id: string;
  event: string;
  occurredAt?: number;
  data: Record<string, unknown>;
}

export type Verdict =
  | { ok: true; delivery: Delivery }
  | { ok: false; reason: Refusal; message: string; delivery?: Delivery };

export interface VerifierOptions {
  secret: string;
  /** Seconds a signature's timestamp may be from our clock: 300, as the spec says. */
  toleranceSec?: number;
  /** Unix milliseconds: the API signs with real time, so this is the real clock. */
  now?: () => number;
  /** Delivery ids remembered at most (the oldest are forgotten first). */
  maxRemembered?: number;
}

const canonicalBase64 = (text: string) =>
  text.length > 0 && text.length % 4 === 0 && Buffer.from(text, "base64").toString("base64") === text;

/**
 * The Standard Webhooks key: the secret without `whsec_`, base64-decoded. A
 * secret whose remainder is no base64 (an own secret such as `my own secret!`)
 * has no such reading; the API then signs with its UTF-8 bytes.
 */
function standardKey(secret: string): Buffer {
  const rest = secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret;
  return canonicalBase64(rest) ? Buffer.from(rest, "base64") : Buffer.from(secret, "utf8");
}

const header = (headers: Record<string, string | string[] | undefined>, name: string) => {
  const value = headers[name];
  return Array.isArray(value) ? value.join(",") : value;
};

export class DeliveryVerifier {
  readonly #secret: string;
  readonly #standard: Webhook;
  readonly #toleranceSec: number;
  readonly #now: () => number;
  readonly #max: number;
  /** Delivery id → when it may be forgotten (ms): once its signatures are too old to pass, a resend is stale anyway. */
  readonly #seen = new Map<string, number>();

  constructor(options: VerifierOptions) {
    if (options.secret.length === 0) throw new Error("the webhook secret is empty");
    this.#secret = options.secret;
    this.#standard = new Webhook(standardKey(options.secret), { format: "raw" });
    this.#toleranceSec = options.toleranceSec ?? 300;
    this.#now = options.now ?? Date.now;
    this.#max = options.maxRemembered ?? 100_000;
  }

  verify(headers: Record<string, string | string[] | undefined>, raw: Buffer): Verdict {
    const svc = header(headers, "svc-signature");
    const standard = header(headers, "webhook-signature");
    if (!svc && !standard)
      return { ok: false, reason: "unsigned", message: "no SVC-Signature or webhook-signature header" };
    const nowSec = Math.floor(this.#now() / 1000);
    if (svc) {
      const refused = this.#checkSvc(svc, raw, nowSec);
      if (refused) return refused;
    }
    if (standard) {
      const timestamp = Number(header(headers, "webhook-timestamp"));
      if (!Number.isInteger(timestamp))
        return { ok: false, reason: "malformed", message: "webhook-timestamp is not a Unix time" };
      if (Math.abs(nowSec - timestamp) > this.#toleranceSec)
        return { ok: false, reason: "stale", message: `webhook-timestamp is ${nowSec - timestamp} s old` };
      try {
        this.#standard.verify(raw, {
          "webhook-id": header(headers, "webhook-id") ?? "",
          "webhook-timestamp": String(timestamp),
          "webhook-signature": standard,
        });
      } catch {
        return { ok: false, reason: "bad_signature", message: "webhook-signature does not match the body" };
      }
    }
    const delivery = parseEnvelope(raw);
    if (!delivery) return { ok: false, reason: "malformed", message: "the body is not a delivery envelope" };
    const webhookId = header(headers, "webhook-id");
    if (standard && webhookId !== delivery.id)
      return { ok: false, reason: "malformed", message: "webhook-id differs from the envelope's id" };
    const nowMs = this.#now();
    this.#forget(nowMs);
    if (this.#seen.has(delivery.id))
      return {
        ok: false,
        reason: "replayed",
        message: `delivery ${delivery.id} was already received`,
        delivery,
      };
    this.#seen.set(delivery.id, nowMs + 2 * this.#toleranceSec * 1000);
    return { ok: true, delivery };
  }

  #checkSvc(value: string, raw: Buffer, nowSec: number): Verdict | undefined {
    let t: number | undefined;
    const v1: string[] = [];
    for (const part of value.split(",")) {
      const at = part.indexOf("=");
      const key = part.slice(0, at).trim();
      const v = part.slice(at + 1).trim();
      if (key === "t" && /^\d+$/.test(v)) t = Number(v);
      else if (key === "v1" && /^[0-9a-f]{64}$/.test(v)) v1.push(v);
    }
    if (t === undefined || v1.length === 0)
      return { ok: false, reason: "malformed", message: "SVC-Signature is not t=<unix>,v1=<hex>" };
    if (Math.abs(nowSec - t) > this.#toleranceSec)
      return { ok: false, reason: "stale", message: `SVC-Signature's timestamp is ${nowSec - t} s old` };
    const expected = createHmac("sha256", this.#secret).update(`${t}.`).update(raw).digest();
    const matches = v1.some((hex) => timingSafeEqual(Buffer.from(hex, "hex"), expected));
    return matches
      ? undefined
      : { ok: false, reason: "bad_signature", message: "SVC-Signature does not match the body" };
  }

  #forget(nowMs: number): void {
    for (const [id, until] of this.#seen) {
      if (until > nowMs && this.#seen.size < this.#max) break;
      this.#seen.delete(id);
    }
  }
}

function parseEnvelope(raw: Buffer): Delivery | undefined {
  let body: unknown;
  try {
    body = JSON.parse(raw.toString("utf8"));
  } catch {
    return undefined;
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  const { id, event, occurredAt, data } = body as Record<string, unknown>;
  if (typeof id !== "string" || !/^d_[0-9a-f]{32}$/.test(id) || typeof event !== "string") return undefined;
  if (typeof data !== "object" || data === null || Array.isArray(data)) return undefined;
  return {
    id,
    event,
    ...(typeof occurredAt === "number" && { occurredAt }),
    data: data as Record<string, unknown>,
  };
}
