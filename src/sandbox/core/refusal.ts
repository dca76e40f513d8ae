import type { ProblemDetailEntry, Refusal } from "../../kinds/index.ts";
import { invalid } from "./problem.ts";

/**
 * Refusals of a kind's own-member rules (`rules.offline`, variant rules: the ones `vigil validate` runs),
 * answered as the API does: one 422 problem of the first refusal's code, listing every refusal as an
 * `errors[]` entry. Nothing to answer when there are none.
 */
export function throwRefusals(refusals: readonly Refusal[]): void {
  const [first] = refusals;
  if (!first) return;
  const entries = refusals.map(
    ({ pointer, reason, message, value, allowed }): ProblemDetailEntry => ({
      pointer,
      ...(reason !== undefined && { reason }),
      ...(value !== undefined && { value }),
      ...(allowed !== undefined && { allowed: [...allowed] }),
      message,
    }),
  );
  throw invalid(entries, first.code);
}
