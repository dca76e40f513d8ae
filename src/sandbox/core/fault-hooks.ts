import type { FastifyReply, FastifyRequest } from "fastify";
import { faultProblem, routeOf } from "./faults.ts";
import type { Operation } from "./operation.ts";
import { renderProblem } from "./problem.ts";
import type { SandboxState } from "./state.ts";

/**
 * The route hooks that inject the faults drawn by `Faults` (faults.ts): they
 * reach into the whole sandbox state (stats), which the
 * fault configuration itself does not need.
 */

/** Aborts the connection with a TCP reset: the client sees ECONNRESET and no answer. */
function resetConnection(req: FastifyRequest): void {
  req.raw.socket.resetAndDestroy();
}

/**
 * Route `onRequest`, before authentication and metering: adds the latency and,
 * for a `before` fault, answers (or resets) at once, so the call changes
 * nothing, spends no quota and claims no idempotency key. Returns true when
 * the call is over.
 */
export async function faultBefore(
  state: SandboxState,
  op: Operation,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<boolean> {
  const drawn = state.faults.draw(op);
  if (!drawn) return false;
  if (drawn.latencyMs > 0) await state.time.sleep(drawn.latencyMs);
  const fault = drawn.fault;
  if (!fault) return false;
  req.vigil.fault = fault;
  if (fault.when === "after") return false;
  state.faults.injected.before++;
  if (fault.reset) {
    state.faults.injected.reset++;
    state.stats.count(routeOf(op), "reset");
    reply.hijack();
    resetConnection(req);
    return true;
  }
  throw faultProblem(fault, req.vigil.requestId);
}

/** Headers an `after` fault keeps from the lost answer: the request id and the meter's. */
const kept = (name: string) => name === "x-request-id" || name.startsWith("ratelimit-");

/**
 * Route `onSend`, once the handler's transaction (and idempotency record) is
 * committed: an `after` fault replaces the answer, whatever it was, with its
 * problem, or resets the connection. Returns the payload to send.
 */
export function faultAfter(
  state: SandboxState,
  op: Operation,
  req: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): unknown {
  const fault = req.vigil.fault;
  if (fault?.when !== "after") return payload;
  state.faults.injected.after++;
  if (fault.reset) {
    state.faults.injected.reset++;
    state.stats.count(routeOf(op), "reset");
    resetConnection(req);
    return payload;
  }
  const problem = faultProblem(fault, req.vigil.requestId);
  for (const name of Object.keys(reply.getHeaders())) if (!kept(name)) reply.removeHeader(name);
  reply.code(problem.status).headers(problem.headers).type("application/problem+json; charset=utf-8");
  return renderProblem(problem, state.baseUrl, req.url);
}
