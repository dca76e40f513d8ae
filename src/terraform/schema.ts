/**
 * The Terraform provider's schema, in the JSON format `terraform providers schema -json` prints (what
 * provider.json holds): the resources' (`attributes.ts`, rendered from the kinds' attribute trees), the data
 * sources' and the provider block's (`data-source-schemas.ts`).
 */

import { resourceSchema, resourceTypes, type Schema, sorted } from "./attributes.ts";
import { dataSourceSchema, dataSourceTypes, providerConfigSchema } from "./data-source-schemas.ts";

export * from "./attributes.ts";
export * from "./data-source-schemas.ts";

export const providerAddress = "registry.terraform.io/vigil/vigil";

export interface ProviderSchemas {
  format_version: "1.0";
  provider_schemas: Record<
    string,
    {
      provider: Schema;
      resource_schemas: Record<string, Schema>;
      data_source_schemas: Record<string, Schema>;
    }
  >;
}

/** The whole schema, as `terraform providers schema -json` prints it for this provider. */
export function providerSchema(): ProviderSchemas {
  return {
    format_version: "1.0",
    provider_schemas: {
      [providerAddress]: {
        provider: providerConfigSchema(),
        resource_schemas: sorted(
          Object.fromEntries(Object.keys(resourceTypes).map((t) => [t, resourceSchema(t)])),
        ),
        data_source_schemas: Object.fromEntries(dataSourceTypes.map((t) => [t, dataSourceSchema(t)])),
      },
    },
  };
}
