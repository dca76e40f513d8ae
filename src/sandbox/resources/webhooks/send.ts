import { Agent, request } from "undici";
import { realTime } from "../../../kinds/time.ts";
import type { SandboxSettings, WebhookReceiver } from "../../core/operation.ts";
import type { AttemptResult } from "./attempts.ts";
import type { DeliveryDoc } from "./deliveries.ts";
import { checkedLookup, checkUrl, type DestinationPolicy, DestinationRefused } from "./destination.ts";
import { activeSecrets, type WebhookDoc } from "./model.ts";
import { signatureHeaders } from "./signing.ts";

/** Each attempt, connection set-up, redirects and the answer's body included, must be over within 10 seconds. */
export const attemptTimeoutMs = 10_000;
export const maxRedirects = 3;
/** Connections kept open per receiver: as many as the worker has sends in flight. */
export const connectionsPerOrigin = 64;

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

const policyOf = (settings: SandboxSettings): DestinationPolicy => ({
  allowLoopback: settings.allowInsecureWebhooks,
});

/**
 * One connection pool per sandbox instance. Its `lookup` refuses names that
 * resolve to a refused address; TLS is verified as usual (a publicly valid
 * certificate is required).
 */
const agents = new WeakMap<SandboxSettings, Agent>();
function agentFor(settings: SandboxSettings): Agent {
  let agent = agents.get(settings);
  if (!agent) {
    agent = new Agent({
      connections: connectionsPerOrigin,
      connect: { lookup: checkedLookup(policyOf(settings)) as never, timeout: attemptTimeoutMs },
    });
    agents.set(settings, agent);
  }
  return agent;
}

export interface SendInput {
  webhook: WebhookDoc;
  deliveryId: string;
  event: DeliveryDoc["event"];
  /** Attempt number, from 1; a redelivery continues the count. */
  attempt: number;
  /** The envelope, sent byte for byte. */
  body: string;
  /** Sandbox time: decides which secrets sign (the rotation overlap follows the sandbox clock). */
  now: number;
}

/**
 * An attempt's headers, signed afresh, as a flat name, value list (not an object: a header named
 * `__proto__` is a header like any other), and the `SVC-Signature` sent.
 */
function attemptHeaders(input: SendInput, secrets: ReturnType<typeof activeSecrets>, realNowMs: number) {
  // Real time, not the sandbox clock: receivers judge the timestamp against their own clocks.
  const signed = signatureHeaders(input.deliveryId, input.body, secrets, Math.floor(realNowMs / 1000));
  const own: Record<string, string> = {
    "content-type": "application/json",
    "SVC-Event": input.event,
    "SVC-Delivery": input.deliveryId,
    "SVC-Webhook": input.webhook.id,
    "SVC-Attempt": String(input.attempt),
    ...signed,
  };
  // Custom headers are added but never replace the delivery's own (names compared in any case).
  const taken = new Set(Object.keys(own).map((name) => name.toLowerCase()));
  const headers: string[] = [
    ...input.webhook.headers
      .filter(({ header }) => !taken.has(header.toLowerCase()))
      .flatMap(({ header, value }) => [header, value]),
    ...Object.entries(own).flat(),
  ];
  return { headers, signature: signed["SVC-Signature"]! };
}

/**
 * An attempt taken by an in-process receiver (`startSandbox({webhookReceiver})`): the same signed request,
 * handed over instead of sent, and judged by the status the receiver answers. Nothing goes over the network,
 * so the destination rules have nothing to judge.
 */
function receiveInProcess(
  receiver: WebhookReceiver,
  input: SendInput,
  secrets: ReturnType<typeof activeSecrets>,
  realNowMs: number,
): AttemptResult {
  const { headers: flat, signature } = attemptHeaders(input, secrets, realNowMs);
  const headers: Record<string, string> = Object.create(null);
  for (let i = 0; i < flat.length; i += 2) headers[flat[i]!] = flat[i + 1]!;
  let status: number;
  try {
    ({ status } = receiver({ url: input.webhook.url, headers, body: input.body }));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      verdict: "retryable",
      statusCode: null,
      latencyMs: 0,
      error: `receiver failed: ${message}`,
      signatureSent: signature,
    };
  }
  const verdict = verdictOf(status);
  return {
    verdict,
    statusCode: status,
    latencyMs: 0,
    error: verdict === "delivered" ? null : `receiver answered ${status}`,
    signatureSent: signature,
  };
}

/** `Retry-After` as seconds, from either of its forms. */
function retryAfterSec(value: string | string[] | undefined, realNowMs: number): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return undefined;
  if (/^\d+$/.test(text.trim())) return Number(text.trim());
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - realNowMs) / 1000));
}

function verdictOf(status: number): AttemptResult["verdict"] {
  if (status >= 200 && status < 300) return "delivered";
  if (status === 410) return "gone";
  if (status === 408 || status === 429 || status >= 500) return "retryable";
  return "permanent";
}

function describe(error: unknown, deadline: AbortSignal, timeoutMs: number): string {
  const code = (error as { code?: string }).code;
  if (deadline.aborted || code === "UND_ERR_CONNECT_TIMEOUT") {
    return `timed out: attempt not over within ${timeoutMs / 1000} s`;
  }
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : undefined;
  const root = cause ?? (error as Error);
  const rootCode = (root as NodeJS.ErrnoException).code;
  return rootCode && !root.message.includes(rootCode) ? `${rootCode}: ${root.message}` : root.message;
}

/**
 * Sends one attempt: POSTs the body with fresh signature headers, follows up to
 * three https redirects (each hop signed anew), and judges the final answer.
 * The whole attempt (connecting, every hop, each answer's body) must be over
 * within `timeoutMs` (10 s; tests shorten it). Never throws: transport
 * failures are retryable results.
 */
export async function sendAttempt(
  settings: SandboxSettings,
  input: SendInput,
  timeoutMs = attemptTimeoutMs,
): Promise<AttemptResult> {
  const policy = policyOf(settings);
  const time = settings.time ?? realTime;
  const secrets = activeSecrets(input.webhook, input.now);
  if (settings.webhookReceiver) return receiveInProcess(settings.webhookReceiver, input, secrets, time.now());
  const started = performance.now();
  // One deadline for the whole attempt: connecting, every hop, and reading each answer.
  // A timer cleared when the attempt ends: AbortSignal.timeout would keep one alive 10 s per attempt.
  const controller = new AbortController();
  const deadline = controller.signal;
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const elapsed = () => Math.round(performance.now() - started);
  let signatureSent = "";
  let target = input.webhook.url;
  try {
    for (let hop = 0; ; hop++) {
      const url = checkUrl(target, policy);
      const { headers, signature } = attemptHeaders(input, secrets, time.now());
      if (hop === 0) signatureSent = signature;
      const res = await request(url, {
        method: "POST",
        headers,
        body: input.body,
        dispatcher: agentFor(settings),
        signal: deadline,
      });
      await res.body.dump();
      // dump() ends quietly when the deadline cuts the body short: the answer was not over in time.
      deadline.throwIfAborted();
      const location = res.headers.location;
      if (redirectStatuses.has(res.statusCode) && typeof location === "string") {
        if (hop === maxRedirects) {
          return {
            verdict: "permanent",
            statusCode: res.statusCode,
            latencyMs: elapsed(),
            error: `more than ${maxRedirects} redirects`,
            signatureSent,
          };
        }
        target = new URL(location, url).href;
        continue;
      }
      const verdict = verdictOf(res.statusCode);
      return {
        verdict,
        statusCode: res.statusCode,
        latencyMs: elapsed(),
        error: verdict === "delivered" ? null : `receiver answered ${res.statusCode}`,
        retryAfterSec:
          res.statusCode === 429 ? retryAfterSec(res.headers["retry-after"], time.now()) : undefined,
        signatureSent,
      };
    }
  } catch (error) {
    const refused = error instanceof DestinationRefused;
    return {
      // A redirect to a refused scheme cannot succeed later; a refused address may (DNS changes).
      verdict: refused && error.reason === "scheme_not_allowed" ? "permanent" : "retryable",
      statusCode: null,
      latencyMs: elapsed(),
      error: refused ? `destination not allowed: ${error.message}` : describe(error, deadline, timeoutMs),
      signatureSent,
    };
  } finally {
    clearTimeout(timer);
  }
}
