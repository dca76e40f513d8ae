/**
 * The JSON Schema (draft 2020-12) of a `vigil/v1` file, generated from the
 * kinds through the format's rules in format.ts, so editors complete and
 * check exactly the members the loader accepts. `npm run generate` writes it
 * to schemas/vigil.schema.json.
 */
import { engineKind } from "../engine/kinds/index.ts";
import type { KindName } from "../engine/model.ts";
import {
  bodySchema,
  inputSchemaOf,
  type JsonSchema,
  jsonSchemaOf,
  type KindDefinition,
  type KindVariants,
} from "../kinds/index.ts";
import {
  configNameOf,
  entryNameOf,
  type fileKeys,
  formatOf,
  formatVersion,
  lifecycleOptions,
  type NestedKind,
  namePattern,
  nestedAddress,
  nestedIn,
  nestedKinds,
  sectionOf,
  topLevelKinds,
  topLevelSections,
} from "./format.ts";
import { envPlaceholderSource, isoTimeSource } from "./syntax.ts";

export const schemaId = "https://vigil.dev/schemas/vigil.schema.json";

const ref = (name: string) => `#/$defs/${name}`;
const titleOf = (kind: KindName) => engineKind(kind).definition.title;
const isSchema = (value: unknown): value is JsonSchema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Keywords that describe a value without constraining it: they stay on the outside when a schema is rewritten. */
const annotationKeywords = new Set([
  "title",
  "description",
  "default",
  "examples",
  "readOnly",
  "writeOnly",
  "deprecated",
]);

function annotationsOf(node: JsonSchema): JsonSchema {
  return Object.fromEntries(
    Object.entries(node).filter(([key]) => annotationKeywords.has(key) || key.startsWith("x-")),
  );
}

function withoutAnnotations(node: JsonSchema): JsonSchema {
  return Object.fromEntries(
    Object.entries(node).filter(([key]) => !annotationKeywords.has(key) && !key.startsWith("x-")),
  );
}

/** A schema and the alternatives it is made of (`anyOf`, `oneOf`, `allOf`), recursively. */
function alternatives(node: JsonSchema): JsonSchema[] {
  const out = [node];
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    const branches = node[key];
    if (Array.isArray(branches)) for (const branch of branches) out.push(...alternatives(branch));
  }
  return out;
}

/** The object schemas at a format path (`["members", "*"]`), looking through alternatives. */
function objectsAt(root: JsonSchema, at: readonly string[]): JsonSchema[] {
  let nodes = [root];
  for (const token of at) {
    nodes = nodes.flatMap(alternatives).flatMap((node) => {
      const next =
        token === "*" ? node.items : (node.properties as Record<string, unknown> | undefined)?.[token];
      return isSchema(next) ? [next] : [];
    });
  }
  return nodes.flatMap(alternatives).filter((node) => isSchema(node.properties));
}

/**
 * Replaces the leaves of a member's schema that have the given JSON type,
 * through arrays and alternatives: a reference's id strings (alone, in a
 * list, or nullable) or a timestamp's integer.
 */
function replaceLeaves(
  node: JsonSchema,
  type: string,
  replace: (leaf: JsonSchema) => JsonSchema,
): JsonSchema {
  if (node.type === type) return replace(node);
  const out = { ...node };
  for (const key of ["anyOf", "oneOf"]) {
    const branches = node[key];
    if (Array.isArray(branches)) out[key] = branches.map((b: JsonSchema) => replaceLeaves(b, type, replace));
  }
  if (isSchema(node.items)) out.items = replaceLeaves(node.items, type, replace);
  return out;
}

/** Renames a member of an object schema in place, keeping the members' order. */
function renameMember(object: JsonSchema, from: string, to: string, schema: JsonSchema): void {
  const properties = object.properties as Record<string, JsonSchema>;
  object.properties = Object.fromEntries(
    Object.entries(properties).map(([name, value]) => (name === from ? [to, schema] : [name, value])),
  );
  if (Array.isArray(object.required)) object.required = object.required.map((r) => (r === from ? to : r));
}

const timestamp = (leaf: JsonSchema): JsonSchema => ({
  ...annotationsOf(leaf),
  description: [
    leaf.description,
    "Written as ISO 8601 with a zone (2026-12-01T02:00:00Z) or as Unix seconds.",
  ]
    .filter(Boolean)
    .join(" "),
  oneOf: [
    { type: "integer", minimum: 0, description: "Unix seconds." },
    { type: "string", pattern: isoTimeSource, description: "ISO 8601 with a zone." },
  ],
});

/**
 * A kind's members as a config writes them: the kind's input schema with
 * references renamed to their config names and typed as logical names, and
 * timestamps also accepted as ISO 8601; plus `lifecycle`.
 */
function resourceSchema(kind: KindName): JsonSchema {
  const schema = jsonSchemaOf(inputSchemaOf(engineKind(kind).definition), { embedded: true });
  const format = formatOf(kind);
  for (const reference of format.references) {
    for (const object of objectsAt(schema, reference.at)) {
      const member = (object.properties as Record<string, JsonSchema>)[reference.member];
      if (!member) continue;
      const named = replaceLeaves(member, "string", (leaf) => ({
        ...annotationsOf(leaf),
        $ref: ref(`${reference.target}Name`),
      }));
      renameMember(object, reference.member, reference.yamlName, named);
    }
  }
  for (const { at, member } of format.timestamps) {
    for (const object of objectsAt(schema, at)) {
      const properties = object.properties as Record<string, JsonSchema>;
      if (properties[member]) properties[member] = replaceLeaves(properties[member], "integer", timestamp);
    }
  }
  (schema.properties as Record<string, JsonSchema>).lifecycle = { $ref: ref("lifecycle") };
  return { title: titleOf(kind), ...schema };
}

/** The names a variant is written with: its canonical name and its aliases. */
function variantNames(variants: KindVariants, variant: string): string[] {
  const aliases = variants.aliases ?? {};
  return [variant, ...Object.keys(aliases).filter((alias) => aliases[alias] === variant)];
}

const pascal = (name: string) => `${name.charAt(0).toUpperCase()}${name.slice(1)}`;

/** The `$defs` name of one variant's schema: `httpSettings`. */
const variantDef = (variants: KindVariants, variant: string) => `${variant}${pascal(variants.member)}`;

/**
 * A top-level kind as a config writes it. Its variant member (a monitor's `settings`) is checked against the
 * schema its discriminator names through `if`/`then` branches (as GET /monitor/type/schema does), so editors
 * complete the settings of the chosen type; the kinds nested in it are members (`withNested`).
 */
function topLevelSchema(kind: KindName): JsonSchema {
  const schema = resourceSchema(kind);
  const variants = engineKind(kind).definition.variants;
  if (variants) {
    const { discriminator, member } = variants;
    schema.allOf = Object.keys(variants.schemas).map((variant) => ({
      if: {
        properties: { [discriminator]: { enum: variantNames(variants, variant) } },
        required: [discriminator],
      },
      // biome-ignore lint/suspicious/noThenProperty: `then` is JSON Schema's keyword, not a promise.
      then: { properties: { [member]: { $ref: ref(variantDef(variants, variant)) } } },
    }));
  }
  return withNested(kind, schema);
}

/**
 * A top-level kind's schema with the kinds nested in it as members (a monitor's `alerts` and `reports`): a
 * list of entries for a kind keyed by a reference, a map by logical name for one with names of its own.
 */
function withNested(kind: KindName, schema: JsonSchema): JsonSchema {
  const properties = schema.properties as Record<string, JsonSchema>;
  for (const nested of nestedIn(kind)) {
    const each = `each is the resource ${nestedAddress(nested, `<${kind}>`, entryNameOf(nested))}.`;
    const parent = titleOf(kind).toLowerCase();
    properties[nested.member] =
      nested.keyedBy === undefined
        ? {
            type: "object",
            description: `${titleOf(nested.kind)}s of this ${parent}, by logical name; ${each}`,
            propertyNames: { pattern: namePattern.source },
            additionalProperties: { $ref: ref(nested.kind) },
          }
        : {
            type: "array",
            description: `${titleOf(nested.kind)}s of this ${parent}, one per ${configNameOf(nested.kind, [], nested.keyedBy)}; ${each}`,
            items: { $ref: ref(nested.kind) },
          };
  }
  return schema;
}

/** Each variant's schema of a kind's variant member, as the service checks it on write (read-only members left out). */
function variantSchemas(definition: KindDefinition): Record<string, JsonSchema> {
  const variants = definition.variants;
  if (!variants) return {};
  const { discriminator, member } = variants;
  return Object.fromEntries(
    Object.entries(variants.schemas).map(([variant, schema]) => [
      variantDef(variants, variant),
      {
        title: `${variant} ${member}`,
        description: `${pascal(member)} of a ${variants.label?.(variant) ?? variant} ${definition.title.toLowerCase()} (${discriminator} ${variantNames(variants, variant).join(" or ")}).`,
        ...jsonSchemaOf(bodySchema(schema, "create"), { embedded: true }),
      },
    ]),
  );
}

/**
 * An entry of a nested kind (a monitor's `alerts`): the resource without its parent's reference, which the
 * place it is written gives; the reference naming the entry (`contact`), when there is one, is required.
 */
function nestedSchema(nested: NestedKind): JsonSchema {
  const schema = resourceSchema(nested.kind);
  const properties = schema.properties as Record<string, JsonSchema>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  for (const r of formatOf(nested.kind).references.filter((r) => r.at.length === 0)) {
    if (r.member === nested.parentMember) {
      delete properties[r.yamlName];
      required.delete(r.yamlName);
    } else if (r.member === nested.keyedBy) required.add(r.yamlName);
  }
  schema.required = [...required];
  return schema;
}

const memberPaths: JsonSchema = {
  type: "array",
  items: { type: "string", pattern: "^[^.]+(\\.[^.]+)*$" },
};

const lifecycleOptionSchemas = {
  protect: { type: "boolean", description: "The plan refuses to delete or replace it." },
  ignoreChanges: {
    ...memberPaths,
    description:
      "Member paths, dotted, in the config's names (settings.timeout): differences under them are neither shown nor sent.",
  },
  retainOnDelete: {
    type: "boolean",
    description: "Removing it from the config forgets it instead of deleting it.",
  },
  replaceOnChanges: {
    ...memberPaths,
    description: "Member paths, dotted, in the config's names: a change under them replaces the resource.",
  },
} satisfies Record<(typeof lifecycleOptions)[number], JsonSchema>;

const lifecycleSchema: JsonSchema = {
  title: "Lifecycle",
  description: "How vigil treats this resource beyond its members.",
  type: "object",
  properties: Object.fromEntries(lifecycleOptions.map((o) => [o, lifecycleOptionSchemas[o]])),
  additionalProperties: false,
};

const name = namePattern.source.replace(/^\^/, "").replace(/\$$/, "");

/** An engine address: `<section>.<name>`, or `<parent>.<name>.<member>.<name>` for a nested kind. */
const addressSource = `^(${[
  `(${topLevelSections.join("|")})\\.${name}`,
  ...[...new Set(nestedKinds.map((n) => n.parent))].map(
    (parent) =>
      `${sectionOf(parent)}\\.${name}\\.(${nestedIn(parent)
        .map((n) => n.member)
        .join("|")})\\.${name}`,
  ),
].join("|")})$`;

const importSchema: JsonSchema = {
  title: "Import",
  description: "Brings an existing object under an address of this config instead of creating it.",
  type: "object",
  properties: {
    to: {
      type: "string",
      pattern: addressSource,
      description: `The address declared in the config: <collection>.<name>, or ${nestedKinds.map((n) => nestedAddress(n, `<${n.parent}>`, entryNameOf(n))).join(" or ")}.`,
    },
    id: { type: "string", minLength: 1, description: "The id of the existing object." },
  },
  required: ["to", "id"],
  additionalProperties: false,
};

function sectionSchema(kind: KindName): JsonSchema {
  return {
    type: ["object", "null"],
    description: `${titleOf(kind)}s by logical name; each is the resource ${sectionOf(kind)}.<name>.`,
    propertyNames: {
      pattern: namePattern.source,
      description: "A logical name: lower-case letters, digits, _ and -, starting with a letter or digit.",
    },
    additionalProperties: { $ref: ref(kind) },
  };
}

const fileKeySchemas = {
  format: { const: formatVersion, description: "The format of this file." },
  imports: {
    type: "array",
    description: "Existing objects to adopt, each under an address the config declares.",
    items: { $ref: ref("import") },
  },
} satisfies Record<(typeof fileKeys)[number], JsonSchema>;

/** Schema keywords whose values are schemas (`if` aside: a condition never holds a value). */
const schemaMaps = ["properties", "patternProperties", "$defs"];
const schemaLists = ["anyOf", "oneOf", "allOf", "prefixItems"];
const schemaSingles = ["items", "additionalProperties", "contains", "not", "then", "else"];
const stringConstraints = ["enum", "const", "pattern", "format", "minLength", "maxLength"];

/**
 * Lets every constrained string also be a `${env:NAME}` placeholder: the
 * loader replaces it before checking the value, so a secret, or any value,
 * can come from the environment whatever format its member has.
 */
function acceptEnv(node: JsonSchema): JsonSchema {
  if (node.type === "string" && stringConstraints.some((k) => k in node))
    return { ...annotationsOf(node), anyOf: [withoutAnnotations(node), { $ref: ref("envPlaceholder") }] };
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (schemaMaps.includes(key) && isSchema(value))
      out[key] = Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, isSchema(v) ? acceptEnv(v) : v]),
      );
    else if (schemaLists.includes(key) && Array.isArray(value))
      out[key] = value.map((v) => (isSchema(v) ? acceptEnv(v) : v));
    else if (schemaSingles.includes(key) && isSchema(value)) out[key] = acceptEnv(value);
    else out[key] = value;
  }
  return out;
}

const envForms = `\${env:NAME} or \${env:NAME:-default}`;

/** The JSON Schema of a vigil file. */
export function vigilJsonSchema(): JsonSchema {
  const defs: Record<string, JsonSchema> = {};
  const targets = new Set(
    [...topLevelKinds, ...nestedKinds.map((n) => n.kind)].flatMap((k) =>
      formatOf(k).references.map((r) => r.target),
    ),
  );
  for (const target of targets) {
    defs[`${target}Name`] = {
      type: "string",
      pattern: namePattern.source,
      description: `The logical name of a ${titleOf(target).toLowerCase()} declared under ${sectionOf(target)}:.`,
    };
  }
  defs.lifecycle = lifecycleSchema;
  defs.import = importSchema;
  for (const kind of topLevelKinds) defs[kind] = topLevelSchema(kind);
  for (const nested of nestedKinds) defs[nested.kind] = nestedSchema(nested);
  for (const kind of topLevelKinds) Object.assign(defs, variantSchemas(engineKind(kind).definition));

  const withEnv = acceptEnv({ $defs: defs }).$defs as Record<string, JsonSchema>;
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: schemaId,
    title: `vigil configuration (${formatVersion})`,
    description:
      "A vigil GitOps file: resources by collection and logical name. Every *.yaml/*.yml file under the paths given to vigil is merged into one configuration; names are unique per collection across files. " +
      `Strings may hold ${envForms} placeholders.`,
    type: "object",
    properties: {
      format: fileKeySchemas.format,
      ...Object.fromEntries(topLevelKinds.map((kind) => [sectionOf(kind), sectionSchema(kind)])),
      imports: fileKeySchemas.imports,
    },
    additionalProperties: false,
    $defs: {
      ...withEnv,
      envPlaceholder: {
        type: "string",
        pattern: envPlaceholderSource,
        // A comment, not a description: editors would show it on hover in place of the member's own.
        $comment: `Holds a ${envForms} placeholder, replaced by the environment variable's value when the file is loaded.`,
      },
    },
  };
}
