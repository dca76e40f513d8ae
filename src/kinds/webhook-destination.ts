/**
 * Where webhook deliveries may go (the spec: https only, to publicly reachable destinations): the checks
 * that need no DNS, declared with the webhook kind so that the sandbox refuses a webhook's `url` with them
 * when it is written and `vigil validate`/`plan` refuse it before any write (`webhookUrlRefusals`, the
 * kind's offline rule). The sandbox checks the resolved addresses of each delivery with `addressRefusal`.
 *
 * An address is judged by what it reaches: an IPv6 address that carries an IPv4 address (mapped,
 * compatible, translated, NAT64, 6to4, Teredo) is judged on the IPv4 address it embeds. The blocks are
 * those of the IANA IPv4 and IPv6 special-purpose address registries that are not globally reachable,
 * plus multicast, and for IPv6 anything outside global unicast (2000::/3).
 */
import ipaddr from "ipaddr.js";
import type { Members, Refusal } from "./account-rules.ts";
import { isIpLiteral } from "./common.ts";

type Category = "loopback" | "refused";
interface Block {
  range: [ipaddr.IPv4 | ipaddr.IPv6, number];
  /** What the address is, as an error says it: "a private address". */
  words: string;
  category: Category;
}

/** Parsed on first use: most runs check no IP literal, and parsing every range is a cost of each start. */
const lazily = <T>(make: () => T) => {
  let made: T | undefined;
  return () => {
    made ??= make();
    return made;
  };
};

const block = (cidr: string, words: string, category: Category = "refused"): Block => {
  const range = lazily(() => ipaddr.parseCIDR(cidr));
  return {
    get range() {
      return range();
    },
    words,
    category,
  };
};

/** The first match names the refusal, so the narrower blocks come first. */
const v4Blocks: Block[] = [
  block("169.254.169.254/32", "a cloud metadata address"),
  block("100.100.100.200/32", "a cloud metadata address"),
  block("168.63.129.16/32", "a cloud platform address"),
  block("127.0.0.0/8", "a loopback address", "loopback"),
  block("0.0.0.0/8", "an unspecified address"),
  block("10.0.0.0/8", "a private address"),
  block("172.16.0.0/12", "a private address"),
  block("192.168.0.0/16", "a private address"),
  block("100.64.0.0/10", "a carrier-grade NAT address"),
  block("169.254.0.0/16", "a link-local address"),
  block("192.0.0.0/24", "an IETF protocol assignment address"),
  block("192.0.2.0/24", "a documentation address"),
  block("198.51.100.0/24", "a documentation address"),
  block("203.0.113.0/24", "a documentation address"),
  block("198.18.0.0/15", "a benchmarking address"),
  block("192.88.99.0/24", "a 6to4 relay anycast address"),
  block("224.0.0.0/4", "a multicast address"),
  block("255.255.255.255/32", "a broadcast address"),
  block("240.0.0.0/4", "a reserved address"),
];

const v6Blocks: Block[] = [
  block("fd00:ec2::254/128", "a cloud metadata address"),
  block("::1/128", "a loopback address", "loopback"),
  block("::/128", "an unspecified address"),
  block("64:ff9b:1::/48", "a local-use NAT64 address"),
  block("100::/64", "a discard-only address"),
  block("2001:2::/48", "a benchmarking address"),
  block("2001:db8::/32", "a documentation address"),
  block("3fff::/20", "a documentation address"),
  block("2001:10::/28", "an ORCHID address"),
  block("5f00::/16", "a segment routing address"),
  block("fc00::/7", "a unique-local address"),
  block("fe80::/10", "a link-local address"),
  block("fec0::/10", "a site-local address"),
  block("ff00::/8", "a multicast address"),
];

/** The globally reachable exceptions inside 2001::/23 (IETF protocol assignments). */
const ietfAssignments = block("2001::/23", "an IETF protocol assignment address");
const ietfGlobal = lazily(() =>
  ["2001:1::1/128", "2001:1::2/128", "2001:3::/32", "2001:4:112::/48", "2001:20::/28"].map((cidr) =>
    ipaddr.parseCIDR(cidr),
  ),
);
const globalUnicast = lazily(() => ipaddr.parseCIDR("2000::/3"));

const v4 = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);

/** The IPv4 addresses an IPv6 address carries, with the name of the form that carries them. */
function embedded(addr: ipaddr.IPv6): [ipaddr.IPv4, string][] {
  const p = addr.parts;
  const zeros = (from: number, to: number) => p.slice(from, to).every((x) => x === 0);
  const tail = v4(p[6]!, p[7]!);
  if (zeros(0, 5) && p[5] === 0xffff) return [[tail, "an IPv4-mapped address"]];
  if (zeros(0, 4) && p[4] === 0xffff && p[5] === 0) return [[tail, "an IPv4-translated address"]];
  // ::/96 less :: and ::1, which are IPv6's own (and in the table).
  if (zeros(0, 6) && (p[6] !== 0 || p[7]! > 1)) return [[tail, "an IPv4-compatible address"]];
  if (p[0] === 0x64 && p[1] === 0xff9b && zeros(2, 6)) return [[tail, "a NAT64 address"]];
  if (p[0] === 0x2002) return [[v4(p[1]!, p[2]!), "a 6to4 address"]];
  if (p[0] === 0x2001 && p[1] === 0) {
    // Teredo: the server's address, and the client's, stored inverted.
    return [
      [v4(p[2]!, p[3]!), "a Teredo address (server)"],
      [v4(p[6]! ^ 0xffff, p[7]! ^ 0xffff), "a Teredo address (client)"],
    ];
  }
  return [];
}

interface Classified {
  words: string;
  category: Category;
}

/** Why an address may not receive deliveries, by what it reaches; undefined when it may. */
function classify(text: string): Classified | undefined {
  const addr = ipaddr.parse(text);
  if (addr.kind() === "ipv4") return v4Blocks.find((b) => addr.match(b.range));
  const v6 = addr as ipaddr.IPv6;
  const own = v6Blocks.find((b) => v6.match(b.range));
  if (own) return own;
  const carried = embedded(v6);
  if (carried.length > 0) {
    for (const [inner, form] of carried) {
      const hit = v4Blocks.find((b) => inner.match(b.range));
      if (hit) return { words: `${form} of ${inner}, ${hit.words}`, category: hit.category };
    }
    return undefined;
  }
  if (v6.match(ietfAssignments.range) && !ietfGlobal().some((range) => v6.match(range)))
    return ietfAssignments;
  if (!v6.match(globalUnicast())) return { words: "not a global unicast address", category: "refused" };
  return undefined;
}

/** Metadata services by name, and the special-use and private-use names that never mean a public host. */
const metadataNames = new Set([
  "metadata",
  "metadata.google.internal",
  "metadata.goog",
  "instance-data",
  "instance-data.ec2.internal",
  "metadata.azure.internal",
  "metadata.tencentyun.com",
]);
const privateSuffixes = [
  "localhost",
  "local",
  "internal",
  "home.arpa",
  "intranet",
  "private",
  "corp",
  "home",
  "lan",
];

export interface DestinationPolicy {
  /**
   * `true`: loopback destinations allowed, over http too (the sandbox's `--allow-insecure-webhooks`);
   * `false`: refused, as the service refuses them; `"unknown"`: left to the service, whose policy a check
   * made before any call cannot know (`vigil validate` and `plan`).
   */
  allowLoopback: boolean | "unknown";
}

/** Why a webhook URL is refused, as the API's `errors[]` entry says it. */
export interface DestinationProblem {
  reason: "scheme_not_allowed" | "destination_not_allowed";
  message: string;
}

/** What a refused address is ("a loopback address"), or undefined when it may receive deliveries. */
export function addressRefusal(ip: string, policy: DestinationPolicy): string | undefined {
  const refusal = classify(ip);
  if (!refusal || (policy.allowLoopback !== false && refusal.category === "loopback")) return undefined;
  return refusal.words;
}

/** The URL's host without IPv6 brackets and a trailing dot, lower case. */
export function hostOf(url: URL): string {
  return url.hostname
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase();
}

const isLocalhostName = (host: string) => host === "localhost" || host.endsWith(".localhost");

/** Why a name (not an address) is refused whatever it resolves to, or undefined. */
function nameRefusal(host: string): string | undefined {
  if (metadataNames.has(host)) return `${host} is a cloud metadata service.`;
  const suffix = privateSuffixes.find((s) => host === s || host.endsWith(`.${s}`));
  if (suffix) return `${host} is a private-use name (.${suffix}), not a public host.`;
  // A single label resolves through the sandbox host's search domains, to whatever is local there.
  if (!host.includes(".")) return `${host} is a single-label name, not a public host.`;
  return undefined;
}

/**
 * The checks that need no DNS: the scheme, the port, literal addresses, and names that always mean a
 * refused destination. Undefined when the URL may be written (its resolved addresses are judged at each
 * delivery), or when it is no URL at all (the schema refuses that).
 */
export function destinationProblem(text: string, policy: DestinationPolicy): DestinationProblem | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  const loopback = policy.allowLoopback !== false;
  const host = hostOf(url);
  const literal = isIpLiteral(host);
  const loopbackHost = isLocalhostName(host) || (literal && classify(host)?.category === "loopback");
  if (url.protocol !== "https:" && !(url.protocol === "http:" && loopback && loopbackHost))
    return {
      reason: "scheme_not_allowed",
      message:
        policy.allowLoopback === true
          ? "Webhook URLs must use https (http only to loopback addresses with --allow-insecure-webhooks)."
          : "Webhook URLs must use https.",
    };
  if (url.port === "0")
    return { reason: "destination_not_allowed", message: "Port 0 is not a port anything listens on." };
  if (literal) {
    const refusal = addressRefusal(host, policy);
    if (refusal) return { reason: "destination_not_allowed", message: `${host} is ${refusal}.` };
  } else if (!(loopback && isLocalhostName(host))) {
    const refusal = nameRefusal(host);
    if (refusal) return { reason: "destination_not_allowed", message: refusal };
  }
  return undefined;
}

/**
 * The webhook kind's offline rule: a `url` every service refuses, whatever its policy on loopback
 * destinations (422 `invalid_url`, as the API answers it when the webhook is written).
 */
export function webhookUrlRefusals(m: Members): Refusal[] {
  if (typeof m.url !== "string") return [];
  const problem = destinationProblem(m.url, { allowLoopback: "unknown" });
  return problem ? [{ code: "invalid_url", pointer: "/url", value: m.url, ...problem }] : [];
}
