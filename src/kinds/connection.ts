/**
 * What every provider (Terraform's, Pulumi's) is configured with to reach the API. Each frontend spells
 * the settings its own way; the words and the environment variables they default to are said here once.
 */
export interface ConnectionSetting {
  name: "endpoint" | "token";
  description: string;
  /** The environment variable read when the setting is left out. */
  environment: string;
  /** A credential: sensitive, secret, never shown. */
  writeOnly: boolean;
}

export const connectionSettings: readonly ConnectionSetting[] = [
  {
    name: "endpoint",
    description: "Base URL of the API (https://api.example.com/v2).",
    environment: "VIGIL_ENDPOINT",
    writeOnly: false,
  },
  { name: "token", description: "API token.", environment: "VIGIL_TOKEN", writeOnly: true },
];

/** A connection setting's description with its default. */
export const connectionText = (setting: ConnectionSetting): string =>
  `${setting.description} Default: the ${setting.environment} environment variable.`;
