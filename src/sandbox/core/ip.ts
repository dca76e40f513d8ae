import { isIPv4, isIPv6 } from "node:net";

/** The caller's address in plain form (IPv4-mapped IPv6 addresses unwrapped). */
export function normalizeIp(address: string | undefined): string {
  if (!address) return "";
  return address.startsWith("::ffff:") && isIPv4(address.slice(7)) ? address.slice(7) : address;
}

/** IPv6 values sit above every IPv4 value, so the families never mix in a comparison. */
const v6Base = 1n << 200n;

const v4Value = (ip: string) => ip.split(".").reduce((n, part) => (n << 8n) | BigInt(Number(part)), 0n);

const hexGroups = (v4: bigint) => `${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;

/**
 * An address as a number. An IPv4-mapped IPv6 address (`::ffff:10.0.0.1`, in
 * any spelling) is its IPv4 address, as `normalizeIp` makes of the caller's.
 */
function toBigInt(ip: string): bigint | undefined {
  if (isIPv4(ip)) return v4Value(ip);
  if (!isIPv6(ip)) return undefined;
  // A dotted IPv4 tail stands for the last two 16-bit groups.
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(ip);
  const text = dotted ? `${dotted[1]}${hexGroups(v4Value(dotted[2]!))}` : ip;
  const [head, rest = ""] = text.split("::") as [string, string?];
  const left = head ? head.split(":") : [];
  const right = rest ? rest.split(":") : [];
  const groups = text.includes("::")
    ? [...left, ...Array(8 - left.length - right.length).fill("0"), ...right]
    : left;
  const value = groups.reduce((n, g) => (n << 16n) | BigInt(Number.parseInt(g || "0", 16)), 0n);
  return value >> 32n === 0xffffn ? value & 0xffffffffn : value + v6Base;
}

/** An allow-list entry's bounds: an address is a range of one; undefined when malformed. */
function boundsOf(entry: string): [bigint, bigint] | undefined {
  const [from, to, extra] = entry.split("-");
  if (extra !== undefined) return undefined;
  const low = toBigInt(from!);
  const high = to === undefined ? low : toBigInt(to);
  return low === undefined || high === undefined ? undefined : [low, high];
}

/** Whether an entry of a token allow-list is well formed: an address, or a `from-to` range of one family, in order. */
export function isAllowListEntry(entry: string): boolean {
  const bounds = boundsOf(entry);
  if (!bounds) return false;
  const [low, high] = bounds;
  const family = (value: bigint) => (value >= v6Base ? 6 : 4);
  return low <= high && family(low) === family(high);
}

export function ipAllowed(ip: string, allowList: readonly string[]): boolean {
  const value = toBigInt(ip);
  if (value === undefined) return false;
  return allowList.some((entry) => {
    const bounds = boundsOf(entry);
    return bounds !== undefined && value >= bounds[0] && value <= bounds[1];
  });
}
