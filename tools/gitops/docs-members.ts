/**
 * The reference's member tables (tools/gitops/docs.ts): a member's schema in the format's JSON Schema,
 * read for a person (type, allowed values, notes from the traits), one row per member, nested ones by path.
 */
import { engineKind } from "../../src/engine/kinds/index.ts";
import type { KindName } from "../../src/engine/model.ts";
import { sectionOf } from "../../src/gitops/format.ts";
import { vigilJsonSchema } from "../../src/gitops/json-schema.ts";
import type { JsonSchema } from "../../src/kinds/index.ts";

export type Node = JsonSchema;
export const defsOf = () => vigilJsonSchema().$defs as Record<string, Node>;
const refName = (node: Node) =>
  typeof node.$ref === "string" ? node.$ref.replace("#/$defs/", "") : undefined;

// ---------------------------------------------------------------------------
// A member's schema, read for a person

interface Shape {
  /** `string`, `integer`, `list of string`, `name of a contact`, ... */
  type: string;
  /** Allowed values (an enum), or bounds and patterns. */
  allowed: string[];
  /** The object whose members follow as rows of their own (`path.member`, `path[].member`). */
  object?: Node;
  /** `[]` when the object is an item of a list. */
  itemSuffix: string;
}

/** Inline code, in a table cell: a backtick inside takes a double-backtick span, a pipe is escaped. */
export function code(text: string): string {
  const escaped = text.replaceAll("|", "\\|");
  return escaped.includes("`") ? `\`\` ${escaped} \`\`` : `\`${escaped}\``;
}
const json = (value: unknown) => code(JSON.stringify(value));
export const envForm = (spec: string) => code(`\${env:${spec}}`);
const isEnv = (node: Node) => refName(node) === "envPlaceholder";
const isNull = (node: Node) => node.type === "null";

/** The alternatives of a node, without `${env:...}` placeholders (allowed in every string) and null. */
function alternatives(node: Node): { options: Node[]; nullable: boolean } {
  const list = (node.anyOf ?? node.oneOf) as Node[] | undefined;
  if (!list) return { options: [node], nullable: false };
  // What the alternatives share (`type: string` around `anyOf: [{format: ipv4}, {format: ipv6}]`).
  const { anyOf: _any, oneOf: _one, ...shared } = node;
  const options: Node[] = [];
  let nullable = false;
  for (const bare of list) {
    const option = typeof shared.type === "string" ? { type: shared.type, ...bare } : bare;
    if (isEnv(option)) continue;
    if (isNull(option)) {
      nullable = true;
      continue;
    }
    const inner = alternatives(option);
    options.push(...inner.options);
    nullable ||= inner.nullable;
  }
  return { options, nullable };
}

function bounds(node: Node): string[] {
  const out: string[] = [];
  const range = (min: unknown, max: unknown, unit: string) => {
    if (min === undefined && max === undefined) return;
    const plural = (n: unknown) => (n === 1 ? unit.replace(/s$/, "") : unit);
    if (min !== undefined && max !== undefined) out.push(`${min}–${max}${unit}`);
    else if (min !== undefined) out.push(`at least ${min}${plural(min)}`);
    else out.push(`at most ${max}${plural(max)}`);
  };
  range(node.minimum, node.maximum, "");
  range(node.minLength, node.maxLength, " characters");
  range(node.minItems, node.maxItems, " items");
  if (typeof node.pattern === "string") out.push(`pattern ${code(node.pattern)}`);
  if (typeof node.format === "string")
    out.push(`${node.format === "uri" ? "a URL" : `an ${node.format} address`}`);
  return out;
}

function shapeOf(node: Node, defs: Record<string, Node>): Shape {
  const name = refName(node);
  if (name === "contactName" || name === "monitorName") {
    const kind = name.replace("Name", "") as KindName;
    return {
      type: `name of a ${engineKind(kind).definition.title.toLowerCase()}`,
      allowed: [`a key under ${code(`${sectionOf(kind)}:`)} ([${kind}](${kind}.md))`],
      itemSuffix: "",
    };
  }
  if (name && defs[name]) return shapeOf({ ...defs[name], ...node, $ref: undefined }, defs);
  const { options, nullable } = alternatives(node);
  const orNull = nullable ? " or null" : "";
  // A time: Unix seconds or ISO 8601 (the format's own convention).
  if (options.length === 2 && options.some((o) => o.type === "integer") && options.some((o) => o.pattern))
    return { type: `time${orNull}`, allowed: ["ISO 8601 with a zone, or Unix seconds"], itemSuffix: "" };
  if (options.length > 1) {
    const shapes = options.map((o) => shapeOf(o, defs));
    const objects = shapes.flatMap((s) => (s.object ? [s.object] : []));
    if (objects.length > 1) return formsOf(objects, orNull);
    const object = objects[0];
    // Forms of one value (an ipv4 or an ipv6 address) read as one constraint.
    const oneEach = shapes.every((s) => s.allowed.length === 1);
    return {
      type: `${[...new Set(shapes.map((s) => s.type))].join(" or ")}${orNull}`,
      allowed: oneEach ? [shapes.map((s) => s.allowed[0]).join(" or ")] : shapes.flatMap((s) => s.allowed),
      ...(object && { object }),
      itemSuffix: "",
    };
  }
  const only = options[0] ?? {};
  if (only !== node && (only.anyOf || only.oneOf || only.$ref)) {
    const inner = shapeOf(only, defs);
    return { ...inner, type: `${inner.type}${orNull}` };
  }
  const merged = only === node ? node : { ...only, ...annotationsOnly(node) };
  if (merged.const !== undefined) return { type: json(merged.const), allowed: [], itemSuffix: "" };
  if (Array.isArray(merged.enum))
    return {
      type: `${typeof merged.enum[0] === "number" ? "number" : "string"}${orNull}`,
      allowed: [`one of ${(merged.enum as unknown[]).map(json).join(", ")}`],
      itemSuffix: "",
    };
  if (merged.type === "array") {
    const item = shapeOf((merged.items as Node | undefined) ?? {}, defs);
    const collection = merged["x-collection"] === "set" ? "set" : "list";
    return {
      type: `${collection} of ${item.object ? "maps" : item.type}${orNull}`,
      allowed: [...bounds(merged), ...item.allowed.map((a) => `each: ${a}`)],
      ...(item.object && { object: item.object }),
      itemSuffix: "[]",
    };
  }
  if (merged.type === "object" || merged.properties) {
    if (merged.properties) return { type: `map${orNull}`, allowed: [], object: merged, itemSuffix: "" };
    const values = merged.additionalProperties;
    const value = typeof values === "object" && Object.keys(values as Node).length > 0;
    return {
      type: `map${value ? ` of ${shapeOf(values as Node, defs).type}` : ""}${orNull}`,
      allowed: [],
      itemSuffix: "",
    };
  }
  const type = Array.isArray(merged.type) ? merged.type.join(" or ") : String(merged.type ?? "any value");
  return { type: `${type}${orNull}`, allowed: bounds(merged), itemSuffix: "" };
}

/**
 * A map written in one of several forms (a webhook's `scope`, a status page component): its members are
 * those of every form, required where every form requires them, and the forms are listed.
 */
function formsOf(objects: Node[], orNull: string): Shape {
  const requiredOf = (o: Node) => (o.required as string[] | undefined) ?? Object.keys(o.properties ?? {});
  const properties = Object.assign({}, ...objects.map((o) => o.properties ?? {})) as Record<string, Node>;
  const required = Object.keys(properties).filter((m) => objects.every((o) => requiredOf(o).includes(m)));
  const forms = objects.map((o) => `{${requiredOf(o).join(", ")}}`);
  return {
    type: `map${orNull}`,
    allowed: [`one of the forms ${forms.map((f) => code(f)).join(", ")}`],
    object: { type: "object", properties, required },
    itemSuffix: "",
  };
}

/** Annotations of a wrapper (description, default, traits) over its one alternative. */
function annotationsOnly(node: Node): Node {
  return Object.fromEntries(
    Object.entries(node).filter(([k]) => ["description", "default"].includes(k) || k.startsWith("x-")),
  );
}

// ---------------------------------------------------------------------------
// Member tables

interface Row {
  path: string;
  type: string;
  required: boolean;
  default: string;
  allowed: string;
  notes: string;
}

function notesOf(node: Node, defs: Record<string, Node>): string {
  const described = refName(node) && defs[refName(node)!] ? { ...defs[refName(node)!], ...node } : node;
  const description = typeof described.description === "string" ? described.description : "";
  // The credential note below says it all; a description that starts with the word drops its copy.
  const notes = [description.replace(/^Credential\.\s*/, "")];
  if (described["x-credential"])
    notes.push(`**Credential**: never shown in plans, state or output; write it as ${envForm("NAME")}.`);
  if (described["x-immutable"] || described["x-createOnly"])
    notes.push("**Changing it replaces the object.**");
  else if (described.writeOnly && !described["x-credential"])
    notes.push("Never read back: vigil compares it with what it last applied.");
  if (typeof described["x-storedCap"] === "number" && !description.includes("stored as"))
    notes.push(`A larger value is stored as ${described["x-storedCap"]}.`);
  return notes.filter(Boolean).join(" ").replaceAll("|", "\\|").replaceAll("\n", " ");
}

function defaultOf(node: Node): string {
  if (node["x-defaultFrom"]) return `the ${code(String(node["x-defaultFrom"]))}`;
  if (node.default === undefined) return "";
  return json(node.default);
}

export function rows(
  object: Node,
  defs: Record<string, Node>,
  at = "",
  required: readonly string[] = [],
): Row[] {
  const out: Row[] = [];
  const properties = (object.properties ?? {}) as Record<string, Node>;
  const needed = new Set([...required, ...((object.required as string[] | undefined) ?? [])]);
  for (const [member, node] of Object.entries(properties)) {
    if (member === "lifecycle") continue;
    const path = `${at}${member}`;
    const shape = shapeOf(node, defs);
    out.push({
      path,
      type: shape.type,
      required: needed.has(member),
      default: defaultOf(node),
      allowed: shape.allowed.join("; "),
      notes: notesOf(node, defs),
    });
    if (shape.object && member !== "settings")
      out.push(...rows(shape.object, defs, `${path}${shape.itemSuffix}.`));
  }
  return out;
}

export function table(list: readonly Row[]): string[] {
  if (list.length === 0) return ["(none)", ""];
  return [
    "| Member | Type | Required | Default | Allowed | Notes |",
    "|---|---|---|---|---|---|",
    ...list.map(
      (r) =>
        `| ${code(r.path)} | ${r.type} | ${r.required ? "yes" : ""} | ${r.default} | ${r.allowed} | ${r.notes} |`,
    ),
    "",
  ];
}
