/** What the API's refusals mean to a write: a duplicate names the object that exists, a gone pair is deleted. */
import { ApiError } from "../../api/index.ts";

export function isProblem(value: unknown): value is { code: string; title: string; detail?: string } {
  return (
    typeof value === "object" && value !== null && typeof (value as { code?: unknown }).code === "string"
  );
}

/** An error, or a bulk item's problem document, in one line. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return isProblem(error) ? `${error.code}: ${error.detail ?? error.title}` : String(error);
}

/** The id a duplicate refusal names (409 duplicate_monitor / duplicate_contact / duplicate_resource). */
export function duplicateOf(error: unknown): string | undefined {
  const problem =
    error instanceof ApiError
      ? error.problem
      : isProblem(error)
        ? (error as Record<string, unknown>)
        : undefined;
  if (problem?.status !== 409 || typeof problem.code !== "string" || !problem.code.startsWith("duplicate"))
    return undefined;
  if (typeof problem.existingId === "string") return problem.existingId;
  const entry = (problem.errors as Record<string, unknown>[] | undefined)?.find(
    (e) => typeof e.existingId === "string",
  );
  return entry?.existingId as string | undefined;
}

/** Reasons a subscription bulk delete refuses a pair that is already gone (the spec leaves them unshown; these are the sandbox's). */
export const vanished = new Set(["not_subscribed", "unknown_monitor", "unknown_contact"]);
