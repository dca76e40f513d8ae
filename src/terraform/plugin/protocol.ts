/**
 * The tfplugin6 messages as grpc-js and proto-loader hand them over (see `LOADER_OPTIONS` in server.ts):
 * field names as in the .proto (snake_case), int64 as number, enums as their names, bytes as Buffer, and
 * every scalar and repeated field present with its default. Message fields that were not sent are `null`.
 * Responses may leave out any field: it is sent as its default.
 */

/** A value of a schema's type: exactly one of the two is non-empty. */
export interface DynamicValue {
  msgpack: Buffer;
  json: Buffer;
}
/** What a response carries: one encoding is enough. */
export type DynamicValueOut = { msgpack: Uint8Array } | { json: Uint8Array };

export type AttributePathStep =
  | { attribute_name: string }
  | { element_key_string: string }
  | { element_key_int: number };
export interface AttributePath {
  steps: AttributePathStep[];
}

export interface Diagnostic {
  severity: "ERROR" | "WARNING";
  summary: string;
  detail?: string;
  attribute?: AttributePath;
}

export interface ClientCapabilities {
  deferral_allowed: boolean;
  write_only_attributes_allowed: boolean;
}

export interface ServerCapabilities {
  plan_destroy?: boolean;
  get_provider_schema_optional?: boolean;
  move_resource_state?: boolean;
}

export interface Deferred {
  reason: "RESOURCE_CONFIG_UNKNOWN" | "PROVIDER_CONFIG_UNKNOWN" | "ABSENT_PREREQ";
}

export type StringKind = "PLAIN" | "MARKDOWN";

/** tfplugin6.Schema. */
export interface Schema {
  version?: number;
  block: SchemaBlock;
}
export interface SchemaBlock {
  version?: number;
  attributes?: SchemaAttribute[];
  block_types?: SchemaNestedBlock[];
  description?: string;
  description_kind?: StringKind;
  deprecated?: boolean;
}
export interface SchemaAttribute {
  name: string;
  /** JSON of the cty type expression; absent when `nested_type` is set. */
  type?: Uint8Array;
  nested_type?: SchemaObject;
  description?: string;
  description_kind?: StringKind;
  required?: boolean;
  optional?: boolean;
  computed?: boolean;
  sensitive?: boolean;
  deprecated?: boolean;
  write_only?: boolean;
}
export interface SchemaNestedBlock {
  type_name: string;
  block: SchemaBlock;
  nesting: "SINGLE" | "LIST" | "SET" | "MAP" | "GROUP";
  min_items?: number;
  max_items?: number;
}
export interface SchemaObject {
  attributes: SchemaAttribute[];
  nesting: "SINGLE" | "LIST" | "SET" | "MAP";
}

interface WithDiagnostics {
  diagnostics?: Diagnostic[];
}

export interface GetMetadataResponse extends WithDiagnostics {
  server_capabilities?: ServerCapabilities;
  data_sources?: { type_name: string }[];
  resources?: { type_name: string }[];
}

export interface GetProviderSchemaResponse extends WithDiagnostics {
  provider?: Schema;
  resource_schemas?: Record<string, Schema>;
  data_source_schemas?: Record<string, Schema>;
  provider_meta?: Schema;
  server_capabilities?: ServerCapabilities;
}

export interface ValidateProviderConfigRequest {
  config: DynamicValue | null;
}
export interface ValidateResourceConfigRequest {
  type_name: string;
  config: DynamicValue | null;
  client_capabilities: ClientCapabilities | null;
}
export interface ValidateDataResourceConfigRequest {
  type_name: string;
  config: DynamicValue | null;
}

export interface UpgradeResourceStateRequest {
  type_name: string;
  /** The schema version the state was written with. */
  version: number;
  raw_state: { json: Buffer; flatmap: Record<string, string> } | null;
}
export interface UpgradeResourceStateResponse extends WithDiagnostics {
  upgraded_state?: DynamicValueOut;
}

export interface ConfigureProviderRequest {
  terraform_version: string;
  config: DynamicValue | null;
  client_capabilities: ClientCapabilities | null;
}

export interface ReadResourceRequest {
  type_name: string;
  current_state: DynamicValue | null;
  private: Buffer;
  provider_meta: DynamicValue | null;
  client_capabilities: ClientCapabilities | null;
}
export interface ReadResourceResponse extends WithDiagnostics {
  new_state?: DynamicValueOut;
  private?: Uint8Array;
  deferred?: Deferred;
}

export interface PlanResourceChangeRequest {
  type_name: string;
  prior_state: DynamicValue | null;
  proposed_new_state: DynamicValue | null;
  config: DynamicValue | null;
  prior_private: Buffer;
  provider_meta: DynamicValue | null;
  client_capabilities: ClientCapabilities | null;
}
export interface PlanResourceChangeResponse extends WithDiagnostics {
  planned_state?: DynamicValueOut;
  requires_replace?: AttributePath[];
  planned_private?: Uint8Array;
  deferred?: Deferred;
}

export interface ApplyResourceChangeRequest {
  type_name: string;
  prior_state: DynamicValue | null;
  planned_state: DynamicValue | null;
  config: DynamicValue | null;
  planned_private: Buffer;
  provider_meta: DynamicValue | null;
}
export interface ApplyResourceChangeResponse extends WithDiagnostics {
  new_state?: DynamicValueOut;
  private?: Uint8Array;
}

export interface ImportResourceStateRequest {
  type_name: string;
  id: string;
  client_capabilities: ClientCapabilities | null;
}
export interface ImportResourceStateResponse extends WithDiagnostics {
  imported_resources?: { type_name: string; state: DynamicValueOut; private?: Uint8Array }[];
  deferred?: Deferred;
}

export interface ReadDataSourceRequest {
  type_name: string;
  config: DynamicValue | null;
  provider_meta: DynamicValue | null;
  client_capabilities: ClientCapabilities | null;
}
export interface ReadDataSourceResponse extends WithDiagnostics {
  state?: DynamicValueOut;
  deferred?: Deferred;
}

type Reply<T> = T | Promise<T>;

/**
 * One method per tfplugin6.Provider RPC, named as the RPC. A handler that throws answers with an error
 * diagnostic (StopProvider: with its `Error` text) rather than a failed call, so Terraform shows it.
 */
export interface ProviderHandlers {
  GetMetadata(request: Record<string, never>): Reply<GetMetadataResponse>;
  GetProviderSchema(request: Record<string, never>): Reply<GetProviderSchemaResponse>;
  ValidateProviderConfig(request: ValidateProviderConfigRequest): Reply<WithDiagnostics>;
  ValidateResourceConfig(request: ValidateResourceConfigRequest): Reply<WithDiagnostics>;
  ValidateDataResourceConfig(request: ValidateDataResourceConfigRequest): Reply<WithDiagnostics>;
  UpgradeResourceState(request: UpgradeResourceStateRequest): Reply<UpgradeResourceStateResponse>;
  ConfigureProvider(request: ConfigureProviderRequest): Reply<WithDiagnostics>;
  ReadResource(request: ReadResourceRequest): Reply<ReadResourceResponse>;
  PlanResourceChange(request: PlanResourceChangeRequest): Reply<PlanResourceChangeResponse>;
  ApplyResourceChange(request: ApplyResourceChangeRequest): Reply<ApplyResourceChangeResponse>;
  ImportResourceState(request: ImportResourceStateRequest): Reply<ImportResourceStateResponse>;
  ReadDataSource(request: ReadDataSourceRequest): Reply<ReadDataSourceResponse>;
  /** Terraform asks the provider to stop what it is doing (Ctrl-C); an empty `Error` means it did. */
  StopProvider(request: Record<string, never>): Reply<{ Error?: string }>;
}

export type ProviderRpc = keyof ProviderHandlers;

/** The RPCs, in the order of the service definition. */
export const PROVIDER_RPCS: readonly ProviderRpc[] = [
  "GetMetadata",
  "GetProviderSchema",
  "ValidateProviderConfig",
  "ValidateResourceConfig",
  "ValidateDataResourceConfig",
  "UpgradeResourceState",
  "ConfigureProvider",
  "ReadResource",
  "PlanResourceChange",
  "ApplyResourceChange",
  "ImportResourceState",
  "ReadDataSource",
  "StopProvider",
];

/** An error diagnostic from anything thrown. */
export function errorDiagnostic(error: unknown, summary?: string): Diagnostic {
  const message = error instanceof Error ? error.message : String(error);
  return summary ? { severity: "ERROR", summary, detail: message } : { severity: "ERROR", summary: message };
}
