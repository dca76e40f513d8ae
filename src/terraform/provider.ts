/**
 * The vigil provider's tfplugin6 handlers: values decoded from the wire, handed to the resource types and
 * data sources, and encoded back; failures become diagnostics at the attribute they concern.
 */
import { batchWritesFrom, openSession, SecretValues, secretValuesOf } from "../engine/index.ts";
import {
  type ConnectionSetting,
  type ConnectionValues,
  connectionSettings,
  missingSetting,
  tokenSetting,
} from "../kinds/index.ts";
import {
  blockType,
  type CtyType,
  type CtyValue,
  decodeJson,
  decodeMsgpack,
  encodeMsgpack,
  isKnown,
  isObjectValue,
  toMembers,
} from "./cty.ts";
import { dataSourceType, readDataSource, validateDataSource } from "./data-sources.ts";
import {
  type ApplyResourceChangeRequest,
  type Diagnostic,
  type DynamicValue,
  type DynamicValueOut,
  errorDiagnostic,
  type PlanResourceChangeRequest,
  type ProviderHandlers,
  type ServerCapabilities,
} from "./plugin/protocol.ts";
import { providerSchemaToProto } from "./plugin/schema-proto.ts";
import { readPrivate, writePrivate } from "./private-state.ts";
import { DiagnosticsError, PartialCreateError, protocolSteps } from "./resource-diagnostics.ts";
import { type ProviderContext, type ResourceType, resourceType } from "./resources.ts";
import { providerAddress, providerConfigSchema, providerSchema } from "./schema.ts";

const capabilities: ServerCapabilities = {
  // Destroys are planned by the provider too, so it can refuse one it cannot carry out.
  plan_destroy: true,
  // Terraform must ask for the schema in every process: it is derived from the kinds of this build.
  get_provider_schema_optional: false,
};

function decode(value: DynamicValue | null, type: CtyType): CtyValue {
  if (!value) return null;
  if (value.msgpack.length > 0) return decodeMsgpack(value.msgpack, type);
  if (value.json.length > 0) return decodeJson(value.json, type);
  return null;
}

const encode = (value: CtyValue, type: CtyType): DynamicValueOut => ({ msgpack: encodeMsgpack(value, type) });

/**
 * Runs a handler body; whatever it throws comes back as diagnostics. Every diagnostic, thrown or answered,
 * passes through `secrets` (the provider's output boundary): Terraform prints them as they are.
 */
async function answer<T extends object>(
  secrets: SecretValues,
  run: () => Promise<T> | T,
): Promise<T | { diagnostics: Diagnostic[] }> {
  const redacted = (diagnostics: Diagnostic[]) =>
    diagnostics.map((d) => ({
      ...d,
      summary: secrets.redact(d.summary),
      ...(d.detail !== undefined && { detail: secrets.redact(d.detail) }),
    }));
  try {
    const result = await run();
    const { diagnostics } = result as { diagnostics?: Diagnostic[] };
    return diagnostics ? { ...result, diagnostics: redacted(diagnostics) } : result;
  } catch (error) {
    return {
      diagnostics: redacted(error instanceof DiagnosticsError ? error.diagnostics : [errorDiagnostic(error)]),
    };
  }
}

const providerType = blockType(providerConfigSchema().block);

/**
 * Endpoint and token from the provider block, else from their environment variables, each judged by its
 * rule (kinds/connection.ts); every problem comes back as a diagnostic at once.
 */
function connection(config: CtyValue, env: NodeJS.ProcessEnv): ConnectionValues {
  const values = isObjectValue(config) ? config : {};
  const problems: Diagnostic[] = [];
  const attribute = (name: string) => ({ steps: [{ attribute_name: name }] });
  const pick = (setting: ConnectionSetting): string => {
    const { name, environment } = setting;
    const value = values[name] ?? null;
    if (value !== null && !isKnown(value)) {
      problems.push({
        severity: "ERROR",
        summary: `The provider's ${name} is not known until apply`,
        detail: `Configure ${name} from a value known at plan time (a variable, or ${environment}).`,
        attribute: attribute(name),
      });
      return "";
    }
    const given = typeof value === "string" && value !== "" ? value : env[environment];
    if (!given)
      problems.push({
        severity: "ERROR",
        summary: `${missingSetting(setting)} for the vigil provider`,
        detail: `Set ${name} in the provider block or the ${environment} environment variable.`,
      });
    return given ?? "";
  };
  const chosen = Object.fromEntries(connectionSettings.map((s) => [s.name, pick(s)])) as ConnectionValues;
  for (const setting of connectionSettings) {
    const refusal = chosen[setting.name] ? setting.refusal(chosen[setting.name]) : undefined;
    if (refusal)
      problems.push({
        severity: "ERROR",
        summary: `Invalid ${setting.name}`,
        detail: `The ${setting.name} ${refusal}.`,
        attribute: attribute(setting.name),
      });
  }
  if (problems.length > 0) throw new DiagnosticsError(problems);
  return chosen;
}

/** What the handlers of one provider process share. */
interface ProviderRun {
  readonly env: NodeJS.ProcessEnv;
  /** Every credential and token seen: no diagnostic shows one. */
  readonly secrets: SecretValues;
  context: ProviderContext | undefined;
  /** Terraform asked the provider to stop: no change starts. */
  stopping: boolean;
}

export function createHandlers(env: NodeJS.ProcessEnv = process.env): ProviderHandlers {
  const run: ProviderRun = { env, secrets: new SecretValues(), context: undefined, stopping: false };
  return { ...providerHandlers(run), ...resourceHandlers(run), ...dataSourceHandlers(run) };
}

/** The provider block as configured; its token (or the environment's) joins the secrets first. */
function providerValue(run: ProviderRun, value: DynamicValue | null): CtyValue {
  const config = decode(value, providerType);
  const token = isObjectValue(config) ? config.token : undefined;
  run.secrets.add(typeof token === "string" ? token : undefined).add(run.env[tokenSetting.environment]);
  return config;
}

/** A resource's value from the wire; its credentials join the secrets. */
function resourceValue(run: ProviderRun, type: ResourceType, value: DynamicValue | null): CtyValue {
  const decoded = decode(value, type.type);
  const { members } = toMembers(decoded, type.type);
  secretValuesOf([{ address: type.typeName, kind: type.kind.name, members }], run.secrets);
  return decoded;
}

function configured(run: ProviderRun): ProviderContext {
  if (!run.context) throw new Error("The vigil provider was used before Terraform configured it.");
  return run.context;
}

/** The provider's own RPCs: what it serves, its configuration, and stopping. */
function providerHandlers(
  run: ProviderRun,
): Pick<
  ProviderHandlers,
  "GetMetadata" | "GetProviderSchema" | "ValidateProviderConfig" | "ConfigureProvider" | "StopProvider"
> {
  const schema = providerSchema().provider_schemas[providerAddress]!;
  let protoSchema: ReturnType<typeof providerSchemaToProto> | undefined;
  const { secrets, env } = run;
  return {
    GetMetadata: () => ({
      server_capabilities: capabilities,
      resources: Object.keys(schema.resource_schemas).map((type_name) => ({ type_name })),
      data_sources: Object.keys(schema.data_source_schemas).map((type_name) => ({ type_name })),
    }),
    GetProviderSchema: () => {
      protoSchema ??= providerSchemaToProto(schema);
      return { ...protoSchema, server_capabilities: capabilities };
    },
    ValidateProviderConfig: (request) =>
      answer(secrets, () => {
        const config = providerValue(run, request.config);
        const endpoint = isObjectValue(config) ? (config.endpoint ?? null) : null;
        // Only a value written in the block is judged here: the environment is read when configuring.
        if (typeof endpoint === "string") connection(config, { [tokenSetting.environment]: "-" });
        return {};
      }),
    ConfigureProvider: (request) =>
      answer(secrets, () => {
        const { endpoint, token } = connection(providerValue(run, request.config), env);
        run.context ??= openSession(endpoint, token, { keyPrefix: "tf", batchWrites: batchWritesFrom(env) });
        return {};
      }),
    // Calls in flight finish (a write cut short would leave Terraform unsure of the object); none start after.
    StopProvider: () => {
      run.stopping = true;
      return {};
    },
  };
}

/** The resources' RPCs, each handed to its resource type. */
function resourceHandlers(
  run: ProviderRun,
): Pick<
  ProviderHandlers,
  | "ValidateResourceConfig"
  | "UpgradeResourceState"
  | "ReadResource"
  | "PlanResourceChange"
  | "ApplyResourceChange"
  | "ImportResourceState"
> {
  const { secrets } = run;
  return {
    ValidateResourceConfig: (request) =>
      answer(secrets, () => {
        const type = resourceType(request.type_name);
        return { diagnostics: type.validate(resourceValue(run, type, request.config)) };
      }),
    UpgradeResourceState: (request) =>
      answer(secrets, () => {
        const type = resourceType(request.type_name);
        const raw = request.raw_state;
        if (!raw || raw.json.length === 0)
          throw new Error(
            "This state predates Terraform 0.12 (flatmap); the vigil provider reads JSON state only.",
          );
        return { upgraded_state: encode(type.upgrade(request.version, raw.json), type.type) };
      }),
    ReadResource: (request) =>
      answer(secrets, async () => {
        const type = resourceType(request.type_name);
        const current = resourceValue(run, type, request.current_state);
        const read = await type.read(configured(run), current, readPrivate(request.private));
        return { new_state: encode(read.state, type.type), private: writePrivate(read.private) };
      }),
    PlanResourceChange: (request) => answer(secrets, () => planResourceChange(run, request)),
    ApplyResourceChange: (request) => answer(secrets, () => applyResourceChange(run, request)),
    ImportResourceState: (request) =>
      answer(secrets, () => {
        const type = resourceType(request.type_name);
        if (request.id.trim() === "")
          throw new Error(`Import ${request.type_name} by the object's id, as the API shows it.`);
        const imported = type.importState(request.id.trim());
        return {
          imported_resources: [
            {
              type_name: request.type_name,
              state: encode(imported.state, type.type),
              private: writePrivate(imported.private),
            },
          ],
        };
      }),
  };
}

async function planResourceChange(run: ProviderRun, request: PlanResourceChangeRequest) {
  const type = resourceType(request.type_name);
  const prior = resourceValue(run, type, request.prior_state);
  const config = resourceValue(run, type, request.config);
  const plan = type.plan(
    prior,
    resourceValue(run, type, request.proposed_new_state),
    config,
    readPrivate(request.prior_private),
  );
  // Before any write, what the account would refuse (docs/engine.md, "Account checks").
  const diagnostics =
    plan.writes && run.context
      ? await type.accountDiagnostics(run.context, prior, config, plan.requiresReplace.length > 0)
      : [];
  if (diagnostics.some((d) => d.severity === "ERROR")) return { diagnostics };
  return {
    ...(diagnostics.length > 0 && { diagnostics }),
    planned_state: encode(plan.planned, type.type),
    requires_replace: plan.requiresReplace.map((steps) => ({ steps: protocolSteps(steps) })),
    planned_private: writePrivate(plan.private),
  };
}

async function applyResourceChange(run: ProviderRun, request: ApplyResourceChangeRequest) {
  if (run.stopping)
    throw new Error("Terraform asked the vigil provider to stop: no further changes were made.");
  const type = resourceType(request.type_name);
  const applied = await type
    .apply(
      configured(run),
      resourceValue(run, type, request.prior_state),
      resourceValue(run, type, request.planned_state),
      resourceValue(run, type, request.config),
      readPrivate(request.planned_private),
    )
    .catch((error: unknown) => {
      // The object exists: its state goes back with the errors, and Terraform keeps it, tainted.
      if (!(error instanceof PartialCreateError)) throw error;
      return { state: error.state, private: error.private, diagnostics: error.diagnostics };
    });
  return {
    new_state: encode(applied.state, type.type),
    private: writePrivate(applied.private),
    ...("diagnostics" in applied && { diagnostics: applied.diagnostics }),
  };
}

/** The data sources' RPCs. */
function dataSourceHandlers(
  run: ProviderRun,
): Pick<ProviderHandlers, "ValidateDataResourceConfig" | "ReadDataSource"> {
  return {
    ValidateDataResourceConfig: (request) =>
      answer(run.secrets, () => ({
        diagnostics: validateDataSource(
          request.type_name,
          decode(request.config, dataSourceType(request.type_name)),
        ),
      })),
    ReadDataSource: (request) =>
      answer(run.secrets, async () => {
        const type = dataSourceType(request.type_name);
        const state = await readDataSource(
          configured(run).ops,
          request.type_name,
          decode(request.config, type),
        );
        return { state: encode(state, type) };
      }),
  };
}
