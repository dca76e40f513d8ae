import { describe, expect, it } from "vitest";
import {
  connectionSettings,
  connectionText,
  endpointRefusal,
  missingSetting,
  tokenRefusal,
} from "../../src/kinds/connection.ts";
import { badEndpoints, badTokens, goodEndpoints } from "../helpers/connection-cases.ts";

describe("endpointRefusal", () => {
  it("takes an http(s) URL with a host", () => {
    for (const endpoint of goodEndpoints) expect(endpointRefusal(endpoint), endpoint).toBeUndefined();
  });

  it("refuses anything else, saying what the endpoint is", () => {
    for (const endpoint of badEndpoints)
      expect(endpointRefusal(endpoint), endpoint).toBe(
        `must be an http(s) URL, not ${JSON.stringify(endpoint)}: the API's base URL, http(s)://host[:port][/path]`,
      );
  });
});

describe("tokenRefusal", () => {
  it("takes one word of visible characters", () => {
    expect(tokenRefusal("vgl_0123456789abcdef.XYZ-~+/=")).toBeUndefined();
  });

  it("refuses spaces, line breaks and control or non-ASCII characters, never quoting the token", () => {
    for (const token of badTokens) {
      const refusal = tokenRefusal(token);
      expect(refusal, JSON.stringify(token)).toBe(
        "must be one word of visible characters, without spaces, line breaks or other control characters",
      );
    }
  });
});

describe("connectionSettings", () => {
  it("declares the endpoint and the token, their environment variables, flags and words", () => {
    expect(
      connectionSettings.map((s) => [s.name, s.environment, s.writeOnly, s.flag.value, missingSetting(s)]),
    ).toEqual([
      ["endpoint", "VIGIL_ENDPOINT", false, "url", "No API endpoint"],
      ["token", "VIGIL_TOKEN", true, "token", "No API token"],
    ]);
    expect(connectionText(connectionSettings[1]!)).toBe(
      "API token. Default: the VIGIL_TOKEN environment variable.",
    );
  });
});
