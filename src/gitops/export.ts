/**
 * `vigil export`: every object of the account as files of the GitOps format,
 * with the `imports` that bring each one under its address. Objects are read
 * the way refresh reads them (the engine kinds' lists and normalisation), so a
 * plan of the export with a fresh state imports everything and changes nothing.
 */

import { Document } from "yaml";
import type { Operations } from "../api/index.ts";
import { configMembers } from "../engine/config-members.ts";
import { type EngineKind, engineKind, type Members, type Row } from "../engine/kinds/index.ts";
import type { KindName, State } from "../engine/model.ts";
import { getAt, isObject, setAt, tokensOf } from "../engine/pointer.ts";
import { inputSchemaOf, isMaskedCredential } from "../kinds/index.ts";
import {
  configNameOf,
  formatIsoTime,
  isTimestampAt,
  type NestedKind,
  namePattern,
  nestedAddress,
  nestedKinds,
  referenceAt,
  sectionOf,
  topLevelKinds,
} from "./format.ts";

export interface ExportOptions {
  /** Where editors find the JSON Schema (a path relative to the files, or a URL); without it, no `$schema` comment. */
  schemaRef?: string;
  /**
   * The logical names a state already gives objects (`stateNames`): an object the state manages keeps its
   * name, so the export plans against that state as the same resources; the others get derived names.
   */
  known?: KnownNames;
}

/** Kind → id → the logical name a state gives that object (the last part of its address). */
export type KnownNames = ReadonlyMap<KindName, ReadonlyMap<string, string>>;

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
export interface ExportVariable {
  /** `VIGIL_MONITORS_CHECKOUT_API_SETTINGS_PASSWORD` */
  name: string;
  /** The resource holding the credential: `monitors.checkout-api`. */
  address: string;
  /** The member, dotted: `settings.password`, `headers.0.value`. */
  member: string;
}

export interface ExportResult {
  /** File name → YAML text: one file per section that has objects, and `imports.yaml`. */
  files: Record<string, string>;
  /** Every exported object's address and id, as written to `imports.yaml`. */
  imports: { to: string; id: string }[];
  /** The variables the credential placeholders name, in the order they appear in the files. */
  variables: ExportVariable[];
  /**
   * Credentials left out: members of their own that the API reads back masked (a webhook's secret, which
   * the service may have generated). Nobody can know their values; left out, the object keeps them.
   */
  leftOut: { address: string; member: string }[];
}

/** An object exported at the top level of a section. */
interface Entry {
  kind: EngineKind;
  row: Row;
  /** Members worth writing, API names and ids. */
  members: Members;
  name: string;
}

export async function exportAccount(ops: Operations, options: ExportOptions = {}): Promise<ExportResult> {
  const listed = await Promise.all(
    [...topLevelKinds, ...nestedKinds.map((n) => n.kind)].map(
      async (name) => [name, (await engineKind(name).listAll(ops)).rows] as const,
    ),
  );
  const rows = new Map<KindName, Row[]>(listed);

  const entries = new Map<KindName, Entry[]>();
  const names = new Map<KindName, Map<string, string>>();
  for (const name of topLevelKinds) {
    const kind = engineKind(name);
    const named = assignNames(kind, rows.get(name) ?? [], options.known?.get(name));
    entries.set(name, named);
    names.set(name, new Map(named.map((e) => [String(e.row.id), e.name])));
  }

  const imports: { to: string; id: string }[] = [];
  const variables: ExportVariable[] = [];
  const leftOut: ExportResult["leftOut"] = [];
  const usedVariables = new Set<string>();
  const sections = new Map<KindName, Record<string, Members>>();
  for (const name of topLevelKinds) {
    const section: Record<string, Members> = {};
    for (const entry of entries.get(name) ?? []) {
      const address = `${sectionOf(name)}.${entry.name}`;
      const members = placeholders(entry.kind, literal(entry.members), address, {
        variables,
        used: usedVariables,
        leftOut,
      });
      section[entry.name] = toConfig(entry.kind, members, [], names, address) as Members;
      imports.push({ to: address, id: String(entry.row.id) });
    }
    sections.set(name, section);
  }

  // Nested kinds are written inside their parent's entries, each imported under its own address.
  for (const nested of nestedKinds) {
    const parents = sections.get(nested.parent)!;
    const secrets = { variables, used: usedVariables, leftOut };
    const known = options.known?.get(nested.kind);
    for (const entry of nestedEntries(nested, rows.get(nested.kind) ?? [], names, secrets, known)) {
      const parent = parents[entry.parent]!;
      // Keyed entries are a list (`alerts: [{contact: ...}]`), named ones a map (`templates: {<name>: ...}`).
      if (nested.keyedBy === undefined) {
        parent[nested.member] ??= {};
        (parent[nested.member] as Members)[entry.name] = entry.members;
      } else {
        parent[nested.member] ??= [];
        (parent[nested.member] as Members[]).push(entry.members);
      }
      imports.push({ to: nestedAddress(nested, entry.parent, entry.name), id: entry.id });
    }
  }

  const files: Record<string, string> = {};
  for (const name of topLevelKinds) {
    const section = sections.get(name)!;
    if (Object.keys(section).length === 0) continue;
    files[fileNameOf(sectionOf(name))] = yamlFile({ [sectionOf(name)]: section }, options);
  }
  if (imports.length > 0) files["imports.yaml"] = yamlFile({ imports }, options);
  return { files, imports, variables, leftOut };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** What the config writes of a live object: its input members, without what restates the service's defaults. */
const writtenMembers = (kind: EngineKind, row: Row): Members =>
  configMembers(kind, row, Object.keys(inputSchemaOf(kind.definition).shape));

/** `contactGroups` → `contact-groups.yaml`. */
function fileNameOf(section: string): string {
  return `${section.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}.yaml`;
}

function yamlFile(data: Record<string, unknown>, options: ExportOptions): string {
  // Equal values are written out each time, never as YAML anchors and aliases.
  const text = new Document(data, { aliasDuplicateObjects: false }).toString({ lineWidth: 0 });
  return options.schemaRef ? `# yaml-language-server: $schema=${options.schemaRef}\n${text}` : text;
}

/**
 * A nested kind's objects as entries of their parents, sorted by parent and name: each named by the object
 * its `keyedBy` reference names (a subscription by its contact), or else by a logical name given the way
 * top-level objects get theirs, unique within its parent. Credentials become placeholders, as at the top level.
 */
function nestedEntries(
  nested: NestedKind,
  rows: readonly Row[],
  names: ReadonlyMap<KindName, ReadonlyMap<string, string>>,
  secrets: Parameters<typeof placeholders>[3],
  known: ReadonlyMap<string, string> | undefined,
): { parent: string; name: string; id: string; members: Members }[] {
  const kind = engineKind(nested.kind);
  const parentKey = configNameOf(nested.kind, [], nested.parentMember);
  const byParent = new Map<string, { row: Row; written: Members; config: Members }[]>();
  for (const row of rows) {
    const written = literal(writtenMembers(kind, row));
    const config = toConfig(kind, written, [], names, `${kind.section} ${row.id}`) as Members;
    const parent = String(config[parentKey]);
    delete config[parentKey];
    byParent.set(parent, [...(byParent.get(parent) ?? []), { row, written, config }]);
  }
  const out: { parent: string; name: string; id: string; members: Members }[] = [];
  for (const [parent, children] of byParent) {
    const given =
      nested.keyedBy === undefined
        ? new Map(
            assignNames(
              kind,
              children.map((c) => c.row),
              known,
            ).map((e) => [e.row, e.name]),
          )
        : undefined;
    for (const { row, written, config } of children) {
      const name = given ? given.get(row)! : String(config[configNameOf(nested.kind, [], nested.keyedBy!)]);
      const masked = placeholders(kind, written, nestedAddress(nested, parent, name), secrets);
      const members =
        masked === written
          ? config
          : (toConfig(kind, masked, [], names, `${kind.section} ${row.id}`) as Members);
      delete members[parentKey];
      out.push({ parent, name, id: String(row.id), members });
    }
  }
  return out.sort((a, b) => compare(a.parent, b.parent) || compare(a.name, b.name));
}

/**
 * Logical names: the one a state gives an object it manages (`known`); for the others, from each object's
 * name (or, when its name is only the service's default, its natural key), slugified, and made unique in
 * the section with -2, -3...: older objects keep the plain name, so the same account always gets the
 * same names, and no derived name takes a name the state gives. Sorted by name.
 */
function assignNames(kind: EngineKind, rows: readonly Row[], known?: ReadonlyMap<string, string>): Entry[] {
  const kept: Entry[] = [];
  const given = new Set<string>();
  const unnamed: Row[] = [];
  for (const row of rows) {
    const name = known?.get(String(row.id));
    if (name !== undefined && namePattern.test(name) && !given.has(name)) {
      given.add(name);
      kept.push({ kind, row, members: writtenMembers(kind, row), name });
    } else unnamed.push(row);
  }
  const candidates = unnamed.map((row) => {
    const members = writtenMembers(kind, row);
    return { kind, row, members, base: slugify(nameSource(kind, members)) || kind.name.toLowerCase() };
  });
  candidates.sort(
    (a, b) =>
      compare(a.base, b.base) ||
      Number(a.row.created ?? 0) - Number(b.row.created ?? 0) ||
      compare(String(a.row.id), String(b.row.id)),
  );
  const bases = new Set(candidates.map((c) => c.base));
  const named = candidates.map(({ base, ...c }) => {
    let name = base;
    // A suffixed name never takes another object's own name (an object really called `checkout-2`).
    for (let n = 2; given.has(name) || (name !== base && bases.has(name)); n++) name = `${base}-${n}`;
    given.add(name);
    return { ...c, name };
  });
  return [...kept, ...named].sort((a, b) => compare(a.name, b.name));
}

/** What names an object: its `name` when the config sets one, else the last member of its natural key; a URL by its host. */
function nameSource(kind: EngineKind, members: Members): string {
  const key = kind.definition.naturalKey.map((m) => members[m]).filter((v) => typeof v === "string");
  const value = typeof members.name === "string" ? members.name : key.at(-1);
  return typeof value === "string" ? hostOf(value) : "";
}

/** The host of a URL or a `host[:port]` address; any other value (an email, a phone number) as it is. */
function hostOf(value: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return URL.canParse(value) ? new URL(value).hostname : value;
  const hostPort = /^([^\s@/:]+\.[^\s@/:]+)(:\d+)?$/.exec(value);
  return hostPort ? hostPort[1]! : value;
}

function slugify(text: string): string {
  const slug = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+/, "")
    .slice(0, 60)
    .replace(/-+$/, "");
  return namePattern.test(slug) ? slug : "";
}

/** `VIGIL_<COLLECTION>_<NAME>_<MEMBER>`, upper case, every other character `_`. */
function variableName(address: string, pointerPath: string): string {
  const words = [...address.split("."), ...tokensOf(pointerPath)].map((w) =>
    w.replace(/([a-z0-9])([A-Z])/g, "$1_$2"),
  );
  return `VIGIL_${words.join("_")}`
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, "_")
    .replace(/_+$/, "");
}

/** Every string as a literal of the format: a `${` the service holds must not read as a placeholder. */
function literal(value: unknown): Members {
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return v.replaceAll("${", () => "$${");
    if (Array.isArray(v)) return v.map(walk);
    if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, item]) => [k, walk(item)]));
    return v;
  };
  return walk(value) as Members;
}

/** Every credential replaced by an `${env:NAME}` placeholder: a value never reaches a file. */
function placeholders(
  kind: EngineKind,
  members: Members,
  address: string,
  out: { variables: ExportVariable[]; used: Set<string>; leftOut: ExportResult["leftOut"] },
): Members {
  const { variables, used } = out;
  // The kind's credentials (trait writeOnly), set or read back masked: every header value among them.
  const paths = kind.credentials(members);
  if (paths.length === 0) return members;
  const result = structuredClone(members);
  for (const path of paths) {
    const value = getAt(members, path);
    if (tokensOf(path).length === 1 && isMaskedCredential(value)) {
      delete result[tokensOf(path)[0]!];
      out.leftOut.push({ address, member: tokensOf(path)[0]! });
      continue;
    }
    let name = variableName(address, path);
    for (let n = 2; used.has(name); n++) name = `${variableName(address, path)}_${n}`;
    used.add(name);
    setAt(result, path, `\${env:${name}}`);
    variables.push({ name, address, member: tokensOf(path).join(".") });
  }
  return result;
}

/**
 * API members as the config writes them: references as the logical names of
 * their targets (`contactId` → `contact`), timestamps as ISO 8601 in UTC.
 */
function toConfig(
  kind: EngineKind,
  value: unknown,
  at: (string | number)[],
  names: ReadonlyMap<KindName, ReadonlyMap<string, string>>,
  address: string,
): unknown {
  if (Array.isArray(value)) return value.map((item, i) => toConfig(kind, item, [...at, i], names, address));
  if (!isObject(value)) return value;
  const out: Members = {};
  for (const [key, member] of Object.entries(value)) {
    const ref = referenceAt(kind.name, at, key, "api");
    if (ref) {
      const nameOf = (id: unknown) => {
        const name = names.get(ref.target)?.get(String(id));
        if (name === undefined) {
          const where = [...at, key].join(".");
          throw new Error(
            `export: ${address} ${where} references ${ref.target} ${String(id)}, which the account's list did not return`,
          );
        }
        return name;
      };
      out[ref.yamlName] = Array.isArray(member) ? member.map(nameOf) : nameOf(member);
    } else if (typeof member === "number" && isTimestampAt(kind.name, at, key))
      out[key] = formatIsoTime(member);
    else out[key] = toConfig(kind, member, [...at, key], names, address);
  }
  return out;
}
