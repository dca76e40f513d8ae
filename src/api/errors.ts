import {
  type ProblemCodeName,
  type ProblemDetailEntry,
  type ProblemFamily,
  problemCodes,
  problemFamily,
} from "../kinds/problems.ts";
import { describeProblem, type MemberProblem, type ProblemDescription } from "./problem-text.ts";

/**
 * One refused call, from its problem document. `code` is the service's code as
 * sent: a code this client does not know is kept and surfaced (`known: false`),
 * never mapped to another. A body that is no problem document (a proxy's HTML
 * page) gets the code `http_<status>`, so callers can still branch on it.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly detail: string | undefined;
  readonly errors: ProblemDetailEntry[];
  readonly requestId: string;
  /** The code's family in the problem table (by status for a code it lacks): fix the request, fix the account state, or wait and retry. */
  readonly family: ProblemFamily;
  /** Whether `code` is in the spec's table. */
  readonly known: boolean;
  /** Seconds from `Retry-After`, when the answer carried one (read by the client against its `TimeSource`). */
  readonly retryAfter: number | undefined;
  /** The route template of the call, e.g. `POST /monitor`. */
  readonly route: string;
  /** HTTP requests the call made, retries included. */
  readonly attempts: number;
  /** The whole problem document, extension members included. */
  readonly problem: Record<string, unknown>;

  constructor(init: {
    status: number;
    body: unknown;
    headers: Record<string, string>;
    route: string;
    attempts: number;
    /** The answer's `Retry-After` in seconds (`retryAfterSeconds`). */
    retryAfter?: number | undefined;
  }) {
    const problem = isRecord(init.body) ? init.body : {};
    const code = typeof problem.code === "string" ? problem.code : `http_${init.status}`;
    const known = Object.hasOwn(problemCodes, code);
    const title =
      typeof problem.title === "string"
        ? problem.title
        : known
          ? problemCodes[code as ProblemCodeName].title
          : `HTTP ${init.status}`;
    const detail = typeof problem.detail === "string" ? problem.detail : undefined;
    const requestId = init.headers["x-request-id"] ?? "";
    super(
      `${init.route}: ${init.status} ${code}: ${detail ?? title}${requestId ? ` (request ${requestId})` : ""}`,
    );
    this.name = "ApiError";
    this.status = init.status;
    this.code = code;
    this.title = title;
    this.detail = detail;
    this.errors = Array.isArray(problem.errors) ? (problem.errors as ProblemDetailEntry[]) : [];
    this.requestId = requestId;
    this.family = problemFamily(code, init.status);
    this.known = known;
    this.retryAfter = init.retryAfter;
    this.route = init.route;
    this.attempts = init.attempts;
    this.problem = problem;
  }

  /** The `reason` of the first `errors[]` entry that has one (e.g. `in_flight`, `different_body`). */
  get reason(): string | undefined {
    return this.errors.find((e) => typeof e.reason === "string")?.reason;
  }

  /** Every member of the problem document, said (see `describeProblem`): what frontends lay out. */
  get description(): ProblemDescription {
    return describeProblem({ status: this.status, code: this.code, title: this.title, ...this.problem });
  }

  /** The `errors[]` entries that name a member (a JSON pointer; `""` is the whole body), each said in full. */
  get memberErrors(): MemberProblem[] {
    return this.description.members;
  }
}

/**
 * A failed job or bulk item's problem as the single route would have answered it, the one mapping every
 * bulk path uses: pointers under the item (`/items/3/url`, `/create/2/alertTypes`) moved to the object's
 * own (`/url`, `/alertTypes`).
 */
export function itemError(problem: Record<string, unknown>, prefix: string, route: string): ApiError {
  const entries = Array.isArray(problem.errors) ? (problem.errors as Record<string, unknown>[]) : [];
  const errors = entries.map((e) =>
    typeof e.pointer === "string" && (e.pointer === prefix || e.pointer.startsWith(`${prefix}/`))
      ? { ...e, pointer: e.pointer.slice(prefix.length) }
      : e,
  );
  const status = typeof problem.status === "number" ? problem.status : 422;
  // The service's detail may name the item's pointers too (`/items/1/interval is …`).
  const detail =
    typeof problem.detail === "string" ? problem.detail.replaceAll(`${prefix}/`, "/") : problem.detail;
  return new ApiError({
    status,
    body: { ...problem, errors, ...(detail !== undefined && { detail }) },
    headers: {},
    route,
    attempts: 1,
  });
}

/** The call never got an answer: the connection failed or the timeout struck, on every attempt allowed. */
export class NetworkError extends Error {
  readonly reason: "timeout" | "network";
  readonly route: string;
  readonly attempts: number;

  constructor(init: { reason: "timeout" | "network"; route: string; attempts: number; cause: unknown }) {
    const what = init.reason === "timeout" ? "timed out" : "failed on the network";
    const text = causeText(init.cause);
    const cause = text ? `: ${text}` : "";
    super(`${init.route} ${what} after ${init.attempts} attempt(s)${cause}`, { cause: init.cause });
    this.name = "NetworkError";
    this.reason = init.reason;
    this.route = init.route;
    this.attempts = init.attempts;
  }
}

/** The object is not there (404, or 410 for one the service removed): deleted outside, or with its parent. */
export function isGone(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 410);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The innermost message of a transport failure (undici wraps `ECONNREFUSED` in `fetch failed`). */
export function causeText(cause: unknown): string | undefined {
  let current = cause;
  let text: string | undefined;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    text = current.message || text;
    current = current.cause;
  }
  return text;
}
