import { type MonitorTypeInfo, monitorAddress } from "../../../kinds/index.ts";
import { ApiProblem } from "../../core/problem.ts";

/**
 * Checks a monitor's `url` by its type's rule (the monitor kind's, `monitorAddress`, which `vigil plan`
 * runs too) and the service's block list, and returns the normalised form checks use (read back as
 * `effectiveUrl` when it differs).
 */

/** Hosts the sandbox treats as blacklisted (403 `url_blacklisted`). */
export const blacklistedSuffix = ".blocked.test";

export function checkedAddress(info: MonitorTypeInfo, value: string): string {
  if (info.url === "none")
    throw new ApiProblem("validation_failed", "This monitor type takes no url.", {
      errors: [{ pointer: "/url", value, reason: "not_allowed" }],
    });
  const check = monitorAddress(info, value);
  if ("refused" in check) {
    const { reason, expected } = check.refused;
    throw new ApiProblem("invalid_url", `url must be ${expected}.`, {
      errors: [{ pointer: "/url", value, reason, expected }],
    });
  }
  if (check.host.endsWith(blacklistedSuffix)) {
    throw new ApiProblem("url_blacklisted", `${check.host} is on the service's block list.`, {
      errors: [{ pointer: "/url", value }],
    });
  }
  return check.effective;
}
