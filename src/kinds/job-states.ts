/** The states of a bulk job and of its items, as plain lists: the API client needs them without the schemas. */
export const jobStates = [
  "queued",
  "running",
  "interrupted",
  "succeeded",
  "partial",
  "failed",
  "cancelled",
] as const;
export const terminalJobStates = ["succeeded", "partial", "failed", "cancelled"] as const;
export const jobItemStatuses = [
  "pending",
  "created",
  "createdDisabled",
  "updated",
  "skipped",
  "deleted",
  "failed",
  "cancelled",
] as const;
