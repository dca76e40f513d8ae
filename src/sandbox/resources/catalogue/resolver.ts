import { createHash } from "node:crypto";
import { isIP } from "node:net";
import { isHost } from "../../../kinds/index.ts";

/**
 * The sandbox has no DNS. Names resolve deterministically: an IP literal to
 * itself, `localhost` (and `*.localhost`) to loopback, names under `.invalid`
 * to nothing (RFC 6761), and any other name to one stable address in each of
 * the documentation ranges 192.0.2.0/24 and 2001:db8::/32, derived from a
 * hash of the name.
 */
export function resolveHost(host: string): string[] {
  if (isIP(host)) return [host];
  const name = host.toLowerCase().replace(/\.$/, "");
  if (name === "localhost" || name.endsWith(".localhost")) return ["127.0.0.1", "::1"];
  if (name === "invalid" || name.endsWith(".invalid")) return [];
  const h = createHash("sha256").update(name).digest();
  const group = (i: number) => h.readUInt16BE(i).toString(16);
  return [`192.0.2.${1 + (h[0]! % 254)}`, `2001:db8:${group(1)}:${group(3)}::${group(5)}`];
}

export type HostProblem = "scheme_not_allowed" | "malformed";

/**
 * The host of a monitor address in any of its forms: an http(s) URL, a bare
 * host or IP, `host:port`, or `[v6]:port`. Names follow the monitor address
 * rule (`isHost`), so resolve and `POST /monitor` agree on what a host is.
 */
export function hostOf(address: string): { host: string } | { problem: HostProblem } {
  if (isIP(address)) return { host: address };
  if (/\s/.test(address)) return { problem: "malformed" };
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(address)?.[1];
  if (scheme && !/^https?$/i.test(scheme)) return { problem: "scheme_not_allowed" };
  let url: URL;
  try {
    url = new URL(scheme ? address : `http://${address}`);
  } catch {
    return { problem: "malformed" };
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (isIP(host)) return { host };
  // A trailing dot only marks the name fully qualified: drop it before the check.
  const name = host.replace(/\.$/, "");
  return isHost(name) ? { host: name } : { problem: "malformed" };
}
