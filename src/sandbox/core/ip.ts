import { isIPv4, isIPv6 } from "node:net";

/** The caller's address in plain form (IPv4-mapped IPv6 addresses unwrapped). */
export function normalizeIp(address: string | undefined): string {
  if (!address) return "";
  return address.startsWith("::ffff:") && isIPv4(address.slice(7)) ? address.slice(7) : address;
}

function toBigInt(ip: string): bigint | undefined {
  if (isIPv4(ip)) return ip.split(".").reduce((n, part) => (n << 8n) | BigInt(Number(part)), 0n);
  if (!isIPv6(ip)) return undefined;
  const [head, tail = ""] = ip.split("::") as [string, string?];
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = ip.includes("::")
    ? [...left, ...Array(8 - left.length - right.length).fill("0"), ...right]
    : left;
  return groups.reduce((n, g) => (n << 16n) | BigInt(Number.parseInt(g || "0", 16)), 0n) + (1n << 200n);
}

/** Whether an entry of a token allow-list is well formed: an address or a `from-to` range. */
export function isAllowListEntry(entry: string): boolean {
  const [from, to] = entry.split("-");
  return to === undefined
    ? toBigInt(entry) !== undefined
    : toBigInt(from!) !== undefined && toBigInt(to) !== undefined;
}

export function ipAllowed(ip: string, allowList: readonly string[]): boolean {
  const value = toBigInt(ip);
  if (value === undefined) return false;
  return allowList.some((entry) => {
    const [from, to] = entry.split("-");
    if (to === undefined) return toBigInt(entry) === value;
    const low = toBigInt(from!);
    const high = toBigInt(to);
    return low !== undefined && high !== undefined && value >= low && value <= high;
  });
}
