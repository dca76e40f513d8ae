/**
 * `vigil export` in the GitOps format: the export graph (`engine/export/graph.ts`) as YAML files, with the
 * `imports` that bring each object under its address. References are written as the logical names of their
 * targets, timestamps in ISO 8601, subscriptions nested in their monitors, and credentials as `${env:NAME}`
 * placeholders, so a plan of the export with a fresh state imports everything and changes nothing.
 */

import type { Operations } from "../api/index.ts";
import {
  type ExportGraph,
  type ExportLayout,
  type ExportObject,
  ExportReference,
  ExportVariable,
  type ExportWriter,
  fileGroupOf,
  type KnownNames,
  readAccountGraph,
  type WrittenExport,
} from "../engine/export/graph.ts";
import type { Members } from "../engine/kinds/index.ts";
import type { KindName, State } from "../engine/model.ts";
import { isObject, pointer } from "../engine/pointer.ts";
import { configNameOf, formatIsoTime, nestedKinds, sectionOf, topLevelKinds } from "./format.ts";
import { yamlText } from "./yaml-text.ts";

export type { KnownNames } from "../engine/export/graph.ts";

export interface YamlWriterOptions {
  layout: ExportLayout;
  /** Where editors find the JSON Schema (a path relative to the files, or a URL); without it, no `$schema` comment. */
  schemaRef?: string;
}

export interface ExportOptions extends Partial<YamlWriterOptions> {
  /**
   * The logical names a state already gives objects (`stateNames`): an object the state manages keeps its
   * name, so the export plans against that state as the same resources; the others get derived names.
   */
  known?: KnownNames;
}

/**
 * The names a state gives the objects it manages: `monitors.checkout-api` → `checkout-api`, a nested
 * `statusPages.shop.templates.outage` → `outage`. Only addresses of the form the export writes count (a
 * subscription kept as `alertSubscriptions.x` is written nested, named by its contact).
 */
export function stateNames(state: State | undefined): KnownNames {
  const out = new Map<KindName, Map<string, string>>();
  for (const [address, r] of Object.entries(state?.resources ?? {})) {
    if (!r.id) continue;
    const parts = address.split(".");
    const nested = nestedKinds.find((n) => n.kind === r.kind);
    const form = nested
      ? nested.keyedBy === undefined && parts.length === 4 && parts[2] === nested.member
      : topLevelKinds.includes(r.kind) && parts.length === 2 && parts[0] === sectionOf(r.kind);
    if (!form) continue;
    const names = out.get(r.kind) ?? new Map<string, string>();
    names.set(r.id, parts.at(-1)!);
    out.set(r.kind, names);
  }
  return out;
}

/** An environment variable a credential placeholder names. */
export interface YamlVariable {
  /** `VIGIL_MONITORS_CHECKOUT_API_SETTINGS_PASSWORD` */
  name: string;
  /** The resource holding the credential: `monitors.checkout-api`. */
  address: string;
  /** The member, dotted: `settings.password`, `headers.0.value`. */
  member: string;
}

export interface ExportResult {
  /** File name → YAML text: one file per section that has objects (or per tag), and `imports.yaml`. */
  files: Record<string, string>;
  /** Every exported object's address and id, as written to `imports.yaml`. */
  imports: { to: string; id: string }[];
  /** The variables the credential placeholders name, in the order of the objects. */
  variables: YamlVariable[];
  /** Credentials left out: members the API never shows (a webhook's own secret); the object keeps them. */
  leftOut: { address: string; member: string }[];
}

/** Reads the account and writes it as YAML: `readAccountGraph` then `writeYaml`. */
export async function exportAccount(ops: Operations, options: ExportOptions = {}): Promise<ExportResult> {
  const graph = await readAccountGraph(ops, options.known);
  const written = writeYaml(graph, {
    layout: options.layout ?? "kind",
    ...(options.schemaRef !== undefined && { schemaRef: options.schemaRef }),
  });
  return {
    files: written.files,
    imports: yamlImports(graph),
    variables: written.variables.map(({ name, variable }) => ({
      name,
      address: variable.object.address,
      member: variable.member,
    })),
    leftOut: graph.leftOut.map((l) => ({ address: l.object.address, member: l.member })),
  };
}

/** `VIGIL_` and the variable's words in upper case: an environment variable's usual spelling. */
const environmentName = (variable: ExportVariable) => `VIGIL_${variable.name.toUpperCase()}`;

/** Every object's import, in the graph's order. */
const yamlImports = (graph: ExportGraph) => graph.objects.map((o) => ({ to: o.address, id: o.id }));

/** The GitOps format's writer. */
export const writeYaml: ExportWriter<YamlWriterOptions> = (graph, options) => {
  const groups = new Map<string, Map<string, Record<string, Members>>>();
  const entries = new Map<ExportObject, Members>();
  for (const object of graph.objects) {
    const members = toConfig(object, object.members, []) as Members;
    entries.set(object, members);
    const parent = object.parent;
    if (!parent) {
      const group = fileGroupOf(object, options.layout);
      const sections = groups.get(group) ?? new Map<string, Record<string, Members>>();
      groups.set(group, sections);
      const section = sections.get(object.kind.section) ?? {};
      sections.set(object.kind.section, section);
      section[object.name] = members;
      continue;
    }
    // Nested objects are written inside their parent's entry; the layout gives their parent's member.
    const nesting = object.kind.parent!;
    delete members[configNameOf(object.kind.name, [], nesting.member)];
    const into = entries.get(parent)!;
    if (nesting.keyedBy === undefined) {
      into[nesting.nestedAs] ??= {};
      (into[nesting.nestedAs] as Members)[object.name] = members;
    } else {
      into[nesting.nestedAs] ??= [];
      (into[nesting.nestedAs] as Members[]).push(members);
    }
  }

  const files: Record<string, string> = {};
  for (const group of [...groups.keys()].sort()) {
    const sections = groups.get(group)!;
    // Collections in the kinds' dependency order, as a configuration lists them.
    const data = Object.fromEntries(
      graph.kinds.filter((k) => sections.has(k.section)).map((k) => [k.section, sections.get(k.section)!]),
    );
    files[`${group}.yaml`] = yamlFile(data, options);
  }
  const imports = yamlImports(graph);
  if (imports.length > 0) files["imports.yaml"] = yamlFile({ imports }, options);
  return {
    files,
    leftOut: graph.leftOut,
    variables: graph.variables.map((variable) => ({ name: environmentName(variable), variable })),
    addressOf: (object) => object.address,
  } satisfies WrittenExport;
};

function yamlFile(data: Record<string, unknown>, options: YamlWriterOptions): string {
  // Equal values are written out each time, never as YAML anchors and aliases.
  const text = yamlText(data);
  return options.schemaRef ? `# yaml-language-server: $schema=${options.schemaRef}\n${text}` : text;
}

/**
 * Members as the config writes them: references as the logical names of their targets (`contactId` →
 * `contact`), timestamps as ISO 8601 in UTC, credentials as `${env:NAME}` placeholders, and every other
 * string a literal (a `${` the service holds is written `$${`, so it never reads as a placeholder).
 */
function toConfig(object: ExportObject, value: unknown, at: (string | number)[]): unknown {
  if (value instanceof ExportReference) return value.target.name;
  if (value instanceof ExportVariable) return `\${env:${environmentName(value)}}`;
  if (typeof value === "string") return value.replaceAll("${", () => "$${");
  if (typeof value === "number" && object.timestamps.includes(pointer(at))) return formatIsoTime(value);
  if (Array.isArray(value)) return value.map((item, i) => toConfig(object, item, [...at, i]));
  if (!isObject(value)) return value;
  const out: Members = {};
  for (const [key, member] of Object.entries(value))
    out[configNameOf(object.kind.name, at, key)] = toConfig(object, member, [...at, key]);
  return out;
}
