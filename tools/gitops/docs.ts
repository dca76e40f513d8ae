/**
 * The reference of the YAML format, one page per kind (docs/gitops/<kind>.md) and an index, rendered from
 * the format's JSON Schema (itself derived from the kinds), the kinds' traits and the monitor type
 * catalogue. Examples are the first of each kind (and of each monitor type) in examples/gitops, so they
 * are configurations that load. Nothing here is written for one kind: a change to a kind changes its page.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { Document, isSeq, parse, visit } from "yaml";
import { engineKind } from "../../src/engine/kinds/index.ts";
import type { KindName } from "../../src/engine/model.ts";
import {
  collectionOf,
  configNameOf,
  entryNameOf,
  formatVersion,
  lifecycleOptions,
  nestedAddress,
  nestedIn,
  nestedKinds,
  nestingOf,
  topLevelKinds,
} from "../../src/gitops/format.ts";
import { vigilJsonSchema } from "../../src/gitops/json-schema.ts";
import {
  type JsonSchema,
  membersOf,
  monitorTypeAliases,
  monitorTypeNames,
  monitorTypes,
  peel,
} from "../../src/kinds/index.ts";

export interface DocPage {
  path: string;
  render(): string;
}

/** Every kind a file declares: the top-level ones, then the nested ones (subscriptions in monitors). */
export const documentedKinds: readonly KindName[] = [...topLevelKinds, ...nestedKinds.map((n) => n.kind)];

export const pagePath = (kind: KindName) => `docs/gitops/${kind}.md`;
const examplesDir = "examples/gitops";
const repositoryRoot = join(import.meta.dirname, "../..");

type Node = JsonSchema;
const defsOf = () => vigilJsonSchema().$defs as Record<string, Node>;
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
function code(text: string): string {
  const escaped = text.replaceAll("|", "\\|");
  return escaped.includes("`") ? `\`\` ${escaped} \`\`` : `\`${escaped}\``;
}
const json = (value: unknown) => code(JSON.stringify(value));
const envForm = (spec: string) => code(`\${env:${spec}}`);
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
      allowed: [`a key under ${code(`${collectionOf(kind)}:`)} ([${kind}](${kind}.md))`],
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

function rows(object: Node, defs: Record<string, Node>, at = "", required: readonly string[] = []): Row[] {
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

function table(list: readonly Row[]): string[] {
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

// ---------------------------------------------------------------------------
// Examples, from examples/gitops

interface ExampleSource {
  file: string;
  data: Record<string, unknown>;
}

function exampleSources(): ExampleSource[] {
  const dir = join(repositoryRoot, examplesDir);
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => /\.ya?ml$/.test(f) && !f.split(/[\\/]/).some((part) => part.startsWith(".")))
    .sort()
    .map((f) => ({
      file: relative(repositoryRoot, join(dir, f)),
      data: (parse(readFileSync(join(dir, f), "utf8")) ?? {}) as Record<string, unknown>,
    }));
}

type Entries = [string, Record<string, unknown>][];
const entriesOf = (value: unknown): Entries =>
  typeof value === "object" && value !== null ? (Object.entries(value) as Entries) : [];

/** YAML as the examples write it: short lists of plain values on one line. */
function yamlText(value: unknown): string {
  const doc = new Document(value);
  visit(doc, {
    Seq(_, node) {
      if (isSeq(node) && node.items.every((i) => !(typeof i === "object" && i !== null && "items" in i)))
        node.flow = true;
    },
  });
  return doc.toString({ lineWidth: 0, flowCollectionPadding: false });
}

/** The first resource of a kind in the examples (for a monitor, of a type), as a file would hold it alone. */
function example(kind: KindName, type?: string): { file: string; text: string } | undefined {
  const nested = nestingOf(kind);
  const collection = collectionOf(nested ? nested.parent : kind);
  for (const source of exampleSources()) {
    for (const [name, resource] of entriesOf(source.data[collection])) {
      if (type && resource.type !== type) continue;
      if (nested) {
        const entries = resource[nested.member];
        // The first entry alone: a list's first item, or a map's first name (a kind with names of its own).
        const first = Array.isArray(entries)
          ? entries.slice(0, 1)
          : Object.fromEntries(entriesOf(entries).slice(0, 1));
        if (Object.keys(first).length === 0) continue;
        const siblings = new Set(nestedIn(nested.parent).map((n) => n.member));
        const parent = Object.fromEntries(
          Object.entries(resource).filter(([member]) => !siblings.has(member)),
        );
        const only = { [collection]: { [name]: { ...parent, [nested.member]: first } } };
        return { file: source.file, text: yamlText(only) };
      }
      return { file: source.file, text: yamlText({ [collection]: { [name]: resource } }) };
    }
  }
  return undefined;
}

function exampleSection(kind: KindName, heading: string, type?: string): string[] {
  const found = example(kind, type);
  if (!found) return [];
  return [
    heading,
    "",
    `From [${found.file}](../../${found.file}):`,
    "",
    "```yaml",
    found.text.trimEnd(),
    "```",
    "",
  ];
}

// ---------------------------------------------------------------------------
// Pages

/** Members the service sets: read back (in the state, `vigil state show`), never written. */
function readOnlyRows(kind: KindName): string[] {
  const members = membersOf(engineKind(kind).definition.schema).filter((m) => m.traits.readOnly);
  if (members.length === 0) return [];
  return [
    "## Set by the service",
    "",
    "Read back and kept in the state (`vigil state show`); a configuration never writes them.",
    "",
    ...members.map((m) => {
      const what = m.traits.description ? `: ${m.traits.description}` : "";
      return `- ${code(m.name)} (${peel(m.schema).def.type})${what}`;
    }),
    "",
  ];
}

function whereWritten(kind: KindName): string[] {
  const nested = nestingOf(kind);
  const definition = engineKind(kind).definition;
  const key = definition.naturalKey ?? [];
  const parent = nested && engineKind(nested.parent).definition.title.toLowerCase();
  const address = nested && code(nestedAddress(nested, `<${nested.parent}>`, entryNameOf(nested)));
  const out = nested
    ? nested.keyedBy === undefined
      ? [
          `Written in a ${parent}'s ${code(nested.member)} map, by logical name. Each entry is the resource`,
          `${address}.`,
        ]
      : [
          `Written in a ${parent}'s ${code(nested.member)} list, one entry per ${configNameOf(kind, [], nested.keyedBy)}. Each entry is the resource`,
          `${address}.`,
        ]
    : [
        `Written under ${code(`${collectionOf(kind)}:`)} in any file, by logical name (lower-case letters, digits,`,
        `\`_\` and \`-\`); each is the resource ${code(`${collectionOf(kind)}.<name>`)}.`,
      ];
  if (key.length > 0)
    out.push(
      "",
      `**Natural key**: ${key.map((k) => code(k)).join(" + ")}. An object in the account with the same key that`,
      "vigil does not manage yet is adopted by the plan (`adopted by natural key`) instead of being created again.",
    );
  return [...out, ""];
}

function kindPage(kind: KindName): string {
  const defs = defsOf();
  const definition = engineKind(kind).definition;
  const required = definition.required ?? [];
  const schema = defs[kind]!;
  const body = [
    `# ${definition.title}`,
    "",
    `<!-- Generated by npm run generate from the kinds (tools/gitops/docs.ts); do not edit. -->`,
    "",
    ...whereWritten(kind),
    ...exampleSection(kind, "## Example"),
    "## Members",
    "",
    "Nested members are written with dots (`locations.pools`: `pools` inside the map `locations`); `[]`",
    `marks the items of a list. Any string may be written as ${envForm("NAME")} or ${envForm("NAME:-default")}.`,
    "",
    ...table(rows(schema, defs, "", required)),
    `Every resource also takes ${code("lifecycle")} (${lifecycleOptions.map((o) => code(o)).join(", ")}): see`,
    "[lifecycle](../gitops.md#lifecycle).",
    "",
    ...readOnlyRows(kind),
  ];
  if (kind === "monitor") body.push(...monitorTypeSections(defs));
  return `${body.join("\n").trimEnd()}\n`;
}

const typeNames = (type: string) => [
  type,
  ...Object.keys(monitorTypeAliases).filter((alias) => monitorTypeAliases[alias] === type),
];

function monitorTypeSections(defs: Record<string, Node>): string[] {
  const hours = (s: number) => (s % 3600 === 0 ? `${s / 3600} h` : `${s} s`);
  const out = [
    "## Monitor types",
    "",
    "What each `type` asks for. `url` is required unless it is not used; `locations.pools` is required where",
    "locations are; an interval must be one of the account's intervals and at least the type's floor.",
    "",
    "| type | what | url | locations | interval | attached | plan feature |",
    "|---|---|---|---|---|---|---|",
  ];
  const urlForms: Record<string, string> = {
    http: "http(s) URL",
    httpOrDomain: "http(s) URL or bare domain",
    host: "host name or IP",
    hostPort: "`host:port`",
    hostOrUrl: "host or URL",
    none: "not used",
  };
  for (const type of monitorTypeNames) {
    const t = monitorTypes[type];
    const interval = t.fixedInterval ? `fixed ${hours(t.fixedInterval)}` : `at least ${t.minInterval} s`;
    out.push(
      `| ${typeNames(type).map(code).join(", ")} | ${t.label} | ${urlForms[t.url]} | ${t.locations} | ${interval} | ${t.attached.map(code).join(", ") || "—"} | ${t.feature ? code(t.feature) : "—"} |`,
    );
  }
  out.push("", "## Settings by type", "", "`settings` takes the members of the monitor's type only.", "");
  for (const type of monitorTypeNames) {
    out.push(`### ${typeNames(type).join(", ")}`, "");
    out.push(...exampleSection("monitor", "Example:", type));
    out.push(...table(rows(defs[`${type}Settings`]!, defs, "settings.")));
  }
  return out;
}

function indexPage(): string {
  const lines = [
    `# The ${formatVersion} format: reference by kind`,
    "",
    "<!-- Generated by npm run generate from the kinds (tools/gitops/docs.ts); do not edit. -->",
    "",
    "A file holds these collections (each optional), and `format`, `imports`; see [gitops.md](../gitops.md)",
    "for files, references, environment placeholders and the workflow.",
    "",
    "| kind | written as | page |",
    "|---|---|---|",
    ...documentedKinds.map((kind) => {
      const nested = nestingOf(kind);
      // The parent's name abbreviated to its initial: `monitors.<m>.alerts`.
      const where = nested
        ? code(`${collectionOf(nested.parent)}.<${nested.parent.charAt(0)}>.${nested.member}`)
        : code(`${collectionOf(kind)}:`);
      return `| ${engineKind(kind).definition.title} | ${where} | [${kind}.md](${kind}.md) |`;
    }),
  ];
  return `${lines.join("\n")}\n`;
}

/** Every page of the reference, with its path relative to the repository root. */
export function gitopsDocPages(): DocPage[] {
  return [
    { path: "docs/gitops/index.md", render: indexPage },
    ...documentedKinds.map((kind) => ({ path: pagePath(kind), render: () => kindPage(kind) })),
  ];
}
