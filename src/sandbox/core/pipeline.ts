import type { ServerResponse } from "node:http";
import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { issuesToEntries, type LeafScope, retiredScopes, scopeSatisfies } from "../../kinds/index.ts";
import type { Fault } from "./faults.ts";
import { findRecord, fingerprint, idempotencyTtl, recordId, saveRecord } from "./idempotency.ts";
import type { KeyClaim } from "./in-flight.ts";
import { ipAllowed, normalizeIp } from "./ip.ts";
import { accountMemberOf } from "./members.ts";
import {
  type Account,
  type Ctx,
  meteringOf,
  type Operation,
  type OpRequest,
  quotaClassOf,
  type Reply,
  takesIdempotencyKey,
} from "./operation.ts";
import { ApiProblem, invalid, renderProblem } from "./problem.ts";
import { parseQuery, rawFromBody, rawFromSearch } from "./query.ts";
import { type Charge, chargeFor } from "./quota.ts";
import { sameSecret } from "./secrets.ts";
import type { SandboxState } from "./state.ts";
import type { TokenClaims } from "./tokens.ts";

/** What the pipeline learns about a request before its handler runs. */
export interface RequestState {
  requestId: string;
  account?: Account;
  claims?: TokenClaims;
  charge?: Charge;
  /** The idempotency key this request holds in flight, until it is over (core/in-flight.ts). */
  claim?: KeyClaim;
  /** Headers a per-address throttle asks to send. */
  rateHeaders?: Record<string, string>;
  /** The fault drawn for this call (core/faults.ts). */
  fault?: Fault;
}

const catalogueLimit = { limit: 120, windowSec: 300 };
const agentIpLimit = { limit: 60, windowSec: 300 };

/** Member rights that back each scope for shared-access members (absent: any member may). */
const rightForScope: Partial<Record<LeafScope, string>> = {
  "monitor:read": "monitor:read",
  "monitor:write": "monitor:write",
  "contact:read": "contact:read",
  "contact:write": "contact:write",
  "subs:read": "monitor:read",
  "webhook:read": "monitor:read",
  "webhook:write": "monitor:write",
  "statuspage:read": "statusPage:read",
  "statuspage:write": "statusPage:write",
  "account:write": "profile:write",
  "check:read": "monitor:read",
  "check:write": "monitor:write",
};

function bearer(req: FastifyRequest): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const m = /^Bearer\s+(\S+)$/i.exec(header);
  return m ? m[1] : "";
}

const missingToken = () =>
  new ApiProblem("invalid_token", "This operation needs a bearer token.", {
    errors: [{ reason: "missing" }],
    headers: { "www-authenticate": "Bearer" },
  });

const badToken = (detail = "The token is invalid or expired.") =>
  new ApiProblem("invalid_token", detail, {
    errors: [{ reason: "invalid" }],
    headers: { "www-authenticate": "Bearer error=invalid_token" },
  });

/**
 * Runs before the body is read: authentication, the IP allow-list, metering
 * (per-minute windows count refused calls too), and claiming the
 * idempotency key, so a second request with the same key while this one is
 * still arriving answers `in_flight`.
 */
export function admit(
  state: SandboxState,
  op: Operation,
  req: FastifyRequest,
  res: ServerResponse,
  rs: RequestState,
): void {
  const now = state.clock.now();
  const clientIp = normalizeIp(req.socket.remoteAddress);
  const metering = meteringOf(op);

  if (metering === "admin") {
    const given = bearer(req);
    if (given === undefined) throw missingToken();
    if (!sameSecret(given, state.services.adminToken)) throw badToken();
    return;
  }

  const token = bearer(req);
  if (token === undefined && op.scope !== null) throw missingToken();
  if (token !== undefined) {
    const claims = token ? state.tokens.verify(token) : undefined;
    const account = claims ? state.store.get<Account>("account", claims.acc) : undefined;
    if (!claims || !account || claims.exp <= now) throw badToken();
    if (claims.ips && !ipAllowed(clientIp, claims.ips)) {
      throw new ApiProblem("ip_not_allowed", "The caller's address is not in this token's allow-list.", {
        errors: [{ clientIp }],
      });
    }
    const flags = account.flags as { apiEnabled: boolean };
    if (!flags.apiEnabled && metering === "quota") throw badToken("API access is disabled for this account.");
    rs.account = account;
    rs.claims = claims;
  }

  if (metering === "catalogue" || metering === "agentIp") {
    const bucket = metering === "catalogue" ? catalogueLimit : agentIpLimit;
    const who = rs.account ? `account:${rs.account.id}` : `ip:${clientIp}`;
    const headers = state.meter.throttle(`${metering}|${who}`, bucket.limit, bucket.windowSec, now);
    if (metering === "agentIp") rs.rateHeaders = headers;
    return;
  }

  if (metering === "quota" && rs.account && rs.account.metered !== false) {
    rs.charge = chargeFor(op.scope!, quotaClassOf(op));
    state.meter.admit(rs.account.id, rs.account.plan, rs.charge, now, rs.claims);
  } else if (metering === "quota" && rs.claims?.cap !== undefined) {
    // An unmetered account has no windows, but a token's self-cap is the token's own promise: keep it.
    state.meter.spendTokenCap(rs.claims, now);
  }

  const key = req.headers["idempotency-key"];
  if (typeof key === "string" && takesIdempotencyKey(op) && rs.account) {
    if (key.length === 0 || key.length > 255) {
      throw new ApiProblem("malformed_request", "Idempotency-Key is 1 to 255 characters.", {
        errors: [{ pointer: "/headers/Idempotency-Key", reason: "out_of_range", maximum: 255 }],
      });
    }
    const id = recordId(rs.account.id, key);
    if (state.inFlight.has(id)) {
      throw new ApiProblem("idempotency_key_conflict", "A request with this key is still in flight.", {
        errors: [{ reason: "in_flight" }],
        headers: { "Retry-After": "1" },
      });
    }
    rs.claim = state.inFlight.claim(id, res);
  }
}

/** Runs the operation once the body is read, and writes the answer. */
export function execute(
  state: SandboxState,
  op: Operation,
  req: FastifyRequest,
  reply: FastifyReply,
  rs: RequestState,
): void | Promise<void> {
  const now = state.clock.now();
  const opReq = requestOf(op, req);
  authorize(op, opReq, rs);
  const key = idempotencyKeyOf(op, opReq);
  const fp = key !== undefined && rs.account ? fingerprint(op.method, req.url, req.body) : undefined;
  const record =
    fp && rs.account && key !== undefined ? { accountId: rs.account.id, key, fingerprint: fp } : undefined;
  const previous = record && replayOf(state, record, now);
  if (previous) {
    send(
      reply,
      previous.status,
      { ...previous.headers, "Idempotency-Replayed": "true" },
      previous.body,
      rs,
      state,
    );
    return;
  }
  return run(state, op, req, reply, rs, { opReq, record, now });
}

/**
 * The request as a handler sees it: its query parsed against the operation's vocabulary (a `/q` twin's
 * from its body), and its body validated (before the scope check, as the spec requires).
 */
function requestOf(op: Operation, req: FastifyRequest): OpRequest {
  const url = req.url;
  const search = url.includes("?") ? url.slice(url.indexOf("?") + 1) : "";
  const isQueryTwin = op.queryInBody === true;
  const opReq: OpRequest = {
    params: req.params as Record<string, string>,
    query: {},
    body: isQueryTwin ? undefined : req.body,
    headers: req.headers,
  };
  // A `/q` twin reads its parameters from the body; a query string beside it is refused, not ignored.
  if (isQueryTwin && search !== "") parseQuery(rawFromSearch(search), {}, false);
  if (op.query) {
    opReq.query = parseQuery(
      isQueryTwin ? rawFromBody(req.body) : rawFromSearch(search),
      op.query,
      isQueryTwin,
    );
  } else if (search !== "") {
    opReq.query = parseQuery(rawFromSearch(search), {}, false);
  }

  const schema = bodySchemaOf(op);
  if (schema) {
    // No body at all reads as `{}`; a JSON `null` is a body, and not an object.
    const input = req.body === undefined ? {} : req.body;
    const parsed = schema.safeParse(input);
    if (!parsed.success) throw invalid(issuesToEntries(parsed.error.issues, input, schema));
    if (op.body) opReq.body = input;
  }
  return opReq;
}

/**
 * The token's scopes (retired ones granting nothing) must satisfy the operation's and those its body
 * needs, and a shared-access member must hold the right behind each.
 */
export function authorize(
  op: Operation,
  opReq: OpRequest,
  rs: Pick<RequestState, "account" | "claims">,
): void {
  if (!op.scope || !rs.claims || op.scopeByHandler) return;
  const granted = rs.claims.scp.filter((s) => !(retiredScopes as readonly string[]).includes(s));
  for (const required of [op.scope, ...(op.extraScopes?.(opReq.body) ?? [])]) {
    if (!scopeSatisfies(granted, required)) {
      throw new ApiProblem("missing_scope", `This operation needs ${required}.`, {
        errors: [{ required, granted }],
      });
    }
    const right = rightForScope[required];
    const member = rs.claims.mem ? accountMemberOf(rs.account!, rs.claims.mem) : undefined;
    if (rs.claims.mem && (!member || (right && !member.rights.includes(right)))) {
      throw new ApiProblem("insufficient_rights", `The member behind this token lacks ${right}.`, {
        errors: [{ required: right, granted: member?.rights ?? [] }],
      });
    }
  }
}

/** The request's idempotency key (reads ignore it), refusing a write that must carry one and does not. */
export function idempotencyKeyOf(op: Operation, opReq: OpRequest): string | undefined {
  // Reads ignore the key: replaying a stored read would answer stale data.
  const key = takesIdempotencyKey(op) ? (opReq.headers["idempotency-key"] as string | undefined) : undefined;
  const needsKey =
    op.idempotency === "required" || (typeof op.idempotency === "function" && op.idempotency(opReq));
  if (needsKey && key === undefined) {
    throw new ApiProblem(
      "idempotency_key_required",
      `${op.method} ${op.path} must carry an Idempotency-Key header.`,
    );
  }
  return key;
}

/** What a request's answer is recorded under, for a replay of the same key. */
interface RecordKey {
  accountId: string;
  key: string;
  fingerprint: string;
}

/** The recorded answer of an earlier request with this key, refusing one that came with a different request. */
function replayOf(state: SandboxState, record: RecordKey, now: number) {
  const previous = findRecord(state.store, record.accountId, record.key, now);
  if (previous && previous.fingerprint !== record.fingerprint) {
    throw new ApiProblem("idempotency_key_conflict", "This key was used with a different request.", {
      errors: [{ reason: "different_body" }],
    });
  }
  return previous;
}

/**
 * Runs the handler inside a store transaction (an async one commits its own) and answers; the answer, or a
 * refusal the handler decided, is recorded for the key in the same transaction.
 */
function run(
  state: SandboxState,
  op: Operation,
  req: FastifyRequest,
  reply: FastifyReply,
  rs: RequestState,
  { opReq, record, now }: { opReq: OpRequest; record: RecordKey | undefined; now: number },
): void | Promise<void> {
  const ctx: Ctx = {
    store: state.store,
    clock: state.clock,
    tokens: state.tokens,
    now,
    baseUrl: state.baseUrl,
    requestId: rs.requestId,
    clientIp: normalizeIp(req.socket.remoteAddress),
    account: rs.account,
    claims: rs.claims,
    services: state.services,
  };
  const remember = (status: number, headers: Record<string, string>, body: string) => {
    if (record) {
      saveRecord(state.store, {
        id: recordId(record.accountId, record.key),
        accountId: record.accountId,
        fingerprint: record.fingerprint,
        status,
        headers,
        body,
        expiresAt: now + idempotencyTtl,
      });
    }
  };

  const recorded = (out: Reply) => {
    const headers = { "content-type": "application/json; charset=utf-8", ...out.headers };
    const text = out.text ?? (out.body === undefined ? "" : JSON.stringify(out.body));
    remember(out.status, headers, text);
    return { reply: out, text, headers };
  };
  // A refusal decided by the handler is the key's answer too; retrying the same body gets it again.
  const refused = (error: unknown) => {
    if (error instanceof ApiProblem && error.status < 500) {
      const doc = renderProblem(error, state.baseUrl, req.url);
      state.store.transaction(() =>
        remember(error.status, { "content-type": "application/problem+json", ...error.headers }, doc),
      );
    }
    return error;
  };
  const answer = (result: ReturnType<typeof recorded>) => {
    send(reply, result.reply.status, result.headers, result.text, rs, state);
    // A write may have queued work (job items, deliveries): start it once this answer is out.
    if (quotaClassOf(op) === "write") state.background.kick();
  };

  if (op.async) {
    return (async () => {
      let out: Reply;
      try {
        out = await op.handle(ctx, opReq);
      } catch (error) {
        throw refused(error);
      }
      answer(state.store.transaction(() => recorded(out)));
    })();
  }

  let result: ReturnType<typeof recorded>;
  try {
    result = state.store.transaction(() => {
      const out = op.handle(ctx, opReq);
      if (out instanceof Promise) throw new Error(`${op.id} must answer synchronously`);
      return recorded(out);
    });
  } catch (error) {
    throw refused(error);
  }
  answer(result);
}

function send(
  reply: FastifyReply,
  status: number,
  headers: Record<string, string>,
  text: string,
  rs: RequestState,
  state: SandboxState,
) {
  const now = state.clock.now();
  const out = { ...headers, ...rs.rateHeaders };
  if (rs.charge && rs.account) {
    if (status < 400) state.meter.settle(rs.account.id, rs.account.plan, rs.charge, now);
    Object.assign(out, state.meter.headers(rs.account.id, rs.account.plan, rs.charge, now));
  }
  reply
    .code(status)
    .headers(out)
    .send(text === "" ? undefined : text);
}

/** Writes without a body schema take none: a sent body is judged as a strict empty object. */
const noBody = z.strictObject({});

/**
 * The schema a request body is validated against. GET bodies are ignored, `/q`
 * twins read theirs as the query, and `/_sandbox/` routes judge their own.
 */
function bodySchemaOf(op: Operation): z.ZodType | undefined {
  if (op.body) return op.body;
  return op.method === "GET" || op.queryInBody || op.internal ? undefined : noBody;
}
