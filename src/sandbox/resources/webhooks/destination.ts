import { type LookupAddress, lookup } from "node:dns";
import { isIP } from "node:net";
import { inCidr } from "../../core/ip.ts";

/**
 * Where webhook deliveries may go: https to publicly routable addresses only.
 * Checked when a webhook is written (literal addresses and names) and again on
 * the resolved addresses of every connection a delivery opens.
 */

const loopbackBlocks = ["127.0.0.0/8", "::1/128"];

/** Blocks refused, each with the words an error uses; the first match names the refusal. */
const refusedBlocks: [string, string][] = [
  ["169.254.169.254/32", "a cloud metadata address"],
  ["fd00:ec2::254/128", "a cloud metadata address"],
  ["127.0.0.0/8", "a loopback address"],
  ["::1/128", "a loopback address"],
  ["0.0.0.0/8", "an unspecified address"],
  ["::/128", "an unspecified address"],
  ["10.0.0.0/8", "a private address"],
  ["172.16.0.0/12", "a private address"],
  ["192.168.0.0/16", "a private address"],
  ["100.64.0.0/10", "a carrier-grade NAT address"],
  ["169.254.0.0/16", "a link-local address"],
  ["fe80::/10", "a link-local address"],
  ["fc00::/7", "a unique-local address"],
  ["224.0.0.0/4", "a multicast address"],
  ["ff00::/8", "a multicast address"],
  ["255.255.255.255/32", "a broadcast address"],
];

const metadataNames = new Set(["metadata.google.internal", "metadata"]);

export interface DestinationPolicy {
  /** `--allow-insecure-webhooks`: loopback destinations allowed, over http too. */
  allowLoopback: boolean;
}

export class DestinationRefused extends Error {
  readonly reason: "scheme_not_allowed" | "destination_not_allowed";
  constructor(reason: "scheme_not_allowed" | "destination_not_allowed", message: string) {
    super(message);
    this.reason = reason;
  }
}

const isLoopback = (ip: string) => loopbackBlocks.some((block) => inCidr(ip, block));

/** Why an address may not receive deliveries, or undefined when it may. */
export function addressRefusal(ip: string, policy: DestinationPolicy): string | undefined {
  if (policy.allowLoopback && isLoopback(ip)) return undefined;
  const hit = refusedBlocks.find(([block]) => inCidr(ip, block));
  return hit && `${ip} is ${hit[1]}`;
}

/** The URL's host without IPv6 brackets and a trailing dot, lower case. */
export function hostOf(url: URL): string {
  return url.hostname
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase();
}

const isLocalhostName = (host: string) => host === "localhost" || host.endsWith(".localhost");

/**
 * The checks that need no DNS: the scheme, literal addresses, and names that
 * always mean a refused destination. Throws `DestinationRefused`.
 */
export function checkUrl(text: string, policy: DestinationPolicy): URL {
  const url = new URL(text);
  const host = hostOf(url);
  const loopbackHost = isLocalhostName(host) || (isIP(host) !== 0 && isLoopback(host));
  if (url.protocol !== "https:" && !(url.protocol === "http:" && policy.allowLoopback && loopbackHost)) {
    throw new DestinationRefused(
      "scheme_not_allowed",
      policy.allowLoopback
        ? "Webhook URLs must use https (http only to loopback addresses with --allow-insecure-webhooks)."
        : "Webhook URLs must use https.",
    );
  }
  if (isIP(host) !== 0) {
    const refusal = addressRefusal(host, policy);
    if (refusal) throw new DestinationRefused("destination_not_allowed", `${refusal}.`);
  } else if (metadataNames.has(host)) {
    throw new DestinationRefused("destination_not_allowed", `${host} is a cloud metadata service.`);
  } else if (isLocalhostName(host) && !policy.allowLoopback) {
    throw new DestinationRefused("destination_not_allowed", `${host} names a loopback address.`);
  }
  return url;
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
          const refused = Object.assign(new DestinationRefused("destination_not_allowed", ""), {
            message: `destination not allowed: ${hostname} resolves to ${refusal}`,
            code: "EDESTINATIONREFUSED",
          });
          return callback(refused, []);
        }
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    });
  };
}
