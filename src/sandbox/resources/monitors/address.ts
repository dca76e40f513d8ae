import { isHost, type MonitorTypeInfo } from "../../../kinds/index.ts";
import { ApiProblem } from "../../core/problem.ts";

/**
 * Checks a monitor's `url` by its type's rule and returns the normalised form
 * checks use (read back as `effectiveUrl` when it differs).
 */

/** Hosts the sandbox treats as blacklisted (403 `url_blacklisted`). */
export const blacklistedSuffix = ".blocked.test";

function badUrl(value: string, expected: string, reason = "invalid_format"): ApiProblem {
  return new ApiProblem("invalid_url", `url must be ${expected}.`, {
    errors: [{ pointer: "/url", value, reason, expected }],
  });
}

function parseHttp(value: string, bareAllowed: boolean): URL {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(value)?.[1]?.toLowerCase();
  const expected = bareAllowed ? "an absolute http(s) URL or a bare domain" : "an absolute http(s) URL";
  if (scheme && scheme !== "http" && scheme !== "https") throw badUrl(value, expected, "scheme_not_allowed");
  if (!scheme && !bareAllowed) throw badUrl(value, expected);
  let url: URL;
  try {
    url = new URL(scheme ? value : `http://${value}`);
  } catch {
    throw badUrl(value, expected);
  }
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (!isHost(host) || url.username || url.password) throw badUrl(value, expected);
  return url;
}

export function checkedAddress(info: MonitorTypeInfo, value: string): string {
  let host: string;
  let effective: string;
  switch (info.url) {
    case "http":
    case "httpOrDomain": {
      const url = parseHttp(value, info.url === "httpOrDomain");
      host = url.hostname;
      effective = url.href;
      break;
    }
    case "host":
      if (!isHost(value)) throw badUrl(value, "a host name or IP address");
      host = value.toLowerCase();
      effective = host;
      break;
    case "hostPort": {
      const m = /^(\[[0-9a-f:.]+\]|[^:\s]+):(\d{1,5})$/i.exec(value);
      const port = Number(m?.[2]);
      if (!m || !isHost(m[1]!.replace(/^\[|\]$/g, "")) || port < 1 || port > 65535) {
        throw badUrl(value, "host:port with a port from 1 to 65535");
      }
      host = m[1]!.toLowerCase();
      effective = `${host}:${port}`;
      break;
    }
    case "hostOrUrl":
      if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
        const url = parseHttp(value, false);
        host = url.hostname;
        effective = url.href;
      } else {
        if (!isHost(value)) throw badUrl(value, "a host name or an http(s) URL");
        host = value.toLowerCase();
        effective = host;
      }
      break;
    case "none":
      throw new ApiProblem("validation_failed", "This monitor type takes no url.", {
        errors: [{ pointer: "/url", value, reason: "not_allowed" }],
      });
  }
  if (host.endsWith(blacklistedSuffix)) {
    throw new ApiProblem("url_blacklisted", `${host} is on the service's block list.`, {
      errors: [{ pointer: "/url", value }],
    });
  }
  return effective;
}
