import type { z } from "zod";
import type { LeafScope, ProblemCodeName } from "../../kinds/index.ts";
import type { TimeSource } from "../../kinds/time.ts";
import type { BackgroundControl } from "./background.ts";
import type { Clock } from "./clock.ts";
import type { CursorCodec } from "./cursor.ts";
import type { Faults } from "./faults.ts";
import type { QueryParam } from "./query.ts";
import type { Meter } from "./quota.ts";
import type { Store } from "./store.ts";
import type { TokenAuthority, TokenClaims } from "./tokens.ts";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Which rate bucket an operation spends from. */
export type Metering =
  /** The account quota windows of the scope's pool (account or check). */
  | "quota"
  /** Free: `GET /account/quota`. */
  | "free"
  /** Anonymous catalogue: per client address, or per account with a token. */
  | "catalogue"
  /** `GET /agent/ip`: its own per-address bucket. */
  | "agentIp"
  /** `/_sandbox/` control routes: admin token, never metered. */
  | "admin";

export interface Account {
  id: string;
  accountId: string;
  login: string;
  plan: "trial" | "business" | "enterprise";
  [member: string]: unknown;
}

/** What a handler sees. Everything it needs is passed in; nothing is global. */
export interface Ctx {
  store: Store;
  clock: Clock;
  tokens: TokenAuthority;
  now: number;
  baseUrl: string;
  requestId: string;
  clientIp: string;
  /** The authenticated account; absent on anonymous calls. */
  account?: Account;
  claims?: TokenClaims;
  /** Sandbox-wide services (outbox, stats, settings) later issues extend. */
  services: SandboxServices;
}

export interface SandboxServices {
  cursors: CursorCodec;
  meter: Meter;
  adminToken: string;
  /** Request counts of the public API, for `/_sandbox/stats`. */
  stats: { reset(): void; toJSON(): unknown };
  /** The id of the account the sandbox created at first start. */
  defaultAccountId: () => string;
  /** The operation table this app serves, for the OpenAPI document and the problem pages. */
  operations: readonly Operation[];
  /** Timers and asynchronous work (jobs, webhook deliveries); `kick` after queueing work. */
  background: BackgroundControl;
  /** Fault injection of public API calls (`/_sandbox/faults`). */
  faults: Faults;
  settings: SandboxSettings;
}

/** Start-up switches of a sandbox instance. */
export interface SandboxSettings {
  /** Lets webhooks deliver over plain http to loopback addresses, for local tests only. */
  allowInsecureWebhooks: boolean;
  /** The clock stands still but for the clock route (core/clock.ts). */
  manualClock?: boolean;
  /** Takes every webhook delivery in-process instead of sending it over the network. */
  webhookReceiver?: WebhookReceiver;
  /** The real time under the sandbox clock, the background ticker's and the deliveries'; `realTime` when absent. */
  time?: TimeSource;
}

/** One signed attempt of a delivery, as it would go over the wire. */
export interface ReceivedWebhook {
  url: string;
  /** Header names as sent (`SVC-Signature`, `webhook-signature`, the webhook's own headers). */
  headers: Record<string, string>;
  body: string;
}

/** An in-process receiver: answers the status code a receiver would. */
export type WebhookReceiver = (request: ReceivedWebhook) => { status: number };

export interface OpRequest {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
}

export interface Reply {
  status: number;
  body?: unknown;
  /** A body sent as is instead of JSON (an HTML page); set its `content-type` in `headers`. */
  text?: string;
  headers?: Record<string, string>;
}

export interface Operation {
  /** operationId, e.g. `monitor.get`. */
  id: string;
  method: HttpMethod;
  /** OpenAPI path template, e.g. `/monitor/{id}`. */
  path: string;
  summary: string;
  /** The leaf scope required; null for anonymous operations. */
  scope: LeafScope | null;
  /**
   * The handler checks scopes itself, against the resource it serves (job
   * routes: the scope of the operation that created the job); `scope` then
   * only picks the quota windows.
   */
  scopeByHandler?: boolean;
  /** Further scopes a particular body needs (compound writes). */
  extraScopes?: (body: unknown) => LeafScope[];
  /** Quota class; by default GET reads and every other method writes (see `quotaClassOf`). */
  quotaClass?: "read" | "write";
  /** Rate bucket; by default `quota` with a scope and `catalogue` without (see `meteringOf`). */
  metering?: Metering;
  query?: Record<string, QueryParam>;
  /** A `POST <path>/q` twin: `query` arrives as the JSON body (set by `listOperations`). */
  queryInBody?: boolean;
  /** Validated before the scope check, as the spec requires. */
  body?: z.ZodType;
  /** `required`, or a predicate for operations that need a key only for some bodies. */
  idempotency?: "required" | ((req: OpRequest) => boolean);
  /** Codes this operation can answer, for the OpenAPI document. */
  errors: ProblemCodeName[];
  /** Description of the success answer for the OpenAPI document. */
  response?: {
    status: number;
    description: string;
    schema?: z.ZodType;
    /** The media types of a file answer (sent through `Reply.text`); JSON when absent. */
    mediaTypes?: readonly string[];
  };
  /** Hidden from the OpenAPI document (sandbox-only routes). */
  internal?: boolean;
  /**
   * The handler awaits something outside the sandbox (an outgoing request): it
   * runs outside any store transaction and commits its own writes with
   * `store.transaction`. Without it, a handler answers synchronously inside one.
   */
  async?: boolean;
  handle(ctx: Ctx, req: OpRequest): Reply | Promise<Reply>;
}

export function defineOperations(...operations: Operation[]): Operation[] {
  return operations;
}

/** The rate bucket an operation spends from. */
export function meteringOf(op: Operation): Metering {
  return op.metering ?? (op.scope ? "quota" : "catalogue");
}

/** Whether a call spends the read or the write windows. */
export function quotaClassOf(op: Operation): "read" | "write" {
  return op.quotaClass ?? (op.method === "GET" ? "read" : "write");
}

/**
 * Keys apply to an account's writes only: not to GET, nor to POST reads such
 * as the `/q` twins, `validate-cron` or `resolve` (replaying a read would answer stale data).
 */
export function takesIdempotencyKey(op: Operation): boolean {
  return op.scope !== null && quotaClassOf(op) === "write";
}

/** A path template with its parameter names erased: `/monitor/{id}` and `/monitor/{monitorId}` are one path. */
export const pathShape = (path: string) => path.replace(/\{\w+\}/g, "{}");
