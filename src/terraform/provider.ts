/**
 * The vigil provider's tfplugin6 handlers. This build answers the schema RPCs, config validation and
 * StopProvider; the resource lifecycle RPCs answer an error diagnostic until they are built on the engine.
 */
import type { Diagnostic, ProviderHandlers, ServerCapabilities } from "./plugin/protocol.ts";
import { providerSchemaToProto } from "./plugin/schema-proto.ts";
import { providerAddress, providerSchema } from "./schema.ts";

const capabilities: ServerCapabilities = {
  // Destroys are planned by the provider too, so it can refuse one it cannot carry out.
  plan_destroy: true,
  // Terraform must ask for the schema in every process: it is derived from the kinds of this build.
  get_provider_schema_optional: false,
};

const notImplemented = (rpc: string): { diagnostics: Diagnostic[] } => ({
  diagnostics: [
    { severity: "ERROR", summary: `${rpc} is not implemented yet in this build of the vigil provider` },
  ],
});

export function createHandlers(): ProviderHandlers {
  const schema = providerSchema().provider_schemas[providerAddress]!;
  let protoSchema: ReturnType<typeof providerSchemaToProto> | undefined;
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
    ValidateProviderConfig: () => ({}),
    ValidateResourceConfig: () => notImplemented("ValidateResourceConfig"),
    ValidateDataResourceConfig: () => notImplemented("ValidateDataResourceConfig"),
    UpgradeResourceState: () => notImplemented("UpgradeResourceState"),
    ConfigureProvider: () => notImplemented("ConfigureProvider"),
    ReadResource: () => notImplemented("ReadResource"),
    PlanResourceChange: () => notImplemented("PlanResourceChange"),
    ApplyResourceChange: () => notImplemented("ApplyResourceChange"),
    ImportResourceState: () => notImplemented("ImportResourceState"),
    ReadDataSource: () => notImplemented("ReadDataSource"),
    // Nothing runs in the background between calls yet, so there is nothing to stop.
    StopProvider: () => ({}),
  };
}
