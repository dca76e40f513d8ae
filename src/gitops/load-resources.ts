/** A file's resources, imports and lifecycle options, read into drafts: references, timestamps and secrets converted. */
import { engineKind } from "../engine/kinds/index.ts";
import type { DesiredResource, Lifecycle } from "../engine/model.ts";
import { pointer } from "../engine/pointer.ts";
import { closest } from "../kinds/index.ts";
import { lifecyclePathProblem } from "./explain.ts";
import { type Position, quote, type YamlPath } from "./files.ts";
import {
  apiNameOf,
  apiPathOf,
  configNameOf,
  excludedMembersOf,
  isTimestampAt,
  lifecycleOptions,
  type NestedKind,
  namePattern,
  nestedAddress,
  nestedIn,
  parseIsoTime,
  referenceAt,
  sectionOf,
} from "./format.ts";
import {
  type Data,
  type Draft,
  dataOf,
  describeValue,
  type FileSource,
  isData,
  memberPath,
  type Problem,
} from "./load-draft.ts";

/** The members whose values the environment filled in: the engine keeps them secret like credentials. */
export function markSecrets(draft: Draft, secrets: readonly YamlPath[]): void {
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

/** An entry of `imports`, with where its `to` is written for messages. */
export interface ImportEntry {
  address: string;
  id: string;
  at: Position | undefined;
  path: string;
}

const importForm = "{ to: <address>, id: <id of the existing object> }";

export function readImports(value: unknown, file: FileSource, out: ImportEntry[], problem: Problem): void {
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
export function readResource(
  kind: DesiredResource["kind"],
  name: string,
  value: unknown,
  file: FileSource,
  problem: Problem,
): Draft[] {
  const section = sectionOf(kind);
  const address = `${section}.${name}`;
  const base = [section, name];
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
  const parentAddress = `${sectionOf(nested.parent)}.${parent}`;
  const listPath = [sectionOf(nested.parent), parent, member];
  const key = configNameOf(kind, [], keyedBy);
  const targets = sectionOf(referenceAt(kind, [], keyedBy, "api")!.target);
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
 * names to members, as a top-level section is, each the resource `statusPages.<p>.templates.<name>`.
 */
function readNamedEntries(
  nested: NestedKind,
  parent: string,
  value: unknown,
  file: FileSource,
  problem: Problem,
): Draft[] {
  const { member } = nested;
  const mapPath = [sectionOf(nested.parent), parent, member];
  if (!isData(value)) {
    problem(
      file.positions.value(mapPath),
      `expected a map from names to ${member} (${member}: { <name>: { ... } }), got ${describeValue(value)}`,
      { address: `${sectionOf(nested.parent)}.${parent}`, path: member },
    );
    return [];
  }
  const drafts: Draft[] = [];
  for (const [name, entry] of Object.entries(value)) {
    const base = [...mapPath, name];
    const invalid = nameProblem(name);
    if (invalid) {
      problem(file.positions.key(base), invalid, {
        address: `${sectionOf(nested.parent)}.${parent}`,
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
  const parentAddress = `${sectionOf(nested.parent)}.${parent}`;
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
    refs: [{ path: [], section: sectionOf(nested.parent), name: parent }],
    refused: [],
  };
  draft.resource.members = {
    [nested.parentMember]: { $ref: parentAddress },
    ...(convert(kind, members, draft, [], [], problem) as Data),
  };
  return draft;
}

/** What is wrong with a logical name, with a likely fix; undefined for a valid one. */
export function nameProblem(name: string): string | undefined {
  if (namePattern.test(name)) return undefined;
  const fixed = name
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "-")
    .replace(/^[-_]+/, "");
  return `${quote(name)} is not a valid name: lower-case letters, digits, _ and -, starting with a letter or digit${namePattern.test(fixed) ? `; did you mean "${fixed}"?` : ""}`;
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
      const standIn = { $ref: `${sectionOf(apiOnly.target)}.${apiOnly.yamlName}` };
      out[apiOnly.member] = apiOnly.many ? [standIn] : standIn;
      continue;
    }
    if (ref) {
      const section = sectionOf(ref.target);
      const names = ref.many ? member : [member];
      if (!Array.isArray(names)) {
        problem(
          draft.file.positions.value([...draft.base, ...yamlPath, key]),
          `expected a list of names of ${section}, got ${describeValue(member)}`,
          { address: draft.resource.address, path: memberPath([...yamlPath, key]) },
        );
        draft.refused.push([...yamlPath, key]);
        continue;
      }
      names.forEach((name, i) => {
        draft.refs.push({ path: ref.many ? [...yamlPath, key, i] : [...yamlPath, key], section, name });
      });
      const toRef = (name: unknown) => ({ $ref: `${section}.${String(name)}` });
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
