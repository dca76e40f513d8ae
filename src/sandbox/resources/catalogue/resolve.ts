import { z } from "zod";
import { defineOperations } from "../../core/operation.ts";
import { ApiProblem } from "../../core/problem.ts";
import { hostOf, resolveHost } from "./resolver.ts";

const body = z.strictObject({ url: z.string().min(1).max(2048) });

const problemText = {
  scheme_not_allowed: "Only http and https URLs, bare hosts and host:port can be resolved.",
  malformed: "The address has no valid host name or IP.",
};

/**
 * Resolves a monitor address the way checks would. A name that does not
 * exist is an answer, not an error: 200 with `resolved: false` and no ips.
 */
export const resolveOperations = defineOperations({
  id: "monitor.resolve",
  method: "POST",
  path: "/monitor/resolve",
  summary: "Resolve the host of a monitor address to its IPs.",
  scope: "monitor:read",
  quotaClass: "read",
  body,
  errors: ["validation_failed", "invalid_url", "unknown_parameter"],
  response: { status: 200, description: "{url, host, resolved, ips}." },
  handle: (_ctx, req) => {
    const { url } = req.body as z.infer<typeof body>;
    const parsed = hostOf(url);
    if ("problem" in parsed) {
      throw new ApiProblem("invalid_url", problemText[parsed.problem], {
        errors: [{ pointer: "/url", value: url, reason: parsed.problem }],
      });
    }
    const ips = resolveHost(parsed.host);
    return { status: 200, body: { url, host: parsed.host, resolved: ips.length > 0, ips } };
  },
});
