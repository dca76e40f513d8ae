/**
 * A monitor's `url` by its type's rule (`MonitorTypeInfo.url`): a full http(s) URL, a bare domain where the
 * type takes one, a host, or `host:port`. Declared with the kind so that the sandbox refuses a monitor with
 * it (422 `invalid_url`) and `vigil validate`/`plan` refuse the same value before any write (`urlFormRefusals`,
 * an offline rule). The service's block list (403 `url_blacklisted`) is the service's own: it is not here.
 */
import { isHost } from "../common.ts";
import type { MonitorTypeInfo } from "./types.ts";

export type AddressCheck =
  /** The host the checks reach, and the normalised form read back as `effectiveUrl`. */
  | { host: string; effective: string }
  /** Why the API refuses it: its `errors[]` entry's `reason` and `expected`. */
  | { refused: { reason: "invalid_format" | "scheme_not_allowed"; expected: string } };

function parseHttp(value: string, bareAllowed: boolean): AddressCheck {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(value)?.[1]?.toLowerCase();
  const expected = bareAllowed ? "an absolute http(s) URL or a bare domain" : "an absolute http(s) URL";
  const refused = (reason: "invalid_format" | "scheme_not_allowed" = "invalid_format") => ({
    refused: { reason, expected },
  });
  if (scheme && scheme !== "http" && scheme !== "https") return refused("scheme_not_allowed");
  if (!scheme && !bareAllowed) return refused();
  let url: URL;
  try {
    url = new URL(scheme ? value : `http://${value}`);
  } catch {
    return refused();
  }
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (!isHost(host) || url.username || url.password) return refused();
  return { host: url.hostname, effective: url.href };
}

/** `value` as the `url` of a monitor of a type that takes one (`info.url` is not `none`). */
export function monitorAddress(info: MonitorTypeInfo, value: string): AddressCheck {
  switch (info.url) {
    case "http":
    case "httpOrDomain":
      return parseHttp(value, info.url === "httpOrDomain");
    case "host":
      if (!isHost(value))
        return { refused: { reason: "invalid_format", expected: "a host name or IP address" } };
      return { host: value.toLowerCase(), effective: value.toLowerCase() };
    case "hostPort": {
      const m = /^(\[[0-9a-f:.]+\]|[^:\s]+):(\d{1,5})$/i.exec(value);
      const port = Number(m?.[2]);
      if (!m || !isHost(m[1]!.replace(/^\[|\]$/g, "")) || port < 1 || port > 65535)
        return { refused: { reason: "invalid_format", expected: "host:port with a port from 1 to 65535" } };
      const host = m[1]!.toLowerCase();
      return { host, effective: `${host}:${port}` };
    }
    case "hostOrUrl":
      if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return parseHttp(value, false);
      if (!isHost(value))
        return { refused: { reason: "invalid_format", expected: "a host name or an http(s) URL" } };
      return { host: value.toLowerCase(), effective: value.toLowerCase() };
    case "none":
      // `urlRefusals` refuses a url on these types, with its own code.
      return { host: "", effective: value };
  }
}
