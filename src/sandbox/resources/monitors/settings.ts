import {
  attachedRefusals,
  bodySchema,
  issuesToEntries,
  type MonitorType,
  monitorKind,
  normalizeSettings,
  parseAssertions,
  presetPools,
  settingsFeatureRefusals,
  variantMemberSchema,
  variantRuleRefusals,
  writeOnlyMembers,
} from "../../../kinds/index.ts";
import type { Ctx } from "../../core/operation.ts";
import { own } from "../../core/own.ts";
import { ApiProblem, invalid } from "../../core/problem.ts";
import { throwRefusals } from "../../core/refusal.ts";
import { accountOf, entitlements } from "../accounts.ts";

type Settings = Record<string, unknown>;

/**
 * What a preset builds: the entire settings object and the pools it pins.
 * Pinned pools must reach the 7 live locations every monitor needs.
 */
const presets: Record<string, { settings: Settings; pools: string[] }> = {
  "bl:ru": {
    settings: { method: "G", timeout: 30000, followRedirect: true, maxRedirects: 5 },
    pools: [...presetPools["bl:ru"]!],
  },
};

export interface SettingsOutcome {
  settings: Settings;
  credentialsUpdatedAt: Record<string, number>;
  /** Pools pinned by the preset the settings were built from, if any. */
  pinnedPools?: string[];
}

/**
 * Merges sent settings into stored ones (members replace members, arrays are
 * replaced whole, null clears), folds in the top-level `attached` alias,
 * then checks the result against the type's schema, its cross-field rules
 * and the plan. Returns what to store.
 */
export function resolveSettings(
  ctx: Ctx,
  type: MonitorType,
  stored: Settings,
  storedCredentials: Record<string, number>,
  sent: Settings | undefined,
  attachedAlias: Settings | undefined,
): SettingsOutcome {
  // The type's settings schema, as the monitor kind declares it; read-only members (assertsText,
  // forceRecheck) are never accepted on write.
  const schema = bodySchema(variantMemberSchema(monitorKind, type)!, "create");
  const request = withoutSynthesizedSteps(sent ?? {});
  let credentials = { ...storedCredentials };
  for (const member of writeOnlyMembers(schema)) {
    const value = request[member];
    if (value !== null && typeof value === "object") {
      throw new ApiProblem(
        "credential_write_only",
        `${member} is write-only; send its value, or omit it to keep it.`,
        {
          errors: [{ pointer: `/settings/${member}`, reason: "masked_value_sent" }],
        },
      );
    }
    if (value === null) delete credentials[member];
    // The same value sent again (as a declarative client does on every apply) is no change.
    else if (value !== undefined && value !== stored[member]) credentials[member] = ctx.now;
  }

  let merged: Settings;
  const preset = request.preset === undefined ? undefined : own(presets, String(request.preset));
  if (preset && Object.keys(request).length === 1) {
    // The preset replaces everything, stored credentials included.
    merged = { ...preset.settings, preset: request.preset };
    credentials = {};
  } else {
    merged = { ...stored };
    for (const [member, value] of Object.entries(request)) {
      if (value === null) delete merged[member];
      else merged[member] = value;
    }
  }
  // Only an object (or null, which clears every kind) merges per kind; any other
  // settings.attached stays as sent, for the schema to refuse as `wrong_type`.
  const sentAttached = request.attached;
  const mergeable = sentAttached == null || isPlainObject(sentAttached);
  if (mergeable && (attachedAlias !== undefined || sentAttached !== undefined)) {
    // The alias may still switch kinds back on after a null.
    const base = sentAttached === null ? undefined : (stored.attached as Settings | undefined);
    merged.attached = mergeAttached(base, { ...attachedAlias, ...(sentAttached as Settings | null) });
  }
  if (typeof merged.assertsSource === "string") {
    const { rows, errors } = parseAssertions(merged.assertsSource);
    if (errors.length > 0) {
      throw invalid(
        errors.map((e) => ({
          pointer: "/settings/assertsSource",
          reason: "syntax",
          line: e.line,
          message: `line ${e.line}: ${e.message}`,
        })),
        "invalid_settings",
      );
    }
    if (request.asserts === undefined) merged.asserts = rows;
  }

  const parsed = schema.safeParse(merged);
  if (!parsed.success) throw invalid(issuesToEntries(parsed.error.issues, merged, schema, ["settings"]));
  // The monitor kind's cross-member rules of settings and of attached kinds, as `vigil validate` runs them.
  throwRefusals(variantRuleRefusals(monitorKind, { type, settings: merged }, request));
  // assertsSource is write-only input: it lives on as the `asserts` it was parsed into.
  delete merged.assertsSource;
  throwRefusals(attachedRefusals({ type, attached: attachedAlias, settings: { attached: merged.attached } }));
  checkSettingsFeatures(ctx, merged);
  const pinnedPools = typeof merged.preset === "string" ? presets[merged.preset]?.pools : undefined;
  return {
    settings: normalizeSettings(type, merged),
    credentialsUpdatedAt: credentials,
    ...(pinnedPools && { pinnedPools }),
  };
}

/** A flow's opening step is read back as `steps[0]` with `synthesized: true`; sent back, it is dropped. */
function withoutSynthesizedSteps(request: Settings): Settings {
  if (!Array.isArray(request.steps)) return request;
  const steps = request.steps.filter((step) => (step as { synthesized?: unknown })?.synthesized !== true);
  return { ...request, steps };
}

const isPlainObject = (value: unknown): value is Settings =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function mergeAttached(stored: Settings | undefined, sent: Settings): Settings {
  const out: Settings = { ...stored };
  for (const [kind, toggle] of Object.entries(sent)) {
    out[kind] = typeof toggle === "boolean" ? { enabled: toggle } : toggle;
  }
  return out;
}

/** Plan features that settings members need: the monitor kind's own rule, as plans judge it. */
function checkSettingsFeatures(ctx: Ctx, s: Settings) {
  const [refusal] = settingsFeatureRefusals(s, entitlements(accountOf(ctx)));
  if (!refusal) return;
  const detail = `${refusal.message[0]!.toUpperCase()}${refusal.message.slice(1)}.`;
  throw new ApiProblem("package_limit", detail, {
    extra: { feature: refusal.feature, ...(refusal.limit ? { limit: refusal.limit } : {}) },
    errors: [{ pointer: refusal.pointer }],
  });
}
