/**
 * From the schema JSON of `terraform providers schema -json` (what provider.json holds) to the tfplugin6
 * Schema messages of GetProviderSchema. The JSON is the one source; this only changes its shape.
 */
import type {
  GetProviderSchemaResponse,
  Schema,
  SchemaAttribute,
  SchemaBlock,
  SchemaNestedBlock,
  SchemaObject,
  StringKind,
} from "./protocol.ts";

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

export interface NestedTypeJson {
  attributes: Record<string, AttributeJson>;
  nesting_mode: "single" | "list" | "set" | "map";
}

export interface BlockTypeJson {
  nesting_mode: "single" | "list" | "set" | "map" | "group";
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

const kind = (k: "plain" | "markdown" | undefined): StringKind => (k === "markdown" ? "MARKDOWN" : "PLAIN");
const upper = <T extends string>(mode: T) => mode.toUpperCase() as Uppercase<T>;

function attribute(name: string, json: AttributeJson): SchemaAttribute {
  const out: SchemaAttribute = {
    name,
    description: json.description ?? "",
    description_kind: kind(json.description_kind),
    required: json.required ?? false,
    optional: json.optional ?? false,
    computed: json.computed ?? false,
    sensitive: json.sensitive ?? false,
    deprecated: json.deprecated ?? false,
    write_only: json.write_only ?? false,
  };
  if (json.nested_type) out.nested_type = nestedType(json.nested_type);
  // The wire carries the type expression as JSON bytes, the same text as in the -json output.
  else if (json.type !== undefined) out.type = Buffer.from(JSON.stringify(json.type));
  else throw new Error(`attribute ${name} has neither type nor nested_type`);
  return out;
}

function nestedType(json: NestedTypeJson): SchemaObject {
  return {
    attributes: Object.entries(json.attributes).map(([name, a]) => attribute(name, a)),
    nesting: upper(json.nesting_mode),
  };
}

function block(json: BlockJson, version = 0): SchemaBlock {
  return {
    version,
    attributes: Object.entries(json.attributes ?? {}).map(([name, a]) => attribute(name, a)),
    block_types: Object.entries(json.block_types ?? {}).map(
      ([name, b]): SchemaNestedBlock => ({
        type_name: name,
        block: block(b.block),
        nesting: upper(b.nesting_mode),
        min_items: b.min_items ?? 0,
        max_items: b.max_items ?? 0,
      }),
    ),
    description: json.description ?? "",
    description_kind: kind(json.description_kind),
    deprecated: json.deprecated ?? false,
  };
}

/** One schema (a provider block, a resource type or a data source). */
export function schemaToProto(json: SchemaJson): Schema {
  return { version: json.version, block: block(json.block, json.version) };
}

const mapValues = (record: Record<string, SchemaJson> | undefined) =>
  Object.fromEntries(Object.entries(record ?? {}).map(([name, s]) => [name, schemaToProto(s)]));

/** The GetProviderSchema answer for a whole provider entry. */
export function providerSchemaToProto(json: ProviderSchemaJson): GetProviderSchemaResponse {
  return {
    provider: schemaToProto(json.provider),
    resource_schemas: mapValues(json.resource_schemas),
    data_source_schemas: mapValues(json.data_source_schemas),
  };
}
