/**
 * What every frontend (the CLI, Terraform's provider, Pulumi's) is configured with to reach the API: the
 * settings' names, words, environment variables and the one rule each value must pass. Each frontend spells
 * the settings its own way (a flag, a provider block's attribute, a config variable) and says a refusal in
 * its own form; what is refused, and why, is said here once.
 */
export interface ConnectionSetting {
  name: "endpoint" | "token";
  description: string;
  /** The setting in a command-line flag's help, and the flag's value (`--endpoint <url>`). */
  flag: { help: string; value: string };
  /** The environment variable read when the setting is left out. */
  environment: string;
  /** A credential: sensitive, secret, never shown (a refusal never quotes it). */
  writeOnly: boolean;
  /**
   * Why a value is refused, as words that follow the setting's name (`must be …`), or undefined when it is
   * taken. An empty value is missing, not refused: frontends then look further or say where to set it.
   */
  refusal(value: string): string | undefined;
}

/** The API's base URL: http or https, and a host (a URL the client can open; `https://` alone is none). */
export function endpointRefusal(endpoint: string): string | undefined {
  if (/^https?:\/\/[^/?#]/.test(endpoint) && URL.canParse(endpoint) && new URL(endpoint).hostname !== "")
    return undefined;
  return `must be an http(s) URL, not ${JSON.stringify(endpoint)}: the API's base URL, http(s)://host[:port][/path]`;
}

/**
 * A token goes in an `Authorization: Bearer` header: one word of visible characters. A space or a line
 * break (a token pasted with its newline) would only fail later, at every retry of the first call.
 */
export function tokenRefusal(token: string): string | undefined {
  if (/^[\x21-\x7e]+$/.test(token)) return undefined;
  return "must be one word of visible characters, without spaces, line breaks or other control characters";
}

export const endpointSetting: ConnectionSetting = {
  name: "endpoint",
  description: "Base URL of the API (https://api.example.com/v2).",
  flag: { help: "API base URL", value: "url" },
  environment: "VIGIL_ENDPOINT",
  writeOnly: false,
  refusal: endpointRefusal,
};

export const tokenSetting: ConnectionSetting = {
  name: "token",
  description: "API token.",
  flag: { help: "API token", value: "token" },
  environment: "VIGIL_TOKEN",
  writeOnly: true,
  refusal: tokenRefusal,
};

export const connectionSettings: readonly ConnectionSetting[] = [endpointSetting, tokenSetting];

/** A value for each setting, by name. */
export type ConnectionValues = Record<ConnectionSetting["name"], string>;

/** A connection setting's description with its default. */
export const connectionText = (setting: ConnectionSetting): string =>
  `${setting.description} Default: the ${setting.environment} environment variable.`;

/** How a setting left out everywhere is said, before where each frontend takes it: `No API token`. */
export const missingSetting = (setting: ConnectionSetting): string => `No API ${setting.name}`;
