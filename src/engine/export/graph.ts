/**
 * The account as one normalized graph: what `vigil export` writes, in every format. It is derived from the
 * kinds alone (their relations, traits, natural keys and credentials), so no format knows a kind:
 *
 * - **objects**, each with a name from its natural key (valid, unique among its siblings, the same from one
 *   export of the account to the next) and its engine address;
 * - **members** as a configuration writes them (API member names, the kind's order), without what only
 *   restates the service's defaults (`configMembers`: an empty live value equals an unset member whose
 *   default is empty);
 * - **references** between objects as edges: a member holding another object's id holds an
 *   `ExportReference` to it instead (a subscription's contact, a maintenance window's monitors);
 * - **credentials** as named variables: a credential member holds an `ExportVariable`, never a value; one the
 *   API never shows (a webhook's own secret) is left out and listed in `leftOut`.
 *
 * ## Writing a format
 *
 * A format is an `ExportWriter`: `(graph, options) => WrittenExport`, a pure function from the graph to file
 * names and texts, in a module of the frontend it serves (`gitops/export.ts` for YAML,
 * `terraform/export/hcl.ts` for Terraform). The CLI reads the graph once (`readAccountGraph`), narrows it
 * (`selectObjects`, the `--filter`s), and hands it to the writer with the layout (`--split-by`). A writer:
 *
 * - walks `graph.objects` in their order (kinds in dependency order, then by name) and writes each object's
 *   `members`, spelling member names its own way, an `ExportReference` as its expression for the target
 *   object, an `ExportVariable` as its way of reading a secret input, and the other values as literals of
 *   its syntax (escaping what its syntax would read as an interpolation);
 * - names objects from `object.name` (and `object.parent.name`), made unique in its own spelling with
 *   `spellUniquely`;
 * - writes an import of each object by `object.id`;
 * - puts each object in the file `fileGroupOf(object, layout)` names, and answers the files with the same
 *   texts for the same graph (sorted, no clock, no randomness): byte-identical output;
 * - never needs a value of a credential, and cannot get one: the graph holds none.
 */
import type { Operations } from "../../api/index.ts";
import { inputSchemaOf, isMaskedCredential, parentOf } from "../../kinds/index.ts";
import { configMembers } from "../config-members.ts";
import { type EngineKind, engineKinds, type Members, type Row } from "../kinds/index.ts";
import { isAt, memberPositions } from "../member-positions.ts";
import type { KindName } from "../model.ts";
import { getAt, isObject, pointer, setAt, tokensOf } from "../pointer.ts";
import { assignNames, type NameCandidate, slugify } from "./names.ts";

/** A kind as the export sees it. */
export interface ExportKind {
  name: KindName;
  engine: EngineKind;
  /** The engine's section: `monitors`. */
  section: string;
  /** For a kind that lives under another (its relations' parent). */
  parent?: {
    kind: KindName;
    /** The member holding the parent's id: `monitorId`. */
    member: string;
    /** The parent's member a nested configuration writes the children in: `alerts`. */
    nestedAs: string;
    /** The reference that names a child within its parent (`contactId`): a subscription is named by its contact. */
    keyedBy?: string;
  };
}

/** An object of the account. */
export interface ExportObject {
  kind: ExportKind;
  id: string;
  /** Unique among the objects of its kind (under its parent, for a kind that has one). */
  name: string;
  parent?: ExportObject;
  /** The engine's address: `monitors.checkout-api`, `monitors.checkout-api.alerts.sre-email`. */
  address: string;
  /** What a configuration writes, with `ExportReference`s and `ExportVariable`s in place of ids and credentials. */
  members: Members;
  /** The object's own tags (members named `tags`), for filters and the layout by tag. */
  tags: readonly string[];
  /** JSON pointers of the members in Unix seconds. */
  timestamps: readonly string[];
}

/** A member holding another object's id, in `ExportObject.members`. */
export class ExportReference {
  readonly target: ExportObject;
  constructor(target: ExportObject) {
    this.target = target;
  }

  /** In JSON (a debug dump, a test), the target's address. */
  toJSON() {
    return { $ref: this.target.address };
  }
}

/** A credential, in `ExportObject.members`: a named input of the configuration, never a value. */
export class ExportVariable {
  /** snake_case words, unique in the graph: `monitors_checkout_api_settings_password`. */
  readonly name: string;
  readonly object: ExportObject;
  /** Where it is in the object's members: `/settings/password`. */
  readonly pointer: string;
  /**
   * The API reads it back masked (a webhook's header values): nothing can check the value a configuration
   * gives, so the first plan takes it as set. A format that must show an import as no change where the value
   * is unknown (Terraform) leaves out the member holding it.
   */
  readonly masked: boolean;

  constructor(name: string, object: ExportObject, at: string, masked: boolean) {
    this.name = name;
    this.object = object;
    this.pointer = at;
    this.masked = masked;
  }

  /** The member path, dotted: `settings.password`, `headers.0.value`. */
  get member(): string {
    return tokensOf(this.pointer).join(".");
  }

  /** In JSON (a debug dump, a test), its name. */
  toJSON() {
    return { $variable: this.name };
  }
}

/** A reference between two objects: `from`'s member at `pointer` names `to`. */
export interface ExportEdge {
  from: ExportObject;
  pointer: string;
  to: ExportObject;
}

export interface ExportGraph {
  /** Every kind, in dependency order. */
  kinds: readonly ExportKind[];
  /** Every object: kinds in dependency order, then by parent name and name. */
  objects: readonly ExportObject[];
  edges: readonly ExportEdge[];
  /** Every credential, in the order of the objects. */
  variables: readonly ExportVariable[];
  /**
   * Credentials left out: members of their own that the API reads back masked (a webhook's secret, which the
   * service may have generated). Nobody can know their values; left out, the object keeps them.
   */
  leftOut: readonly { object: ExportObject; member: string }[];
}

/** How files are laid out: one per kind, or one per tag (`--split-by`). */
export type ExportLayout = "kind" | "tag";

/** What a writer answers: file names (relative, `/`-separated) and their texts. */
export interface WrittenExport {
  files: Record<string, string>;
  /** Members left out, each a top-level member of an object: the graph's `leftOut`, and any the format adds. */
  leftOut: readonly { object: ExportObject; member: string }[];
  /** How the configuration reads each credential (`VIGIL_...` for YAML, `TF_VAR_...` for Terraform). */
  variables: { name: string; variable: ExportVariable }[];
  /** How the format names an object (its address in the format's own terms), for messages. */
  addressOf(object: ExportObject): string;
}

export interface WriterOptions {
  layout: ExportLayout;
}

export type ExportWriter<O extends WriterOptions = WriterOptions> = (
  graph: ExportGraph,
  options: O,
) => WrittenExport;

/**
 * The file an object is written to, without its extension. By kind: its kind's section in kebab case
 * (`contact-groups`). By tag: `tag-<its first tag>` (tags sorted, slugified: `tag-prod`); a child follows its
 * parent, and an object without tags goes to `untagged`. A format that writes children inside their parent
 * asks for the parent's.
 */
export function fileGroupOf(object: ExportObject, layout: ExportLayout): string {
  if (layout === "kind") return object.kind.section.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  if (object.tags.length === 0) return object.parent ? fileGroupOf(object.parent, layout) : "untagged";
  return `tag-${slugify(object.tags[0]!) || "other"}`;
}

/** Kind → id → the name an earlier adoption gave that object (a state's address). */
export type KnownNames = ReadonlyMap<KindName, ReadonlyMap<string, string>>;

/** Every live object, by kind, as the kinds' lists answer them. */
export type AccountRows = ReadonlyMap<KindName, readonly Row[]>;

export const exportKinds: readonly ExportKind[] = engineKinds.map((engine) => {
  const parent = parentOf(engine.definition);
  return {
    name: engine.name,
    engine,
    section: engine.section,
    ...(parent && {
      parent: {
        kind: parent.kind as KindName,
        member: parent.member,
        nestedAs: parent.nestedAs,
        ...(parent.keyedBy !== undefined && { keyedBy: parent.keyedBy }),
      },
    }),
  };
});

/**
 * Every object of the account, each kind listed in pages of 500 (the reads of a refresh): kinds without a
 * parent at once, then those listed under a parent, which read the parents' rows from here rather than
 * listing them again.
 */
export async function readAccount(ops: Operations): Promise<AccountRows> {
  const rows = new Map<KindName, Row[]>();
  const list = (kinds: readonly ExportKind[]) =>
    Promise.all(
      kinds.map(async (k) => {
        rows.set(k.name, (await k.engine.listAll(ops, (name) => rows.get(name))).rows);
      }),
    );
  await list(exportKinds.filter((k) => !k.parent));
  await list(exportKinds.filter((k) => k.parent));
  return rows;
}

/** The account read and turned into the graph. */
export async function readAccountGraph(ops: Operations, known?: KnownNames): Promise<ExportGraph> {
  return buildGraph(await readAccount(ops), known);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The members of a live object a configuration writes (`configMembers`), with the raw ids still in place. */
const writtenMembers = (kind: EngineKind, row: Row): Members =>
  configMembers(kind, row, Object.keys(inputSchemaOf(kind.definition).shape));

/** What names an object: its `name` when the config sets one, else the last member of its natural key. */
function nameSource(kind: EngineKind, members: Members): string {
  if (typeof members.name === "string") return members.name;
  const key = kind.definition.naturalKey.map((m) => members[m]).filter((v) => typeof v === "string");
  return key.at(-1) ?? "";
}

/** The graph of the rows: objects named, references resolved, credentials made variables. */
export function buildGraph(rows: AccountRows, known?: KnownNames): ExportGraph {
  const objects: ExportObject[] = [];
  const byId = new Map<KindName, Map<string, ExportObject>>();

  for (const kind of exportKinds) {
    const created = new Map<string, ExportObject>();
    byId.set(kind.name, created);
    const live = rows.get(kind.name) ?? [];
    const entries = live.map((row) => ({ row, members: writtenMembers(kind.engine, row) }));
    // A child's parent, from the member naming it; its siblings share a namespace.
    const groups = new Map<ExportObject | undefined, typeof entries>();
    for (const entry of entries) {
      const parent = kind.parent
        ? resolve(byId, kind.parent.kind, entry.members[kind.parent.member], (id) =>
            missing(`${kind.section} ${entry.row.id}`, [kind.parent!.member], kind.parent!.kind, id),
          )
        : undefined;
      const siblings = groups.get(parent);
      if (siblings) siblings.push(entry);
      else groups.set(parent, [entry]);
    }
    const made: ExportObject[] = [];
    for (const [parent, siblings] of groups) {
      const names = namesOf(kind, siblings, byId, known?.get(kind.name));
      for (const { row, members } of siblings) {
        const name = names.get(row)!;
        const object: ExportObject = {
          kind,
          id: String(row.id),
          name,
          ...(parent && { parent }),
          address: parent
            ? `${parent.kind.section}.${parent.name}.${kind.parent!.nestedAs}.${name}`
            : `${kind.section}.${name}`,
          members,
          tags: tagsOf(kind.engine, row),
          timestamps: [],
        };
        created.set(object.id, object);
        made.push(object);
      }
    }
    made.sort((a, b) => compare(a.parent?.name ?? "", b.parent?.name ?? "") || compare(a.name, b.name));
    objects.push(...made);
  }

  const edges: ExportEdge[] = [];
  const variables: ExportVariable[] = [];
  const leftOut: { object: ExportObject; member: string }[] = [];
  const usedVariables = new Set<string>();
  for (const object of objects) {
    // Credentials are found on the members as the API names them, before references replace ids. The members
    // are configMembers' own copy, so they are changed in place.
    const members = object.members;
    const credentials = object.kind.engine.credentials(members);
    const { references, timestamps } = memberPositions(object.kind.name);
    const times: string[] = [];
    walkMembers(members, [], (value, path, container, key) => {
      const at = path.slice(0, -1);
      const member = String(key);
      const reference = references.find((r) => r.member === member && isAt(at, r.at));
      if (reference) {
        const target = (id: unknown, where: (string | number)[]) => {
          const to = resolve(byId, reference.target, id, () =>
            missing(object.address, where, reference.target, id),
          );
          edges.push({ from: object, pointer: pointer(where), to });
          return new ExportReference(to);
        };
        container[key as never] = (
          Array.isArray(value) ? value.map((id, i) => target(id, [...path, i])) : target(value, path)
        ) as never;
        return false;
      }
      if (typeof value === "number" && timestamps.some((t) => t.member === member && isAt(at, t.at)))
        times.push(pointer(path));
      return true;
    });
    object.timestamps = times;
    // The kind's credentials (trait writeOnly), set or read back masked: every header value among them.
    for (const path of credentials) {
      const tokens = tokensOf(path);
      const masked = isMaskedCredential(getAt(members, path));
      if (tokens.length === 1 && masked) {
        delete members[tokens[0]!];
        leftOut.push({ object, member: tokens[0]! });
        continue;
      }
      const base = variableName(object.address, tokens);
      let name = base;
      for (let n = 2; usedVariables.has(name); n++) name = `${base}_${n}`;
      usedVariables.add(name);
      const variable = new ExportVariable(name, object, path, masked);
      setAt(members, path, variable);
      variables.push(variable);
    }
  }
  return { kinds: exportKinds, objects, edges, variables, leftOut };
}

/** The names of siblings: by the object their `keyedBy` reference names, or else from their own members. */
function namesOf(
  kind: ExportKind,
  siblings: readonly { row: Row; members: Members }[],
  byId: ReadonlyMap<KindName, ReadonlyMap<string, ExportObject>>,
  known: ReadonlyMap<string, string> | undefined,
): Map<Row, string> {
  const keyedBy = kind.parent?.keyedBy;
  if (keyedBy !== undefined) {
    const target = memberPositions(kind.name).references.find(
      (r) => r.member === keyedBy && r.at.length === 0,
    );
    return new Map(
      siblings.map(({ row, members }) => [
        row,
        resolve(byId, target!.target, members[keyedBy], (id) =>
          missing(`${kind.section} ${row.id}`, [keyedBy], target!.target, id),
        ).name,
      ]),
    );
  }
  const candidates: NameCandidate<Row>[] = siblings.map(({ row, members }) => ({
    item: row,
    id: String(row.id),
    created: Number(row.created ?? 0),
    source: nameSource(kind.engine, members),
  }));
  return assignNames(candidates, kind.name.toLowerCase(), known);
}

function resolve(
  byId: ReadonlyMap<KindName, ReadonlyMap<string, ExportObject>>,
  kind: KindName,
  id: unknown,
  fail: (id: unknown) => never,
): ExportObject {
  return byId.get(kind)?.get(String(id)) ?? fail(id);
}

/** A reference to an object the lists did not return: the export would not plan, so it stops and says which. */
function missing(place: string, where: readonly (string | number)[], target: KindName, id: unknown): never {
  throw new Error(
    `export: ${place} ${where.join(".")} references ${target} ${String(id)}, which the account's list did not return`,
  );
}

/** Walks members depth first; `visit` answers false to skip what is under a value. */
function walkMembers(
  value: unknown,
  path: (string | number)[],
  visit: (
    value: unknown,
    path: (string | number)[],
    container: Members | unknown[],
    key: string | number,
  ) => boolean,
): void {
  const entries: [string | number, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [i, v])
    : isObject(value)
      ? Object.entries(value)
      : [];
  for (const [key, member] of entries) {
    const at = [...path, key];
    if (visit(member, at, value as Members, key)) walkMembers(member, at, visit);
  }
}

/** An object's tags: its `tags` member, when that is a list of strings. */
function tagsOf(kind: EngineKind, row: Row): string[] {
  const tags = kind.normalizeLive(row).tags;
  return Array.isArray(tags) && tags.every((t) => typeof t === "string") ? [...tags].sort(compare) : [];
}

/** `monitors.checkout-api` + `/settings/password` → `monitors_checkout_api_settings_password`. */
function variableName(address: string, tokens: readonly string[]): string {
  const words = [...address.split("."), ...tokens].map((w) => w.replace(/([a-z0-9])([A-Z])/g, "$1_$2"));
  return words
    .join("_")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
}
