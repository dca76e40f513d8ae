/**
 * What a failed command prints, and its exit code. Errors the user can act on
 * (config, state, API answers, stale plans) become one clear message; only
 * bugs show a stack trace.
 */
import {
  ApiError,
  describeProblem,
  NetworkError,
  type ProblemDescription,
  problemHeadline,
} from "../api/index.ts";
import type { ApplyFailure } from "../engine/apply/model.ts";
import {
  ConfigError,
  DeletionGuardError,
  explainIdempotencyConflict,
  PlanError,
  PlanFileError,
  RefreshError,
  RefreshOnlyPlanError,
  StalePlanError,
  StateBackendError,
  StateFileError,
  StateLockedError,
  StateNotSavedError,
  TamperedPlanError,
} from "../engine/index.ts";
import { formatDiagnostic, type LoadDiagnostic } from "../gitops/load.ts";

export { exitCodes } from "./exit-codes.ts";

/** An error whose message is the whole story: printed as is, exit 1. */
export class CliError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CliError";
  }
}

const userErrors = [
  CliError,
  ConfigError,
  DeletionGuardError,
  PlanError,
  PlanFileError,
  RefreshError,
  RefreshOnlyPlanError,
  StalePlanError,
  StateBackendError,
  StateFileError,
  StateLockedError,
  TamperedPlanError,
];

/** The message for an error that ends a command. */
export function describeError(error: unknown): string {
  const conflict = explainIdempotencyConflict(error);
  if (conflict) return conflict;
  if (error instanceof ApiError)
    return [
      `The API refused ${error.route}: ${problemHeadline(error.description)}`,
      ...memberLines(error.description),
    ].join("\n");
  if (error instanceof StateNotSavedError) return stateNotSavedMessage(error);
  if (userErrors.some((type) => error instanceof type)) return (error as Error).message;
  // The client wraps connection failures once its retries are spent: a wrong or down endpoint, not a bug.
  if (error instanceof NetworkError) return `Cannot reach the API: ${error.message}`;
  const code = (error as { code?: string }).code;
  if (code === "ECONNREFUSED" || code === "ENOTFOUND" || code === "UND_ERR_CONNECT_TIMEOUT")
    return `Cannot reach the API: ${(error as Error).message}`;
  // A system call refused on a path the user gave (a file where a directory belongs, no permission, a full
  // disk): Node's message says which call, on which path, and why. Their setup, not a bug: no stack trace.
  if (isSystemError(error)) return error.message;
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

function isSystemError(error: unknown): error is NodeJS.ErrnoException {
  const { code, syscall } = error as NodeJS.ErrnoException;
  return (
    error instanceof Error &&
    typeof syscall === "string" &&
    typeof code === "string" &&
    /^E[A-Z0-9]+$/.test(code)
  );
}

/**
 * One indented line per member the problem names: `  /interval: got 45; allowed: 30, 60`. `place` turns a
 * pointer into the user's own place for it (file:line:column and member path); by default the pointer itself.
 */
function memberLines(
  description: ProblemDescription,
  place: (pointer: string) => string = (pointer) => (pointer === "" ? "(the body)" : pointer),
): string[] {
  return description.members.map((m) => `  ${place(m.pointer)}: ${m.message}`);
}

/**
 * A resource that failed in apply, said once: the call's refusal with every member of its problem, each
 * member at its place in the user's files when `locate` knows it (`monitors.yaml:4:15: monitors.web
 * interval: got 45; allowed: 30, 60`).
 */
const participles: Record<string, string> = { create: "created", update: "updated", delete: "deleted" };

/**
 * Said once when the state could not be saved mid-run: what the account holds that the saved state does
 * not show, and that the next run settles it (docs/state.md, "When the database goes away mid-apply").
 */
export function stateNotSavedMessage(error: StateNotSavedError, command = "apply"): string {
  const lines = [error.message];
  const { unsaved } = error;
  if (unsaved.length === 0) lines.push("Every write made up to then is recorded in the state.");
  else {
    const counts = new Map<string, number>();
    for (const w of unsaved) counts.set(w.action, (counts.get(w.action) ?? 0) + 1);
    const n = unsaved.length;
    const shown = `${unsaved
      .slice(0, 3)
      .map((w) => w.address)
      .join(", ")}${n > 3 ? ` and ${n - 3} more` : ""}`;
    if (counts.size === 1 && counts.has("create"))
      lines.push(
        `${n === 1 ? "1 object was" : `${n} objects were`} created after the state was last saved (${shown}); the saved state holds ${n === 1 ? "it as a pending write" : "them as pending writes"}, and the next run adopts ${n === 1 ? "it" : "them"}: nothing is created twice.`,
      );
    else {
      const parts = ["create", "update", "delete"]
        .filter((a) => counts.has(a))
        .map((a) => `${counts.get(a)} ${participles[a]}`);
      const list = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
      lines.push(
        `${n === 1 ? "1 write" : `${n} writes`} ended after the state was last saved (${list}: ${shown}); the saved state holds them as pending writes, and the next run settles them from what the account shows: it adopts what was created (nothing is created twice) and plans the rest again.`,
      );
    }
  }
  lines.push(
    `No write started once the state could not be saved: run vigil ${command} again when the state's store is back.`,
  );
  return lines.join("\n");
}

export function failureLines(
  failure: ApplyFailure,
  locate?: (address: string, pointer: string) => LoadDiagnostic | undefined,
): string[] {
  const description = failure.problem ? describeProblem(failure.problem) : undefined;
  const facts = description?.facts.length ? ` (${description.facts.join("; ")})` : "";
  const head = `Error: ${failure.address}: ${failure.action} failed: ${failure.message}${facts}`;
  if (!description) return [head];
  const place = (pointer: string) => {
    const at = locate?.(failure.address, pointer);
    return at ? formatDiagnostic(at).replace(/: $/, "") : pointer === "" ? "(the body)" : pointer;
  };
  return [head, ...memberLines(description, place)];
}
