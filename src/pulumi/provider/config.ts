/**
 * The provider's own configuration: its endpoint and token (kinds/connection.ts), from the program's
 * provider arguments or `vigil:config:*` variables, else the environment; checked, diffed and taken with the
 * rules every frontend uses.
 */
import {
  type ConnectionSetting,
  type ConnectionValues,
  connectionSettings,
  missingSetting,
} from "../../kinds/index.ts";
import { ProviderError, Status } from "./errors.ts";
import type { CheckFailure, DiffResult } from "./resources.ts";
import { type Props, unknownValue, unwrapSecrets } from "./values.ts";

export interface ConfigRequest {
  variables?: Record<string, string>;
  args?: Props;
}

/** A setting's config variable: `vigil:endpoint`, which the engine sends as `vigil:config:endpoint`. */
const configKey = (setting: ConnectionSetting) => `vigil:${setting.name}`;

/** A setting from the provider's config (typed `args`, or the `vigil:config:*` variables). */
function configValue(request: ConfigRequest, name: string): unknown {
  const fromArgs = request.args ? unwrapSecrets(request.args).members[name] : undefined;
  if (fromArgs !== undefined && fromArgs !== null && fromArgs !== "") return fromArgs;
  return request.variables?.[`vigil:config:${name}`] || undefined;
}

/** Each setting the program sets, judged by its rule; the environment is read when configuring. */
export function checkConfig(news: Props): CheckFailure[] {
  const members = unwrapSecrets(news).members;
  return connectionSettings.flatMap((setting) => {
    const value = members[setting.name];
    if (typeof value !== "string" || value === unknownValue || value === "") return [];
    const refusal = setting.refusal(value);
    return refusal ? [{ property: setting.name, reason: `The ${setting.name} ${refusal}.` }] : [];
  });
}

/** Another endpoint or token changes where and as whom calls go; the objects themselves stay. */
export function diffConfig(olds: Props, news: Props): DiffResult {
  const before = unwrapSecrets(olds).members;
  const after = unwrapSecrets(news).members;
  const changed = connectionSettings
    .map((s) => s.name)
    .filter((name) => (before[name] ?? "") !== (after[name] ?? ""));
  return {
    changes: changed.length > 0 ? "DIFF_SOME" : "DIFF_NONE",
    diffs: changed,
    replaces: [],
    stables: [],
    deleteBeforeReplace: false,
    detailedDiff: Object.fromEntries(changed.map((name) => [name, { kind: "UPDATE", inputDiff: true }])),
    hasDetailedDiff: true,
  };
}

/** The endpoint and token to configure with; one unknown at preview, or missing everywhere, is refused. */
export function connectionOf(request: ConfigRequest, env: NodeJS.ProcessEnv): ConnectionValues {
  const pick = (setting: ConnectionSetting): string => {
    const { name, environment } = setting;
    const value = configValue(request, name) ?? env[environment];
    if (value === unknownValue)
      throw new ProviderError(
        Status.FAILED_PRECONDITION,
        `The vigil provider's ${name} is not known until the update; configure it from a value known at preview (config, or ${environment}).`,
      );
    if (typeof value !== "string" || value === "")
      throw new ProviderError(
        Status.FAILED_PRECONDITION,
        `${missingSetting(setting)} for the vigil provider: set ${configKey(setting)} (pulumi config set ${setting.writeOnly ? "--secret " : ""}${configKey(setting)} ...) or the ${environment} environment variable.`,
      );
    return value;
  };
  return Object.fromEntries(connectionSettings.map((s) => [s.name, pick(s)])) as ConnectionValues;
}

/** The settings, each judged by its rule: a refusal is an invalid argument. */
export function judgedConnection(values: ConnectionValues): ConnectionValues {
  for (const setting of connectionSettings) {
    const refusal = setting.refusal(values[setting.name]);
    if (refusal)
      throw new ProviderError(
        Status.INVALID_ARGUMENT,
        `Invalid ${setting.name}: the ${setting.name} ${refusal}.`,
      );
  }
  return values;
}
