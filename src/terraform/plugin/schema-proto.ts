/**
 * From the schema JSON of `terraform providers schema -json` (what provider.json holds) to the tfplugin6
 * Schema messages of GetProviderSchema. The JSON is the one source; this only changes its shape.
 */

import type {
  AttributeJson,
  BlockJson,
  NestedTypeJson,
  ProviderSchemaJson,
  SchemaJson,
} from "../schema-json.ts";
import type {
  GetProviderSchemaResponse,
  Schema,
  SchemaAttribute,
  SchemaBlock,
  SchemaNestedBlock,
  SchemaObject,
  StringKind,
} from "./protocol.ts";

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
