/**
 * The attribute tree of a kind: what a typed frontend (Terraform, Pulumi, CDKTF, their docs) shows of each
 * member, read from the kind's traits on the walk (`walk.ts`). Each attribute says whether a configuration
 * must set it, may set it (and whether the service fills it then), or only reads it; whether it is a
 * credential; whether changing it replaces the object; its type (nested objects, collections, a variant
 * member merged over its variants) and its description. Frontends only spell it: names, type syntax,
 * which words name another kind.
 */
import { z } from "zod";
import { generatedMembers, generatedOutputName } from "./credentials.ts";
import { bodySchema, type FieldTraits, membersOf, traitsOf } from "./field.ts";
import type { KindDefinition } from "./kind.ts";
import { snakeCase } from "./names.ts";
import { inputSchemaOf, isOptionalMember, optionsOf, shapeOf, stepInto } from "./walk.ts";

/** A member path; `*` stands for any item of a list or set and any value of a map. */
export type MemberPath = readonly string[];

export type ScalarType = "string" | "number" | "bool";

export type AttributeType =
  /** `values`: the strings it takes, when every schema it comes from is an enum or literals. */
  | { kind: "scalar"; scalar: ScalarType; integer: boolean; values?: readonly string[] }
  | { kind: "collection"; mode: "list" | "set" | "map"; element: AttributeType }
  | { kind: "object"; mode: "single" | "list" | "set" | "map"; attributes: readonly AttributeNode[] };

/** What a member's description says, in parts a frontend spells (it names the referenced kind its own way). */
export interface Description {
  /** The member's own words: its `description` trait, or its name in words. */
  text: string;
  /** The values an enum or literals take. */
  allowed?: readonly unknown[];
  hasDefault?: boolean;
  default?: unknown;
  /** The kind whose id it holds. */
  references?: string;
  timestamp?: boolean;
  createOnly?: boolean;
  replaces?: boolean;
  /** A variant member's description per group of variants that describe it alike, and every variant taking it. */
  variants?: {
    groups: readonly { variants: readonly string[]; description: Description }[];
    all: readonly string[];
  };
  /** What the variants are called (`type`), for "Types: http, api". */
  discriminator?: string;
}

export interface AttributeNode {
  /** The API's member name. */
  name: string;
  /** `computed`: only the service sets it (or it sits inside what the service sets). */
  presence: "required" | "optional" | "computed";
  /** Optional, and the service stores a value when the configuration sets none. */
  filled: boolean;
  /** A credential: sensitive, secret, masked. */
  writeOnly: boolean;
  /** Changing it replaces the object. */
  replaces: boolean;
  /** Never read back. */
  inputOnly: boolean;
  /** Always present when read: a value of every schema it comes from, and none takes null. */
  alwaysRead: boolean;
  type: AttributeType;
  description: Description;
}

/** What a frontend needs besides the attributes to plan a kind's objects; paths in member names. */
export interface AttributeRules {
  /** A change under one of these paths replaces the object (immutable and create-only members). */
  replaceOn: MemberPath[];
  /** Members the service never reads back: state keeps the configured value. */
  inputOnly: MemberPath[];
  /** Credentials: the service reads them back masked, so state keeps the configured value. */
  sensitive: MemberPath[];
  /** Credentials the service generates when the config sets none, each with the output that holds it. */
  generated: { member: string; output: string }[];
}

export interface ResourceTree {
  definition: KindDefinition;
  /** Attributes in the order of their words (`snakeCase`), as generated schemas list them. */
  attributes: readonly AttributeNode[];
  rules: AttributeRules;
}

// ---------------------------------------------------------------------------
// Unions as one configured value

const isObjectLike = (schema: z.ZodType): boolean => {
  const shape = shapeOf(schema);
  return shape.type === "object" || (shape.type === "union" && shape.options.every(isObjectLike));
};

/** An object option made only of `true` flags is an action (`{rotate: true}`), not a value a config holds. */
const isActionObject = (schema: z.ZodType): boolean => {
  const shape = shapeOf(schema);
  return (
    shape.type === "object" &&
    Object.values(shape.members).every((m) => {
      const member = shapeOf(m);
      return member.type === "values" && member.values.length === 1 && member.values[0] === true;
    })
  );
};

/**
 * The schema a union is configured with: alternatives of objects merge into one object whose members are
 * each optional unless every alternative requires them (webhook `scope`, status page components). A scalar
 * beside objects stands alone when the objects are actions (`secret` or `{rotate: true}`); otherwise the
 * object is the form the service reads back (`attached` toggles read back as `{enabled}`).
 */
function unionAsOne(options: readonly z.ZodType[]): z.ZodType {
  const objects = options.filter(isObjectLike);
  const scalars = options.filter((o) => !isObjectLike(o));
  if (objects.length === 0) return scalars[0]!;
  if (scalars.length > 0 && objects.every(isActionObject)) return scalars[0]!;
  const shapes = objects.map((o) => resolvedObject(o));
  const merged: Record<string, z.ZodType> = {};
  for (const shape of shapes) {
    for (const [name, member] of Object.entries(shape)) {
      if (merged[name]) continue;
      const everywhere = shapes.every((s) => Object.hasOwn(s, name) && !isOptionalMember(s[name]!));
      merged[name] = everywhere ? member : member.optional();
    }
  }
  return z.object(merged);
}

function resolvedObject(schema: z.ZodType): Readonly<Record<string, z.ZodType>> {
  const shape = shapeOf(resolved(schema));
  return shape.type === "object" ? shape.members : {};
}

/** Wrappers peeled and unions resolved to the one schema a configuration writes. */
function resolved(schema: z.ZodType): z.ZodType {
  const shape = shapeOf(schema);
  return shape.type === "union" ? resolved(unionAsOne(shape.options)) : schema;
}

/** The strings every schema here takes, when each is an enum or literals of strings. */
function enumValues(candidates: readonly z.ZodType[]): string[] | undefined {
  const values = new Set<string>();
  const all = candidates.flatMap(optionsOf);
  for (const option of all) {
    const shape = shapeOf(option);
    const taken = shape.type === "values" ? shape.values : [];
    if (taken.length === 0 || taken.some((v) => typeof v !== "string")) return undefined;
    for (const v of taken) values.add(v as string);
  }
  return all.length > 0 ? [...values] : undefined;
}

const isInteger = (candidates: readonly z.ZodType[]) =>
  candidates.length > 0 &&
  candidates.flatMap(optionsOf).every((s) => {
    const shape = shapeOf(s);
    return shape.type === "number" && shape.integer;
  });

const alwaysPresent = (candidates: readonly z.ZodType[]) =>
  candidates.length > 0 && candidates.every((s) => !s.safeParse(null).success);

// ---------------------------------------------------------------------------
// Descriptions

const humanized = (member: string) => {
  const words = member.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`);
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}.`;
};

const sentence = (text: string) => (/[.!?)]$/.test(text) ? text : `${text}.`);

/** The allowed values of an enum or literal leaf (through arrays), for the description. */
function allowedValues(schema: z.ZodType): readonly unknown[] | undefined {
  const shape = shapeOf(resolved(schema));
  if (shape.type === "array") return allowedValues(shape.element);
  if (shape.type === "values" && (shape.enum || shape.values.length > 1)) return shape.values;
  return undefined;
}

function descriptionOf(member: string, schema: z.ZodType, own?: string): Description {
  const traits = traitsOf(schema);
  const shape = shapeOf(schema);
  const out: Description = { text: own ?? traits.description ?? humanized(member) };
  const allowed = allowedValues(schema);
  if (allowed) out.allowed = allowed;
  if (traits.default !== undefined) {
    out.hasDefault = true;
    out.default = traits.default;
  }
  const target =
    traits.references ?? (shape.type === "array" ? traitsOf(shape.element).references : undefined);
  if (target) out.references = target;
  if (traits.timestamp) out.timestamp = true;
  if (traits.createOnly) out.createOnly = true;
  if (traits.immutable || traits.createOnly) out.replaces = true;
  return out;
}

/** A description in words; `kindName` spells a referenced kind as the frontend names it (`vigil_contact`, `Contact`). */
export function descriptionText(description: Description, kindName: (kind: string) => string): string {
  if (description.variants) {
    const { groups, all } = description.variants;
    const texts = groups.map((g) =>
      groups.length === 1
        ? descriptionText(g.description, kindName)
        : `${g.variants.join(", ")}: ${descriptionText(g.description, kindName)}`,
    );
    const label = description.discriminator ?? "variant";
    return `${texts.join(" ")} ${label.charAt(0).toUpperCase()}${label.slice(1)}s: ${all.join(", ")}.`;
  }
  const parts = [sentence(description.text)];
  if (description.allowed)
    parts.push(`One of: ${description.allowed.map((v) => JSON.stringify(v)).join(", ")}.`);
  if (description.hasDefault && !/default/i.test(parts[0]!))
    parts.push(`Default: ${JSON.stringify(description.default)}.`);
  if (description.references) parts.push(`The id of a ${kindName(description.references)} (write its .id).`);
  if (description.timestamp && !/unix/i.test(parts.join(" "))) parts.push("Unix seconds.");
  if (description.createOnly) parts.push("Sent on create only.");
  if (description.replaces) parts.push("Changing it replaces the resource.");
  return parts.join(" ");
}

// ---------------------------------------------------------------------------
// The walk

interface Place {
  /** Where the member is, in member names (`*` for items). */
  path: readonly string[];
  /** Inside a member the service sets: every attribute is computed only. */
  readOnly: boolean;
  /** The schemas of the value here, from every root (what a config writes, what the service reads back). */
  candidates: readonly z.ZodType[];
  rules?: AttributeRules;
}

/** Whether the service stores a value when the config sets none (a default, or one member's default). */
function serviceFills(schema: z.ZodType): boolean {
  const traits = traitsOf(schema);
  if (traits.inputOnly) return false;
  if (traits.default !== undefined || traits.defaultFrom) return true;
  return Object.values(resolvedObject(schema)).some(serviceFills);
}

const collectionOf = (traits: FieldTraits): "list" | "set" => (traits.collection === "set" ? "set" : "list");

function typeOf(schema: z.ZodType, place: Place): AttributeType {
  const s = resolved(schema);
  const shape = shapeOf(s);
  if (shape.type === "object")
    return { kind: "object", mode: "single", attributes: objectAttributes(shape.members, place) };
  if (shape.type === "array" || shape.type === "record") {
    const element = shape.type === "array" ? shape.element : shape.value;
    const mode = shape.type === "array" ? collectionOf(traitsOf(schema)) : "map";
    const items: Place = {
      ...place,
      path: [...place.path, "*"],
      candidates: stepInto(place.candidates, "*"),
    };
    if (isObjectLike(element))
      return { kind: "object", mode, attributes: objectAttributes(resolvedObject(element), items) };
    const elementType = typeOf(element, items);
    if (elementType.kind === "object") throw new Error(`${place.path.join(".")}: an object among scalars`);
    return { kind: "collection", mode, element: elementType };
  }
  const scalar = scalarOf(shape);
  if (!scalar)
    throw new Error(
      `${place.path.join(".")}: no attribute type for ${shape.type === "other" ? shape.name : shape.type}`,
    );
  const values = scalar === "string" ? enumValues(place.candidates) : undefined;
  return { kind: "scalar", scalar, integer: isInteger(place.candidates), ...(values && { values }) };
}

function scalarOf(shape: ReturnType<typeof shapeOf>): ScalarType | undefined {
  if (shape.type === "string") return "string";
  if (shape.type === "number") return "number";
  if (shape.type === "boolean") return "bool";
  if (shape.type === "values") {
    const first = shape.values[0];
    return typeof first === "number" ? "number" : typeof first === "boolean" ? "bool" : "string";
  }
  return undefined;
}

function objectAttributes(members: Readonly<Record<string, z.ZodType>>, place: Place): AttributeNode[] {
  return inWordOrder(
    Object.entries(members).map(([name, member]) =>
      attributeOf(name, member, place, !isOptionalMember(member)),
    ),
  );
}

/** Attributes in the order of their words, as Terraform prints them and the other schemas follow. */
function inWordOrder(attributes: AttributeNode[]): AttributeNode[] {
  const key = (a: AttributeNode) => snakeCase(a.name);
  return attributes.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

function attributeOf(
  name: string,
  schema: z.ZodType,
  parent: Place,
  required: boolean,
  own?: string,
  alwaysRead?: boolean,
): AttributeNode {
  const traits = traitsOf(schema);
  const candidates = stepInto(parent.candidates, name);
  const place: Place = {
    ...parent,
    path: [...parent.path, name],
    readOnly: parent.readOnly || Boolean(traits.readOnly),
    candidates,
  };
  if (place.rules && !place.readOnly) {
    if (traits.immutable || traits.createOnly) place.rules.replaceOn.push(place.path);
    if (traits.inputOnly) place.rules.inputOnly.push(place.path);
    if (traits.writeOnly) place.rules.sensitive.push(place.path);
  }
  return {
    name,
    presence: place.readOnly ? "computed" : required ? "required" : "optional",
    filled: !place.readOnly && !required && serviceFills(schema),
    writeOnly: Boolean(traits.writeOnly),
    replaces: !place.readOnly && Boolean(traits.immutable || traits.createOnly),
    inputOnly: !place.readOnly && Boolean(traits.inputOnly),
    alwaysRead: alwaysRead ?? alwaysPresent(candidates),
    type: typeOf(schema, place),
    description: descriptionOf(name, schema, own),
  };
}

/** A variant member (a monitor's `settings`): one object holding every variant's members, each naming its variants. */
function variantAttribute(definition: KindDefinition, place: Place, alwaysRead: boolean): AttributeNode {
  const variants = definition.variants!;
  const here: Place = {
    ...place,
    path: [...place.path, variants.member],
    candidates: stepInto(place.candidates, variants.member),
  };
  const byMember = new Map<string, { variants: string[]; schemas: z.ZodType[] }>();
  for (const [variant, schema] of Object.entries(variants.schemas)) {
    for (const { name, schema: member } of membersOf(bodySchema(schema, "create"))) {
      const entry = byMember.get(name) ?? { variants: [], schemas: [] };
      entry.variants.push(variant);
      entry.schemas.push(member);
      byMember.set(name, entry);
    }
  }
  const attributes: AttributeNode[] = [];
  for (const [name, { variants: taking, schemas }] of byMember) {
    const attribute = attributeOf(name, schemas[0]!, here, false);
    const typeKey = (schema: z.ZodType) =>
      JSON.stringify(typeOf(schema, { ...here, rules: undefined, candidates: [] }));
    for (const other of schemas.slice(1)) {
      // One attribute serves every variant, so the variants must agree on its shape.
      if (typeKey(other) !== typeKey(schemas[0]!))
        throw new Error(`${variants.member}.${name} has different types across ${variants.discriminator}s`);
      if (serviceFills(other)) attribute.filled = true;
      if (traitsOf(other).writeOnly && !attribute.writeOnly) {
        attribute.writeOnly = true;
        here.rules?.sensitive.push([...here.path, name]);
      }
    }
    const groups: { variants: string[]; description: Description; text: string }[] = [];
    schemas.forEach((schema, i) => {
      const description = descriptionOf(name, schema);
      const text = JSON.stringify(description);
      const group = groups.find((g) => g.text === text);
      if (group) group.variants.push(taking[i]!);
      else groups.push({ variants: [taking[i]!], description, text });
    });
    attribute.description = {
      text: attribute.description.text,
      variants: {
        groups: groups.map(({ variants: v, description }) => ({ variants: v, description })),
        all: taking,
      },
      discriminator: variants.discriminator,
    };
    attributes.push(attribute);
  }
  return {
    name: variants.member,
    presence: "optional",
    filled: attributes.some((a) => a.filled),
    writeOnly: false,
    replaces: false,
    inputOnly: false,
    alwaysRead,
    type: { kind: "object", mode: "single", attributes: inWordOrder(attributes) },
    description: { text: variants.description ?? humanized(variants.member) },
  };
}

const trees = new WeakMap<KindDefinition, ResourceTree>();

/** A managed kind's attributes: what a configuration sets, what the service sets, and generated credentials. */
export function resourceTree(definition: KindDefinition): ResourceTree {
  let tree = trees.get(definition);
  if (!tree) {
    tree = buildTree(definition);
    trees.set(definition, tree);
  }
  return tree;
}

function buildTree(definition: KindDefinition): ResourceTree {
  const rules: AttributeRules = { replaceOn: [], inputOnly: [], sensitive: [], generated: [] };
  const readBack = definition.schema;
  const variants = definition.variants;
  // What a config writes, what the service reads back, and each variant of the variant member.
  const roots: z.ZodType[] = [inputSchemaOf(definition), readBack];
  if (variants) roots.push(z.object({ [variants.member]: z.union(Object.values(variants.schemas)) }));
  const root: Place = { path: [], readOnly: false, candidates: roots, rules };
  const required = new Set(definition.required ?? []);
  const readBackMembers = new Map(membersOf(readBack).map((m) => [m.name, m]));
  // Top-level outputs are always present when the service never reads them back as null.
  const readAlways = (name: string) => alwaysPresent(stepInto([readBack], name));
  const attributes = new Map<string, AttributeNode>();
  for (const { name, schema, traits } of membersOf(inputSchemaOf(definition))) {
    // A side member's body may carry no description; the kind's member says what it is.
    const own = traits.description ?? readBackMembers.get(name)?.traits.description;
    attributes.set(
      name,
      variants && name === variants.member
        ? variantAttribute(definition, root, readAlways(name))
        : attributeOf(name, schema, root, required.has(name), own, readAlways(name)),
    );
  }
  for (const { name, schema, traits } of membersOf(readBack)) {
    // What the service sets, and state it keeps that a config does not write (a webhook's `enabled`).
    const kept = traits.readOnly || (traits.updateOnly && traits.default !== undefined);
    if (!kept || attributes.has(name)) continue;
    const own = traits.updateOnly
      ? `${humanized(name)} Set by the service, or by an update outside this configuration.`
      : undefined;
    attributes.set(
      name,
      attributeOf(name, schema, { ...root, readOnly: true }, false, own, readAlways(name)),
    );
  }
  for (const member of generatedMembers(readBack)) {
    const output = generatedOutputName(member);
    rules.generated.push({ member, output });
    attributes.set(output, {
      name: output,
      presence: "computed",
      filled: false,
      writeOnly: true,
      replaces: false,
      inputOnly: false,
      alwaysRead: false,
      type: { kind: "scalar", scalar: "string", integer: false },
      description: {
        text: `The ${member} the service generated because the configuration sets none: known after create (the API shows it once, in the create's answer), then kept in the state. Null when the configuration sets ${member}, or after an import`,
      },
    });
  }
  return { definition, attributes: inWordOrder([...attributes.values()]), rules };
}

/** The attributes of what a read-only route answers (a data source's results): every one computed. */
export function computedTree(result: z.ZodObject): readonly AttributeNode[] {
  return objectAttributes(result.shape as Record<string, z.ZodType>, {
    path: [],
    readOnly: true,
    candidates: [result],
  });
}
