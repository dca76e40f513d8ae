import { type LookupAddress, lookup } from "node:dns";
import { addressRefusal, type DestinationPolicy, destinationProblem } from "../../../kinds/index.ts";

/**
 * Where webhook deliveries may go: https to publicly routable addresses only. Checked when a webhook is
 * written, with the rules the webhook kind declares (`src/kinds/webhook-destination.ts`, which `vigil plan`
 * runs too), and again here on the resolved addresses of every connection a delivery opens.
 */

export { addressRefusal, type DestinationPolicy } from "../../../kinds/index.ts";

export class DestinationRefused extends Error {
  readonly reason: "scheme_not_allowed" | "destination_not_allowed";
  constructor(reason: "scheme_not_allowed" | "destination_not_allowed", message: string) {
    super(message);
    this.reason = reason;
  }
}

/** The checks that need no DNS (`destinationProblem`). Throws `DestinationRefused`. */
export function checkUrl(text: string, policy: DestinationPolicy): URL {
  const problem = destinationProblem(text, policy);
  if (problem) throw new DestinationRefused(problem.reason, problem.message);
  return new URL(text);
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for outgoing connections that resolves every address of a name
 * and refuses the connection when any of them is a refused destination, so the
 * check applies to the very address connected to (no rebinding in between).
 */
export function checkedLookup(policy: DestinationPolicy) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback) => {
    lookup(hostname, { all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      for (const { address } of addresses) {
        const refusal = addressRefusal(address, policy);
        if (refusal) {
          // The sender prefixes "destination not allowed:"; the message says only what was found.
          const refused = Object.assign(
            new DestinationRefused(
              "destination_not_allowed",
              `${hostname} resolves to ${address}, ${refusal}.`,
            ),
            { code: "EDESTINATIONREFUSED" },
          );
          return callback(refused, []);
        }
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    });
  };
}
