import type { ProblemCodeName, ProblemFamily } from "../../kinds/index.ts";
import { meteringOf, type Operation, takesIdempotencyKey } from "../core/operation.ts";

/** The spec's three families: what a client does about a code. */
export const families: Record<ProblemFamily, { title: string; action: string }> = {
  "fix-request": { title: "Fix the request", action: "Change the payload; do not retry it unchanged." },
  "fix-account-state": {
    title: "Fix the account state",
    action: "Something outside the request must change.",
  },
  "wait-and-retry": {
    title: "Wait and retry",
    action: "Honour Retry-After, else back off exponentially with jitter.",
  },
};

/** Whether the pipeline reads a JSON body for this operation (a write without a body schema refuses one). */
const readsBody = (op: Operation) => op.method !== "GET";

/**
 * Every code an operation can answer: the ones it lists, plus those the
 * pipeline adds on its way to the handler (authentication, metering, query
 * and body parsing, idempotency). The OpenAPI responses and the problem pages
 * both read this, so they never disagree.
 */
export function errorCodesOf(op: Operation): ProblemCodeName[] {
  const codes = new Set<ProblemCodeName>(op.errors);
  const metering = meteringOf(op);
  // Query strings are a closed vocabulary on every route, and anything may fail unexpectedly, meet
  // a failing dependency or find the service unavailable (the sandbox answers these under fault injection).
  codes.add("unknown_parameter").add("internal_error").add("upstream_error").add("service_unavailable");
  // A token is checked whenever one is sent, even to an anonymous operation.
  codes.add("invalid_token").add("ip_not_allowed");
  if (op.scope) codes.add("missing_scope").add("insufficient_rights");
  if (metering === "quota") codes.add("quota_exceeded");
  if (metering === "catalogue" || metering === "agentIp") codes.add("rate_limited");

  const params = Object.entries(op.query ?? {});
  if (params.length > 0) codes.add("validation_failed");
  if (params.some(([, p]) => p.type === "enum" || p.type === "bool")) codes.add("unknown_enum_value");
  if (params.some(([name]) => name === "limit")) codes.add("invalid_limit");

  if (readsBody(op)) {
    codes.add("malformed_request").add("payload_too_large").add("unsupported_media_type");
    codes.add("validation_failed");
  }
  if (takesIdempotencyKey(op)) {
    // Idempotency-Key is accepted on every write: a bad key is malformed, a reused one conflicts.
    codes.add("malformed_request").add("idempotency_key_conflict");
  }
  if (op.idempotency) codes.add("idempotency_key_required");
  return [...codes].sort();
}
