/**
 * Loads a GitOps repo's YAML files into the engine's desired state: merges the
 * files, resolves logical names into references, timestamps into Unix
 * seconds and `${env:NAME}` into values, then checks everything with the
 * engine's validation. Every problem comes back at once, each at
 * file:line:column with the member path in the config's own names.
 */
import type { DesiredResource, Lifecycle } from "../engine/model.ts";
import { pointer, tokensOf } from "../engine/pointer.ts";
import { validateDesired } from "../engine/validate.ts";
import { closest, type ProblemDetailEntry } from "../kinds/index.ts";
import { expandEnv } from "./env.ts";
import { findConfigFiles, type ParsedFile, type Position, parseConfigFile, type YamlPath } from "./files.ts";
import {
  apiNameOf,
  collectionOf,
  configNameOf,
  excludedMembers,
  fileKeys,
  formatVersion,
  isTimestampAt,
  lifecycleOptions,
  type NestedMember,
  namePattern,
  nestedSubscriptions,
  parseIsoTime,
  referenceAt,
  subscriptionAddress,
  type TopLevelKind,
  topLevelCollections,
  topLevelKinds,
} from "./format.ts";

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
}

export interface LoadOptions {
  /** Where `${env:NAME}` looks (process.env by default). */
  env?: Record<string, string | undefined>;
}

type Data = Record<string, unknown>;
const isData = (v: unknown): v is Data => typeof v === "object" && v !== null && !Array.isArray(v);

/** `settings.timeout`, `members[0].contact`. */
export function memberPath(path: YamlPath): string {
  return path.map((t, i) => (typeof t === "number" ? `[${t}]` : i === 0 ? t : `.${t}`)).join("");
}

/** One resource on its way from YAML to the engine. */
interface Draft {
  resource: DesiredResource;
  file: ParsedFile;
  /** Where its members start in the file (`["monitors", "web"]`, `["monitors", "web", "alerts", 0]`). */
  base: YamlPath;
  /** Engine JSON pointer → the config's member path under `base`. */
  paths: Map<string, YamlPath>;
  /** References to check once every file is read: where, which collection, which name. */
  refs: { path: YamlPath; collection: string; name: unknown }[];
}

export async function loadConfig(paths: readonly string[], options: LoadOptions = {}): Promise<LoadedConfig> {
  const env = options.env ?? process.env;
  const diagnostics: LoadDiagnostic[] = [];
  const found = await findConfigFiles(paths);
  for (const message of found.problems) diagnostics.push({ message });
  if (found.files.length === 0 && found.problems.length === 0)
    diagnostics.push({ message: `no *.yaml or *.yml files under ${paths.join(", ")}` });

  const drafts: Draft[] = [];
  const imports: { address: string; id: string; at: Position | undefined }[] = [];
  /** collection → name → where it was declared. */
  const declared = new Map<string, Map<string, Position | undefined>>(
    topLevelCollections.map((c) => [c, new Map()]),
  );
  const parsedFiles: string[] = [];

  for (const path of found.files) {
    const { parsed, problems } = await parseConfigFile(path);
    for (const p of problems) diagnostics.push({ at: p.at, message: p.message });
    if (!parsed) continue;
    parsedFiles.push(parsed.file);
    const problem = (at: Position | undefined, message: string, extra: Partial<LoadDiagnostic> = {}) =>
      diagnostics.push({ ...(at && { at }), ...extra, message });
    const expanded = expandEnv(parsed.data, env);
    for (const e of expanded.problems) problem(parsed.positions.value(e.path), e.message, whereIs(e.path));
    const data = expanded.value;
    if (!isData(data)) {
      problem(
        parsed.positions.value([]),
        "a vigil file is a map from collections (monitors, contacts...) to resources",
      );
      continue;
    }
    for (const [key, value] of Object.entries(data)) {
      const at = parsed.positions.key([key]);
      if (key === "format") {
        if (value !== formatVersion)
          problem(parsed.positions.value([key]), `format must be "${formatVersion}"`);
        continue;
      }
      if (key === "imports") {
        readImports(value, parsed, imports, problem);
        continue;
      }
      const kind = topLevelKinds.find((k) => collectionOf(k) === key);
      if (!kind) {
        const known = [...topLevelCollections, ...fileKeys];
        const hint = closest(key, known);
        problem(
          at,
          `unknown top-level key "${key}"; allowed: ${known.join(", ")}${hint ? `; did you mean "${hint}"?` : ""}`,
        );
        continue;
      }
      if (value === null) continue;
      if (!isData(value)) {
        problem(parsed.positions.value([key]), `${key} is a map from names to ${key}`);
        continue;
      }
      for (const [name, members] of Object.entries(value)) {
        const nameAt = parsed.positions.key([key, name]);
        if (!namePattern.test(name)) {
          problem(
            nameAt,
            `"${name}" is not a valid name: lower-case letters, digits, _ and -, starting with a letter or digit`,
          );
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
        drafts.push(...readResource(kind, name, members, parsed, problem));
      }
    }
  }

  // References, once every file is read: each must name a declared resource.
  for (const draft of drafts) {
    for (const ref of draft.refs) {
      const names = declared.get(ref.collection)!;
      if (typeof ref.name === "string" && names.has(ref.name)) continue;
      const at = draft.file.positions.value([...draft.base, ...ref.path]);
      const base = { address: draft.resource.address, path: memberPath(ref.path) };
      if (typeof ref.name !== "string") {
        diagnostics.push({
          ...base,
          ...(at && { at }),
          message: `expected the name of one of the ${ref.collection}`,
        });
        continue;
      }
      const hint = closest(ref.name, [...names.keys()]);
      const existing = [...names.keys()];
      diagnostics.push({
        ...base,
        ...(at && { at }),
        message: `${ref.collection}.${ref.name} is not declared; ${existing.length > 0 ? `declared ${ref.collection}: ${existing.join(", ")}` : `no ${ref.collection} are declared`}${hint ? `; did you mean "${hint}"?` : ""}`,
      });
    }
  }

  const byAddress = new Map(drafts.map((d) => [d.resource.address, d]));
  for (const i of imports) {
    if (!byAddress.has(i.address)) {
      const hint = closest(i.address, [...byAddress.keys()]);
      diagnostics.push({
        ...(i.at && { at: i.at }),
        message: `imports: ${i.address} is not declared in the config${hint ? `; did you mean "${hint}"?` : ""}`,
      });
    }
  }
  const seenImports = new Map<string, Position | undefined>();
  for (const i of imports) {
    if (seenImports.has(i.address))
      diagnostics.push({ ...(i.at && { at: i.at }), message: `imports: ${i.address} is imported twice` });
    seenImports.set(i.address, i.at);
  }

  for (const d of validateDesired(drafts.map((d) => d.resource))) {
    // The loader checked every reference itself, with the names the config uses.
    if (d.pointer === "" && d.message.startsWith("references ")) continue;
    const draft = byAddress.get(d.address);
    if (!draft) continue;
    const path = yamlPathOf(draft, d.pointer);
    const onKey = d.entry?.reason === "unknown_member";
    const at = onKey
      ? draft.file.positions.key([...draft.base, ...path])
      : draft.file.positions.value([...draft.base, ...path]);
    diagnostics.push({
      ...(at && { at }),
      address: d.address,
      ...(path.length > 0 && { path: memberPath(path) }),
      message: d.entry ? describeEntry(draft, d.entry, path) : d.message,
    });
  }

  diagnostics.sort(byPosition);
  return {
    resources: drafts.map((d) => d.resource),
    imports: imports.map(({ address, id }) => ({ address, id })),
    files: parsedFiles,
    diagnostics,
  };
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
  return { address: `${collection}.${name}`, ...(rest.length > 0 && { path: memberPath(rest) }) };
}

type Problem = (at: Position | undefined, message: string, extra?: Partial<LoadDiagnostic>) => void;

function readImports(
  value: unknown,
  file: ParsedFile,
  out: { address: string; id: string; at: Position | undefined }[],
  problem: Problem,
): void {
  if (!Array.isArray(value)) {
    problem(file.positions.value(["imports"]), "imports is a list of { to: <address>, id: <id> }");
    return;
  }
  value.forEach((entry, i) => {
    const at = file.positions.value(["imports", i]);
    if (!isData(entry) || typeof entry.to !== "string" || typeof entry.id !== "string" || entry.id === "") {
      problem(at, "an import is { to: <address>, id: <id of the existing object> }");
      return;
    }
    const extra = Object.keys(entry).filter((k) => k !== "to" && k !== "id");
    if (extra.length > 0)
      problem(
        file.positions.key(["imports", i, extra[0]!]),
        `unknown member "${extra[0]}"; allowed members: to, id`,
      );
    out.push({ address: entry.to, id: entry.id, at });
  });
}

/** A top-level resource, plus one resource per entry of a monitor's `alerts` and `reports`. */
function readResource(
  kind: TopLevelKind,
  name: string,
  value: unknown,
  file: ParsedFile,
  problem: Problem,
): Draft[] {
  const collection = collectionOf(kind);
  const address = `${collection}.${name}`;
  const base = [collection, name];
  if (!isData(value)) {
    problem(file.positions.value(base), `${address} must be a map of members`, { address });
    return [];
  }
  const members: Data = { ...value };
  const drafts: Draft[] = [];
  const lifecycle = readLifecycle(members, kind, file, base, address, problem);
  delete members.lifecycle;
  for (const excluded of excludedMembers[kind] ?? []) {
    if (excluded in members) {
      problem(
        file.positions.key([...base, excluded]),
        `${excluded} is not part of vigil files: declare contacts under contacts: and subscribe them with alerts: and reports:`,
        { address, path: excluded },
      );
      delete members[excluded];
    }
  }
  if (kind === "monitor") {
    for (const nested of nestedSubscriptions) {
      if (!(nested.member in members)) continue;
      drafts.push(...readSubscriptions(nested, name, members[nested.member], file, problem));
      delete members[nested.member];
    }
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
  };
  draft.resource.members = convert(kind, members, draft, [], [], problem) as Data;
  return [draft, ...drafts];
}

function readSubscriptions(
  nested: (typeof nestedSubscriptions)[number],
  monitor: string,
  value: unknown,
  file: ParsedFile,
  problem: Problem,
): Draft[] {
  const member: NestedMember = nested.member;
  const listPath = [collectionOf("monitor"), monitor, member];
  if (!Array.isArray(value)) {
    problem(file.positions.value(listPath), `${member} is a list of { contact: <name>, ... }`, {
      address: `${collectionOf("monitor")}.${monitor}`,
      path: member,
    });
    return [];
  }
  const drafts: Draft[] = [];
  const seen = new Set<string>();
  value.forEach((entry, i) => {
    const base = [...listPath, i];
    const where = { address: `${collectionOf("monitor")}.${monitor}`, path: `${member}[${i}]` };
    if (!isData(entry) || typeof entry.contact !== "string") {
      problem(
        file.positions.value(base),
        `each of ${member} is { contact: <name>, ... } naming a contact`,
        where,
      );
      return;
    }
    if (seen.has(entry.contact)) {
      problem(
        file.positions.value([...base, "contact"]),
        `contact ${entry.contact} is listed twice in ${member}`,
        where,
      );
      return;
    }
    seen.add(entry.contact);
    const address = subscriptionAddress(monitor, member, entry.contact);
    const members: Data = { ...entry };
    const lifecycle = readLifecycle(members, nested.kind, file, base, address, problem);
    delete members.lifecycle;
    if ("monitor" in members) {
      problem(
        file.positions.key([...base, "monitor"]),
        `the monitor is the one ${member} is listed under; remove monitor`,
        {
          address,
          path: "monitor",
        },
      );
      delete members.monitor;
    }
    const draft: Draft = {
      resource: {
        address,
        kind: nested.kind,
        members: {},
        ...(lifecycle && { lifecycle }),
        source: file.positions.value(base)!,
      },
      file,
      base,
      paths: new Map(),
      refs: [{ path: [], collection: collectionOf("monitor"), name: monitor }],
    };
    draft.resource.members = {
      monitorId: { $ref: `${collectionOf("monitor")}.${monitor}` },
      ...(convert(nested.kind, members, draft, [], [], problem) as Data),
    };
    drafts.push(draft);
  });
  return drafts;
}

function readLifecycle(
  members: Data,
  kind: DesiredResource["kind"],
  file: ParsedFile,
  base: YamlPath,
  address: string,
  problem: Problem,
): Lifecycle | undefined {
  const value = members.lifecycle;
  if (value === undefined) return undefined;
  const at = (path: YamlPath) => file.positions.value([...base, "lifecycle", ...path]);
  const where = (path: string) => ({ address, path: `lifecycle${path}` });
  if (!isData(value)) {
    problem(at([]), `lifecycle is a map with ${lifecycleOptions.join(", ")}`, where(""));
    return undefined;
  }
  const out: Lifecycle = {};
  for (const [option, v] of Object.entries(value)) {
    if (option === "protect" || option === "retainOnDelete") {
      if (typeof v === "boolean") out[option] = v;
      else problem(at([option]), `${option} is true or false`, where(`.${option}`));
    } else if (option === "ignoreChanges" || option === "replaceOnChanges") {
      if (!Array.isArray(v) || v.some((p) => typeof p !== "string" || p === "")) {
        problem(
          at([option]),
          `${option} is a list of member paths such as settings.timeout`,
          where(`.${option}`),
        );
        continue;
      }
      // Paths are written with the config's names; the engine compares the API's.
      out[option] = (v as string[]).map((p) => pointer(apiPathForLifecycle(kind, p)));
    } else {
      const hint = closest(option, lifecycleOptions);
      problem(
        file.positions.key([...base, "lifecycle", option]),
        `unknown lifecycle option "${option}"; allowed: ${lifecycleOptions.join(", ")}${hint ? `; did you mean "${hint}"?` : ""}`,
        where(`.${option}`),
      );
    }
  }
  return out;
}

function apiPathForLifecycle(kind: DesiredResource["kind"], dotted: string): string[] {
  const tokens: (string | number)[] = [];
  for (const token of dotted.split("."))
    tokens.push(/^\d+$/.test(token) ? Number(token) : apiNameOf(kind, tokens, token));
  return tokens.map(String);
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
  draft.paths.set(pointer(apiPath.map(String)), yamlPath);
  if (Array.isArray(value))
    return value.map((item, i) => convert(kind, item, draft, [...yamlPath, i], [...apiPath, i], problem));
  if (!isData(value)) return value;
  const out: Data = {};
  for (const [key, member] of Object.entries(value)) {
    const ref = referenceAt(kind, apiPath, key, "yaml");
    const apiOnly = referenceAt(kind, apiPath, key, "api");
    if (apiOnly && apiOnly.yamlName !== key) {
      problem(
        draft.file.positions.key([...draft.base, ...yamlPath, key]),
        `vigil files name the ${apiOnly.target} instead of giving its id: write ${apiOnly.yamlName}: <name>`,
        { address: draft.resource.address, path: memberPath([...yamlPath, key]) },
      );
      continue;
    }
    if (ref) {
      const collection = collectionOf(ref.target);
      const names = ref.many ? member : [member];
      if (!Array.isArray(names)) {
        problem(
          draft.file.positions.value([...draft.base, ...yamlPath, key]),
          `${key} is a list of ${collection} names`,
          { address: draft.resource.address, path: memberPath([...yamlPath, key]) },
        );
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
          `"${member}" is not a time; write ISO 8601 with a zone (2026-12-01T02:00:00Z) or Unix seconds`,
          { address: draft.resource.address, path: memberPath([...yamlPath, key]) },
        );
        continue;
      }
      out[key] = seconds;
      draft.paths.set(pointer([...apiPath, key].map(String)), [...yamlPath, key]);
      continue;
    }
    out[key] = convert(kind, member, draft, [...yamlPath, key], [...apiPath, key], problem);
  }
  return out;
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
    const name = path[path.length - 1];
    const excluded = parent.length === 0 ? (excludedMembers[kind] ?? []) : [];
    const own = parent.length === 0 ? ownMembers(kind) : [];
    const allowed = [...(entry.allowed ?? []).map(rename).filter((m) => !excluded.includes(m)), ...own];
    const hint = closest(String(name), allowed);
    message = `unknown member "${String(name)}"; allowed members: ${allowed.join(", ")}`;
    return hint ? `${message}; did you mean "${hint}"?` : message;
  }
  if (entry.reason === "required" && path.length > 0)
    message = `${String(path[path.length - 1])} is required`;
  if (entry.allowed && entry.allowed.length > 0 && !message.includes("must be one of"))
    message += `; allowed: ${entry.allowed.map((a) => JSON.stringify(a)).join(", ")}`;
  if (entry.didYouMean) message += `; did you mean ${JSON.stringify(entry.didYouMean)}?`;
  return message;
}

/** Members the format adds to a kind's own. */
function ownMembers(kind: DesiredResource["kind"]): string[] {
  return kind === "monitor" ? [...nestedSubscriptions.map((n) => n.member), "lifecycle"] : ["lifecycle"];
}
