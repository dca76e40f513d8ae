/**
 * Loads a GitOps repo's YAML files into the engine's desired state: merges the
 * files, resolves logical names into references, timestamps into Unix
 * seconds and `${env:NAME}` into values, then checks everything with the
 * engine's validation. Every problem comes back at once, each at
 * file:line:column with the member path in the config's own names.
 */
import { engineKind } from "../engine/kinds/index.ts";
import type { DesiredResource, Lifecycle } from "../engine/model.ts";
import { pointer, tokensOf } from "../engine/pointer.ts";
import { diagnosticCodes, validateDesired } from "../engine/validate.ts";
import { closest, type ProblemDetailEntry } from "../kinds/index.ts";
import { expandEnv } from "./env.ts";
import { allowedValues, explainUnion, lifecyclePathProblem, otherVariantsWith } from "./explain.ts";
import {
  findConfigFiles,
  formatBytes,
  limits,
  type ParsedFile,
  type Position,
  parseConfigFile,
  quote,
  type ValueBudget,
  type YamlPath,
} from "./files.ts";
import {
  apiNameOf,
  apiPathOf,
  collectionOf,
  configNameOf,
  excludedMembersOf,
  fileKeys,
  formatVersion,
  isTimestampAt,
  lifecycleOptions,
  type NestedKind,
  namePattern,
  nestedAddress,
  nestedIn,
  nestingOf,
  parseIsoTime,
  referenceAt,
  topLevelCollections,
  topLevelKinds,
} from "./format.ts";
import { userMap } from "./source.ts";

export interface LoadDiagnostic {
  at?: Position;
  /** The resource's address, when the problem is in one. */
  address?: string;
  /** The member path in the config's names (`settings.timeout`, `members[0].contact`). */
  path?: string;
  message: string;
}

export interface LoadedConfig {
  resources: DesiredResource[];
  imports: { address: string; id: string }[];
  files: string[];
  diagnostics: LoadDiagnostic[];
  /**
   * Where a member of a resource is written: an API pointer (`/locations/pools/0`) of `address` as
   * file:line:column and the config's member path, so the service's refusals point into the user's files.
   * The deepest written ancestor when the member itself is not written; undefined for an unknown address.
   */
  locate?: (address: string, apiPointer: string) => LoadDiagnostic | undefined;
}

export interface LoadOptions {
  /** Where `${env:NAME}` looks (process.env by default). */
  env?: Record<string, string | undefined>;
}

type Data = Record<string, unknown>;
const isData = (v: unknown): v is Data => typeof v === "object" && v !== null && !Array.isArray(v);
/**
 * A map of user keys: nothing inherited, so `__proto__`, `constructor` and the like
 * are own members like any other (the engine's validation then names them).
 */
const dataOf = (from: Data = {}): Data => Object.assign(userMap(), from);
/** A name as written, for a message: as is when it is a valid name, else quoted and escaped. */
const shownName = (name: string) => (namePattern.test(name) ? name : quote(name));

/** `settings.timeout`, `members[0].contact`. */
export function memberPath(path: YamlPath): string {
  return path
    .map((t, i) => (typeof t === "number" ? `[${t}]` : i === 0 ? shownKey(t) : `.${shownKey(t)}`))
    .join("");
}

/** A key in a member path or address: as written, or quoted and escaped when it holds anything unprintable. */
const shownKey = (key: string) => (/^[^\p{C}\p{Z}"\\]{1,60}$/u.test(key) ? key : quote(key));

/**
 * A file as resources keep it: its name and where each node is, but not its data, which the resources'
 * members replace, so that each file's data is released once the file is read.
 */
type FileSource = Omit<ParsedFile, "data">;

/** One resource on its way from YAML to the engine. */
interface Draft {
  resource: DesiredResource;
  file: FileSource;
  /** Where its members start in the file (`["monitors", "web"]`, `["monitors", "web", "alerts", 0]`). */
  base: YamlPath;
  /** Engine JSON pointer → the config's member path under `base`. */
  paths: Map<string, YamlPath>;
  /** References to check once every file is read: where, which collection, which name. */
  refs: { path: YamlPath; collection: string; name: unknown }[];
  /** Member paths under `base` whose values the loader refused (and said why): the engine's word on them is not repeated. */
  refused: YamlPath[];
}

export async function loadConfig(paths: readonly string[], options: LoadOptions = {}): Promise<LoadedConfig> {
  const env = options.env ?? process.env;
  const diagnostics: LoadDiagnostic[] = [];
  const found = await findConfigFiles(paths);
  for (const message of found.problems) diagnostics.push({ message });
  if (found.files.length === 0 && found.problems.length === 0)
    diagnostics.push({ message: `no *.yaml or *.yml files under ${paths.join(", ")}` });

  const drafts: Draft[] = [];
  const imports: ImportEntry[] = [];
  /** collection → name → where it was declared. */
  const declared = new Map<string, Map<string, Position | undefined>>(
    topLevelCollections.map((c) => [c, new Map()]),
  );
  const parsedFiles: string[] = [];
  /** Files that could not be read: the names they declare are unknown, so references are not judged. */
  let unreadable = 0;

  const total = found.files.reduce((sum, f) => sum + f.size, 0);
  if (total > limits.configBytes) {
    diagnostics.push({
      message: `the configuration's ${found.files.length} files hold ${formatBytes(total)}; vigil reads at most ${formatBytes(limits.configBytes)} in all`,
    });
    found.files.length = 0;
  }
  const budget: ValueBudget = { remaining: limits.values };
  for (const { path } of found.files) {
    const { parsed, problems } = await parseConfigFile(path, budget);
    for (const p of problems) {
      const where = p.path ? whereIs(p.path) : {};
      // A file that could not be read is a problem of the file, whatever member it is at: commands that
      // only need the files' addresses (destroy with paths) stop on it too.
      if (parsed) diagnostics.push({ at: p.at, ...where, message: p.message });
      else diagnostics.push({ at: p.at, message: formatDiagnostic({ ...where, message: p.message }) });
    }
    if (!parsed) {
      unreadable++;
      // The configuration already holds more values than vigil reads: the other files are not read.
      if (budget.remaining < 0) break;
      continue;
    }
    parsedFiles.push(parsed.file);
    const source: FileSource = { file: parsed.file, positions: parsed.positions };
    const problem = (at: Position | undefined, message: string, extra: Partial<LoadDiagnostic> = {}) =>
      diagnostics.push({ ...(at && { at }), ...extra, message });
    const expanded = expandEnv(parsed.data, env);
    for (const e of expanded.problems) problem(parsed.positions.value(e.path), e.message, whereIs(e.path));
    // The secrets' paths by their first two steps (a resource's collection and name), so that each
    // resource looks only at its own and a file of many secrets is not read once per resource.
    const secretsByResource = new Map<string, YamlPath[]>();
    for (const path of expanded.secrets) {
      if (path.length < 2) continue;
      const key = JSON.stringify(path.slice(0, 2));
      const list = secretsByResource.get(key);
      if (list) list.push(path);
      else secretsByResource.set(key, [path]);
    }
    const secretsUnder = (base: YamlPath) => secretsByResource.get(JSON.stringify(base.slice(0, 2))) ?? [];
    const data = expanded.value;
    if (!isData(data)) {
      problem(
        parsed.positions.value([]),
        `a vigil file is a map from collections (${topLevelCollections.join(", ")}) to resources, got ${describeValue(data)}`,
      );
      continue;
    }
    for (const [key, value] of Object.entries(data)) {
      const at = parsed.positions.key([key]);
      if (key === "format") {
        if (value !== formatVersion)
          problem(
            parsed.positions.value([key]),
            `must be "${formatVersion}", the version this vigil reads; got ${describeValue(value)}`,
            { path: key },
          );
        continue;
      }
      if (key === "imports") {
        readImports(value, source, imports, problem);
        continue;
      }
      const kind = topLevelKinds.find((k) => collectionOf(k) === key);
      if (!kind) {
        const known = [...topLevelCollections, ...fileKeys];
        const hint = closest(key, known);
        problem(
          at,
          `unknown top-level key ${quote(key)}; allowed: ${known.join(", ")}${hint ? `; did you mean "${hint}"?` : ""}`,
        );
        continue;
      }
      if (value === null) continue;
      if (!isData(value)) {
        problem(
          parsed.positions.value([key]),
          `expected a map from names to ${key} (${key}: { <name>: { ... } }), got ${describeValue(value)}`,
          { path: key },
        );
        continue;
      }
      for (const [name, members] of Object.entries(value)) {
        const nameAt = parsed.positions.key([key, name]);
        const invalid = nameProblem(name);
        if (invalid) {
          problem(nameAt, invalid, { path: key });
          continue;
        }
        const names = declared.get(key)!;
        if (names.has(name)) {
          const first = names.get(name);
          problem(
            nameAt,
            `${key}.${name} is declared twice${first ? ` (first at ${first.file}:${first.line})` : ""}; names are unique per collection across all files`,
          );
          continue;
        }
        names.set(name, nameAt);
        const read = readResource(kind, name, members, source, problem);
        for (const draft of read) markSecrets(draft, secretsUnder(draft.base));
        drafts.push(...read);
      }
    }
  }

  // References, once every file is read: each must name a declared resource. A file that could not
  // be read may declare any name, so nothing is said about names then.
  for (const draft of drafts) {
    for (const ref of draft.refs) {
      const names = declared.get(ref.collection)!;
      if (typeof ref.name === "string" && (names.has(ref.name) || unreadable > 0)) continue;
      const at = draft.file.positions.value([...draft.base, ...ref.path]);
      const base = { address: draft.resource.address, path: memberPath(ref.path) };
      const existing = [...names.keys()];
      const declaredOnes =
        existing.length > 0
          ? `declared ${ref.collection}: ${existing.join(", ")}`
          : `no ${ref.collection} are declared`;
      if (typeof ref.name !== "string") {
        diagnostics.push({
          ...base,
          ...(at && { at }),
          message: `expected the name of one of the ${ref.collection}, got ${describeValue(ref.name)}; ${declaredOnes}`,
        });
        continue;
      }
      const hint = closest(ref.name, existing);
      diagnostics.push({
        ...base,
        ...(at && { at }),
        message: `${ref.collection}.${shownName(ref.name)} is not declared; ${declaredOnes}${hint ? `; did you mean "${hint}"?` : ""}`,
      });
    }
  }

  const byAddress = new Map(drafts.map((d) => [d.resource.address, d]));
  const firstImport = new Map<string, Position | undefined>();
  for (const i of imports) {
    const where = { ...(i.at && { at: i.at }), path: i.path };
    if (!byAddress.has(i.address) && unreadable === 0) {
      const hint = closest(i.address, [...byAddress.keys()]);
      diagnostics.push({
        ...where,
        message: `${i.address} is not declared in the config; an import adopts an object as a resource the config declares${hint ? `; did you mean "${hint}"?` : ""}`,
      });
    }
    if (firstImport.has(i.address)) {
      const first = firstImport.get(i.address);
      diagnostics.push({
        ...where,
        message: `${i.address} is imported twice${first ? ` (first at ${first.file}:${first.line})` : ""}; import each address once`,
      });
    } else firstImport.set(i.address, i.at);
  }

  const engineDiagnostics = validateDesired(drafts.map((d) => d.resource));
  // A misspelt member is reported as unknown with its correction, not also as missing.
  const corrected = new Set(
    engineDiagnostics.flatMap(({ address, code, data, pointer: at }) =>
      code === "unknown_member" && typeof data.didYouMean === "string"
        ? [`${address}${pointer([...tokensOf(at).slice(0, -1), data.didYouMean])}`]
        : [],
    ),
  );
  for (const d of engineDiagnostics) {
    // The loader judged every reference itself, with the names the config uses.
    if (d.code === diagnosticCodes.unknownReference) continue;
    if (d.code === diagnosticCodes.required && corrected.has(`${d.address}${d.pointer}`)) continue;
    const draft = byAddress.get(d.address);
    if (!draft) continue;
    for (const { entry, message } of narrowed(draft, d.entry)) {
      const { at, path } = placeOf(draft, entry?.pointer ?? d.pointer, entry?.reason);
      if (draft.refused.some((r) => r.length <= path.length && r.every((t, i) => path[i] === t))) continue;
      diagnostics.push({
        ...(at && { at }),
        address: d.address,
        ...(path.length > 0 && { path: memberPath(path) }),
        // A predicted refusal says it in the API's words, code first.
        message: message ?? (entry && d.status === undefined ? describeEntry(draft, entry, path) : d.message),
      });
    }
  }

  diagnostics.sort(byPosition);
  return {
    resources: drafts.map((d) => d.resource),
    imports: imports.map(({ address, id }) => ({ address, id })),
    files: parsedFiles,
    diagnostics,
    locate(address, apiPointer) {
      const draft = byAddress.get(address);
      if (!draft) return undefined;
      const { at, path } = placeOf(draft, apiPointer);
      return { ...(at && { at }), address, ...(path.length > 0 && { path: memberPath(path) }), message: "" };
    },
  };
}

/** Where an engine pointer into a resource is written: its config path, and the position to report. */
function placeOf(
  draft: Draft,
  enginePointer: string,
  reason?: string,
): { at?: Position; path: (string | number)[] } {
  const path = yamlPathOf(draft, enginePointer);
  const full = [...draft.base, ...path];
  // A member the file lacks (a required one) is reported at the key of its deepest ancestor there:
  // the resource's name when none of it is written.
  let present = full.length;
  while (present > draft.base.length && !draft.file.positions.has(full.slice(0, present))) present--;
  const at =
    reason === "unknown_member"
      ? draft.file.positions.key(full)
      : present < full.length
        ? draft.file.positions.key(full.slice(0, present))
        : draft.file.positions.value(full);
  return { ...(at && { at }), path };
}

/** The members whose values the environment filled in: the engine keeps them secret like credentials. */
function markSecrets(draft: Draft, secrets: readonly YamlPath[]): void {
  if (secrets.length === 0) return;
  const { kind, members } = draft.resource;
  const sensitive = secrets.flatMap((path) => {
    const under = path.length > draft.base.length && draft.base.every((t, i) => path[i] === t);
    if (!under) return [];
    // The member in the API's names; only if the resource has it (a monitor's alerts are resources of their own).
    const api: (string | number)[] = [];
    let value: unknown = members;
    for (const token of path.slice(draft.base.length)) {
      const name = typeof token === "number" ? token : apiNameOf(kind, api, token);
      if (typeof value !== "object" || value === null || !Object.hasOwn(value, name)) return [];
      value = (value as Data)[name];
      api.push(name);
    }
    return [pointer(api.map(String))];
  });
  if (sensitive.length > 0) draft.resource.sensitive = sensitive;
}

function byPosition(a: LoadDiagnostic, b: LoadDiagnostic): number {
  const fa = a.at?.file ?? "";
  const fb = b.at?.file ?? "";
  if (fa !== fb) return fa < fb ? -1 : 1;
  return (a.at?.line ?? 0) - (b.at?.line ?? 0) || (a.at?.column ?? 0) - (b.at?.column ?? 0);
}

/** `file:line:column: address path: message`. */
export function formatDiagnostic(d: LoadDiagnostic): string {
  const where = d.at ? `${d.at.file}:${d.at.line}:${d.at.column}: ` : "";
  const what = [d.address, d.path].filter(Boolean).join(" ");
  return `${where}${what ? `${what}: ` : ""}${d.message}`;
}

/** The address and member path of a path into a file (`monitors.web`, `settings.password`). */
function whereIs(path: YamlPath): Partial<LoadDiagnostic> {
  const [collection, name, ...rest] = path;
  if (typeof name !== "string" || !topLevelCollections.includes(String(collection))) return {};
  return { address: `${collection}.${shownKey(name)}`, ...(rest.length > 0 && { path: memberPath(rest) }) };
}

type Problem = (at: Position | undefined, message: string, extra?: Partial<LoadDiagnostic>) => void;

/** An entry of `imports`, with where its `to` is written for messages. */
interface ImportEntry {
  address: string;
  id: string;
  at: Position | undefined;
  path: string;
}

const importForm = "{ to: <address>, id: <id of the existing object> }";

function readImports(value: unknown, file: FileSource, out: ImportEntry[], problem: Problem): void {
  if (!Array.isArray(value)) {
    problem(
      file.positions.value(["imports"]),
      `expected a list of ${importForm}, got ${describeValue(value)}`,
      {
        path: "imports",
      },
    );
    return;
  }
  value.forEach((entry, i) => {
    const path = `imports[${i}]`;
    const at = (member?: string) => file.positions.value(member ? ["imports", i, member] : ["imports", i]);
    if (!isData(entry)) {
      problem(at(), `expected ${importForm}, got ${describeValue(entry)}`, { path });
      return;
    }
    for (const extra of Object.keys(entry).filter((k) => k !== "to" && k !== "id")) {
      const hint = closest(extra, ["to", "id"]);
      problem(
        file.positions.key(["imports", i, extra]),
        `unknown member ${quote(extra)}; allowed members: to, id${hint ? `; did you mean "${hint}"?` : ""}`,
        { path: `${path}.${extra}` },
      );
    }
    let complete = true;
    for (const [member, what] of [
      ["to", "the address of a resource the config declares (monitors.<name>)"],
      ["id", "the id of the existing object"],
    ] as const) {
      const v = entry[member];
      if (typeof v === "string" && v !== "") continue;
      complete = false;
      const message =
        v === undefined ? `${member} is required: ${what}` : `expected ${what}, got ${describeValue(v)}`;
      problem(v === undefined ? at() : at(member), message, {
        path: v === undefined ? path : `${path}.${member}`,
      });
    }
    if (complete)
      out.push({ address: String(entry.to), id: String(entry.id), at: at("to"), path: `${path}.to` });
  });
}

/** A top-level resource, plus one resource per entry nested in it (a monitor's `alerts` and `reports`). */
function readResource(
  kind: DesiredResource["kind"],
  name: string,
  value: unknown,
  file: FileSource,
  problem: Problem,
): Draft[] {
  const collection = collectionOf(kind);
  const address = `${collection}.${name}`;
  const base = [collection, name];
  if (!isData(value)) {
    problem(file.positions.value(base), `expected a map of its members, got ${describeValue(value)}`, {
      address,
    });
    return [];
  }
  const members = dataOf(value);
  const drafts: Draft[] = [];
  const lifecycle = readLifecycle(members, kind, file, base, address, problem);
  delete members.lifecycle;
  for (const excluded of excludedMembersOf(kind)) {
    if (excluded in members) {
      problem(
        file.positions.key([...base, excluded]),
        `${excluded} is not part of vigil files: declare contacts under contacts: and subscribe them with alerts: and reports:`,
        { address, path: excluded },
      );
      delete members[excluded];
    }
  }
  for (const nested of nestedIn(kind)) {
    if (!(nested.member in members)) continue;
    const value = members[nested.member];
    drafts.push(
      ...(nested.keyedBy === undefined
        ? readNamedEntries(nested, name, value, file, problem)
        : readKeyedEntries(nested, nested.keyedBy, name, value, file, problem)),
    );
    delete members[nested.member];
  }
  const draft: Draft = {
    resource: {
      address,
      kind,
      members: {},
      ...(lifecycle && { lifecycle }),
      source: file.positions.key(base)!,
    },
    file,
    base,
    paths: new Map(),
    refs: [],
    refused: [],
  };
  draft.resource.members = convert(kind, members, draft, [], [], problem) as Data;
  return [draft, ...drafts];
}

/** What is wrong with a logical name, with a likely fix; undefined for a valid one. */
function nameProblem(name: string): string | undefined {
  if (namePattern.test(name)) return undefined;
  const fixed = name
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "-")
    .replace(/^[-_]+/, "");
  return `${quote(name)} is not a valid name: lower-case letters, digits, _ and -, starting with a letter or digit${namePattern.test(fixed) ? `; did you mean "${fixed}"?` : ""}`;
}

/** A value's kind, for a message: `got a list`. */
function describeValue(value: unknown): string {
  if (value === null || value === undefined) return "nothing";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a map";
  return typeof value === "string" ? `string ${quote(value)}` : `${typeof value} ${String(value)}`;
}

/**
 * The entries of a kind nested by a reference (a monitor's `alerts`): a list, one entry per referenced
 * object (`{ contact: <name>, alertTypes: [...] }`), each the resource `monitors.<m>.alerts.<contact>`.
 */
function readKeyedEntries(
  nested: NestedKind,
  keyedBy: string,
  parent: string,
  value: unknown,
  file: FileSource,
  problem: Problem,
): Draft[] {
  const { member, kind } = nested;
  const parentAddress = `${collectionOf(nested.parent)}.${parent}`;
  const listPath = [collectionOf(nested.parent), parent, member];
  const key = configNameOf(kind, [], keyedBy);
  const targets = collectionOf(referenceAt(kind, [], keyedBy, "api")!.target);
  // The members an entry needs besides the pair its place in the file gives.
  const needs = (engineKind(kind).definition.required ?? []).filter(
    (m) => m !== nested.parentMember && m !== keyedBy,
  );
  const form = `{ ${key}: <name>, ${needs.map((m) => `${m}: [...]`).join(", ")} }`;
  if (!Array.isArray(value)) {
    problem(file.positions.value(listPath), `expected a list of ${form}, got ${describeValue(value)}`, {
      address: parentAddress,
      path: member,
    });
    return [];
  }
  const drafts: Draft[] = [];
  const seen = new Map<string, number>();
  value.forEach((entry, i) => {
    const base = [...listPath, i];
    const where = (path = "") => ({ address: parentAddress, path: `${member}[${i}]${path}` });
    if (!isData(entry)) {
      problem(file.positions.value(base), `each entry of ${member} is ${form}`, where());
      return;
    }
    const name = entry[key];
    if (name === undefined) {
      const idForm = keyedBy in entry;
      problem(
        idForm ? file.positions.key([...base, keyedBy]) : file.positions.value(base),
        idForm
          ? `vigil files name the ${key} instead of giving its id: write ${key}: <name>`
          : `${key} is required: each entry of ${member} is ${form}`,
        where(idForm ? `.${keyedBy}` : ""),
      );
      return;
    }
    if (typeof name !== "string") {
      problem(
        file.positions.value([...base, key]),
        `expected the name of one of the ${targets}, got ${describeValue(name)}`,
        where(`.${key}`),
      );
      return;
    }
    const first = seen.get(name);
    if (first !== undefined) {
      problem(
        file.positions.value([...base, key]),
        `${key} ${name} is listed twice in ${member} (first at ${member}[${first}]); each ${key} has one entry`,
        where(`.${key}`),
      );
      return;
    }
    seen.set(name, i);
    drafts.push(
      readEntry(nested, parent, name, dataOf(entry), file, base, file.positions.value(base)!, problem),
    );
  });
  return drafts;
}

/**
 * The entries of a kind nested with logical names of their own (a status page's `templates`): a map from
 * names to members, as a top-level collection is, each the resource `statusPages.<p>.templates.<name>`.
 */
function readNamedEntries(
  nested: NestedKind,
  parent: string,
  value: unknown,
  file: FileSource,
  problem: Problem,
): Draft[] {
  const { member } = nested;
  const mapPath = [collectionOf(nested.parent), parent, member];
  if (!isData(value)) {
    problem(
      file.positions.value(mapPath),
      `expected a map from names to ${member} (${member}: { <name>: { ... } }), got ${describeValue(value)}`,
      { address: `${collectionOf(nested.parent)}.${parent}`, path: member },
    );
    return [];
  }
  const drafts: Draft[] = [];
  for (const [name, entry] of Object.entries(value)) {
    const base = [...mapPath, name];
    const invalid = nameProblem(name);
    if (invalid) {
      problem(file.positions.key(base), invalid, {
        address: `${collectionOf(nested.parent)}.${parent}`,
        path: member,
      });
      continue;
    }
    const address = nestedAddress(nested, parent, name);
    if (!isData(entry)) {
      problem(file.positions.value(base), `expected a map of its members, got ${describeValue(entry)}`, {
        address,
      });
      continue;
    }
    drafts.push(
      readEntry(nested, parent, name, dataOf(entry), file, base, file.positions.key(base)!, problem),
    );
  }
  return drafts;
}

/** One nested entry as a resource: its parent's id comes from where it is written. */
function readEntry(
  nested: NestedKind,
  parent: string,
  name: string,
  members: Data,
  file: FileSource,
  base: YamlPath,
  source: Position,
  problem: Problem,
): Draft {
  const { kind, member } = nested;
  const parentAddress = `${collectionOf(nested.parent)}.${parent}`;
  const address = nestedAddress(nested, parent, name);
  const lifecycle = readLifecycle(members, kind, file, base, address, problem);
  delete members.lifecycle;
  const parentKey = configNameOf(kind, [], nested.parentMember);
  if (parentKey in members) {
    problem(
      file.positions.key([...base, parentKey]),
      `the ${parentKey} is the one ${member} is listed under; remove ${parentKey}`,
      { address, path: parentKey },
    );
    delete members[parentKey];
  }
  const draft: Draft = {
    resource: { address, kind, members: {}, ...(lifecycle && { lifecycle }), source },
    file,
    base,
    paths: new Map(),
    refs: [{ path: [], collection: collectionOf(nested.parent), name: parent }],
    refused: [],
  };
  draft.resource.members = {
    [nested.parentMember]: { $ref: parentAddress },
    ...(convert(kind, members, draft, [], [], problem) as Data),
  };
  return draft;
}

function readLifecycle(
  members: Data,
  kind: DesiredResource["kind"],
  file: FileSource,
  base: YamlPath,
  address: string,
  problem: Problem,
): Lifecycle | undefined {
  const value = members.lifecycle;
  if (value === undefined) return undefined;
  const at = (path: YamlPath) => file.positions.value([...base, "lifecycle", ...path]);
  const where = (path: string) => ({ address, path: `lifecycle${path}` });
  if (!isData(value)) {
    problem(
      at([]),
      `expected a map with any of ${lifecycleOptions.join(", ")}, got ${describeValue(value)}`,
      where(""),
    );
    return undefined;
  }
  const out: Lifecycle = {};
  for (const [option, v] of Object.entries(value)) {
    if (option === "protect" || option === "retainOnDelete") {
      if (typeof v === "boolean") out[option] = v;
      else problem(at([option]), `expected true or false, got ${describeValue(v)}`, where(`.${option}`));
    } else if (option === "ignoreChanges" || option === "replaceOnChanges") {
      if (!Array.isArray(v) || v.some((p) => typeof p !== "string" || p === "")) {
        problem(
          at([option]),
          `expected a list of member paths such as [settings.timeout], got ${describeValue(v)}`,
          where(`.${option}`),
        );
        continue;
      }
      // Paths are written with the config's names; the engine compares the API's.
      out[option] = (v as string[]).flatMap((p, i) => {
        const wrong = lifecyclePathProblem(kind, members, p);
        if (!wrong) return [pointer(apiPathOf(kind, p))];
        problem(at([option, i]), `${quote(p)} is not a member path: ${wrong}`, where(`.${option}[${i}]`));
        return [];
      });
    } else {
      const hint = closest(option, lifecycleOptions);
      problem(
        file.positions.key([...base, "lifecycle", option]),
        `unknown lifecycle option ${quote(option)}; allowed: ${lifecycleOptions.join(", ")}${hint ? `; did you mean "${hint}"?` : ""}`,
        where(`.${option}`),
      );
    }
  }
  return out;
}

/**
 * Config members → engine members: references become `{$ref}`, timestamps
 * Unix seconds. Records each engine path's config path, for diagnostics.
 */
function convert(
  kind: DesiredResource["kind"],
  value: unknown,
  draft: Draft,
  yamlPath: (string | number)[],
  apiPath: (string | number)[],
  problem: Problem,
): unknown {
  // Only where the config's path is not the API's own, renamed member by member (configNameOf): the
  // resource's root and each reference. Recording every member cost more memory than the members.
  if (apiPath.length === 0) draft.paths.set("", yamlPath);
  if (Array.isArray(value))
    return value.map((item, i) => convert(kind, item, draft, [...yamlPath, i], [...apiPath, i], problem));
  if (!isData(value)) return value;
  const out = dataOf();
  for (const [key, member] of Object.entries(value)) {
    const ref = referenceAt(kind, apiPath, key, "yaml");
    const apiOnly = referenceAt(kind, apiPath, key, "api");
    if (apiOnly && apiOnly.yamlName !== key) {
      problem(
        draft.file.positions.key([...draft.base, ...yamlPath, key]),
        `vigil files name the ${apiOnly.target} instead of giving its id: write ${apiOnly.yamlName}: <name>`,
        { address: draft.resource.address, path: memberPath([...yamlPath, key]) },
      );
      // A stand-in reference, so the engine does not also report the member as missing.
      const standIn = { $ref: `${collectionOf(apiOnly.target)}.${apiOnly.yamlName}` };
      out[apiOnly.member] = apiOnly.many ? [standIn] : standIn;
      continue;
    }
    if (ref) {
      const collection = collectionOf(ref.target);
      const names = ref.many ? member : [member];
      if (!Array.isArray(names)) {
        problem(
          draft.file.positions.value([...draft.base, ...yamlPath, key]),
          `expected a list of names of ${collection}, got ${describeValue(member)}`,
          { address: draft.resource.address, path: memberPath([...yamlPath, key]) },
        );
        draft.refused.push([...yamlPath, key]);
        continue;
      }
      names.forEach((name, i) => {
        draft.refs.push({ path: ref.many ? [...yamlPath, key, i] : [...yamlPath, key], collection, name });
      });
      const toRef = (name: unknown) => ({ $ref: `${collection}.${String(name)}` });
      out[ref.member] = ref.many ? names.map(toRef) : toRef(member);
      draft.paths.set(pointer([...apiPath, ref.member].map(String)), [...yamlPath, key]);
      continue;
    }
    if (isTimestampAt(kind, apiPath, key) && typeof member === "string") {
      const seconds = parseIsoTime(member);
      if (seconds === undefined) {
        problem(
          draft.file.positions.value([...draft.base, ...yamlPath, key]),
          `${quote(member)} is not a time; write ISO 8601 with a zone (2026-12-01T02:00:00Z) or Unix seconds`,
          { address: draft.resource.address, path: memberPath([...yamlPath, key]) },
        );
        draft.refused.push([...yamlPath, key]);
        continue;
      }
      out[key] = seconds;
      continue;
    }
    out[key] = convert(kind, member, draft, [...yamlPath, key], [...apiPath, key], problem);
  }
  return out;
}

/**
 * A value that matches no form of a union comes back from zod as one
 * "Invalid input": replace it with the problems of the form it means, or say
 * which forms there are.
 */
function narrowed(
  draft: Draft,
  entry: ProblemDetailEntry | undefined,
): { entry?: ProblemDetailEntry; message?: string }[] {
  if (entry?.reason !== "no_match") return [{ ...(entry && { entry }) }];
  const path = tokensOf(entry.pointer ?? "").map((t) => (/^\d+$/.test(t) ? Number(t) : t));
  const explained = explainUnion(draft.resource.kind, draft.resource.members, path, entry.value);
  if (!explained) return [{ entry }];
  if ("message" in explained) return [{ entry, message: explained.message }];
  return explained.entries.map((e) => ({ entry: e }));
}

/** The config path of an engine pointer: the longest recorded prefix, plus the rest as is. */
function yamlPathOf(draft: Draft, enginePointer: string): (string | number)[] {
  const tokens = tokensOf(enginePointer).map((t) => (/^\d+$/.test(t) ? Number(t) : t));
  for (let n = tokens.length; n >= 0; n--) {
    const known = draft.paths.get(pointer(tokens.slice(0, n).map(String)));
    if (!known) continue;
    // Members the config never wrote (a required one) still show with the config's names.
    const rest = tokens
      .slice(n)
      .map((t, i) =>
        typeof t === "number" ? t : configNameOf(draft.resource.kind, tokens.slice(0, n + i), t),
      );
    return [...known, ...rest];
  }
  return tokens;
}

/** An engine problem entry, in the config's names: what is wrong, what is allowed, and a guess. */
function describeEntry(draft: Draft, entry: ProblemDetailEntry, path: (string | number)[]): string {
  const kind = draft.resource.kind;
  const parent = tokensOf(entry.pointer ?? "")
    .slice(0, -1)
    .map((t) => (/^\d+$/.test(t) ? Number(t) : t));
  const rename = (member: unknown) => configNameOf(kind, parent, String(member));
  let message = typeof entry.message === "string" ? entry.message : (entry.reason ?? "invalid");
  if (entry.reason === "unknown_member") {
    const name = String(path[path.length - 1]);
    const excluded = parent.length === 0 ? [...excludedMembersOf(kind), ...impliedMembers(kind)] : [];
    const own = parent.length === 0 ? ownMembers(kind) : [];
    const allowed = [...(entry.allowed ?? []).map(rename).filter((m) => !excluded.includes(m)), ...own];
    const hint = closest(name, allowed);
    message = `unknown member ${quote(name)}; allowed members: ${allowed.join(", ")}`;
    // A setting of another monitor type is a common slip: say where it belongs.
    const elsewhere = otherVariantsWith(kind, parent, name);
    if (elsewhere) message += `; ${elsewhere}`;
    return hint ? `${message}; did you mean "${hint}"?` : message;
  }
  if (entry.reason === "required" && path.length > 0) {
    message = `${String(path[path.length - 1])} is required`;
    // A missing member of the resource itself says what it takes, in the config's forms.
    const takes =
      parent.length === 0
        ? allowedValues(kind, draft.resource.members, String(tokensOf(entry.pointer ?? "")[0]))
        : undefined;
    if (takes) return `${message}; ${takes}`;
  }
  // A credential's value is withheld: the engine's words then name its type only.
  if (entry.reason === "wrong_type" && typeof entry.expected === "string" && entry.value !== undefined)
    message = `expected ${typeNames[entry.expected] ?? entry.expected}, got ${describeValue(entry.value)}`;
  const bound = boundMessage(entry);
  if (bound) message = bound;
  const allowed = entry.allowed;
  // A value not allowed is told as "must be one of" them: they are not said twice.
  if (allowed && allowed.length > 0 && entry.reason !== "not_allowed")
    message += `; allowed: ${allowed.map((a) => JSON.stringify(a)).join(", ")}`;
  if (entry.didYouMean) message += `; did you mean ${JSON.stringify(entry.didYouMean)}?`;
  return message;
}

/** JSON's type names, as a YAML file shows them. */
const typeNames: Record<string, string> = { array: "a list", object: "a map" };

/** A value out of its bounds, said plainly (zod's own words are `Too small: expected number to be >=50`). */
function boundMessage(entry: ProblemDetailEntry): string | undefined {
  const min = typeof entry.minimum === "number" ? entry.minimum : undefined;
  const max = typeof entry.maximum === "number" ? entry.maximum : undefined;
  const limit = min === undefined ? `at most ${max}` : `at least ${min}`;
  if (min === undefined && max === undefined) return undefined;
  const plural = (n: number | undefined, word: string) => `${word}${n === 1 ? "" : "s"}`;
  switch (entry.reason) {
    case "out_of_range":
      return `must be ${limit}`;
    case "too_short":
    case "too_long":
      return `must be ${limit} ${plural(min ?? max, "character")} long`;
    case "too_few":
    case "too_many":
      return `must have ${limit} ${plural(min ?? max, "item")}`;
    default:
      return undefined;
  }
}

/** Members the file's layout gives, never written: a subscription's monitor is the one it is listed under. */
function impliedMembers(kind: DesiredResource["kind"]): string[] {
  const nesting = nestingOf(kind);
  return nesting ? [configNameOf(kind, [], nesting.parentMember)] : [];
}

/** Members the format adds to a kind's own: the kinds nested in it (a monitor's `alerts`), and `lifecycle`. */
function ownMembers(kind: DesiredResource["kind"]): string[] {
  return [...nestedIn(kind).map((n) => n.member), "lifecycle"];
}
