/**
 * The schema format of `terraform providers schema -json` (what provider.json holds), as one set of
 * types for everything that reads it: the tfplugin6 conversion, and the implied types of cty values.
 */

/** A cty type expression: "string", ["list", "string"], ["object", {"a": "number"}], ... */
export type CtyTypeJson = string | [string, unknown] | [string, unknown, unknown];

export interface AttributeJson {
  type?: CtyTypeJson;
  nested_type?: NestedTypeJson;
  description?: string;
  description_kind?: "plain" | "markdown";
  required?: boolean;
  optional?: boolean;
  computed?: boolean;
  sensitive?: boolean;
  deprecated?: boolean;
  write_only?: boolean;
}

export type NestingMode = "single" | "list" | "set" | "map";

export interface NestedTypeJson {
  attributes: Record<string, AttributeJson>;
  nesting_mode: NestingMode;
}

export interface BlockTypeJson {
  nesting_mode: NestingMode | "group";
  block: BlockJson;
  min_items?: number;
  max_items?: number;
}

export interface BlockJson {
  attributes?: Record<string, AttributeJson>;
  block_types?: Record<string, BlockTypeJson>;
  description?: string;
  description_kind?: "plain" | "markdown";
  deprecated?: boolean;
}

export interface SchemaJson {
  version: number;
  block: BlockJson;
}

/** One provider's entry under `provider_schemas` in `terraform providers schema -json`. */
export interface ProviderSchemaJson {
  provider: SchemaJson;
  resource_schemas?: Record<string, SchemaJson>;
  data_source_schemas?: Record<string, SchemaJson>;
}
