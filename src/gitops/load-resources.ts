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
  collectionOf,
  excludedMembers,
  isTimestampAt,
  lifecycleOptions,
  type NestedMember,
  nestedSubscriptions,
  parseIsoTime,
  referenceAt,
  subscriptionAddress,
  type TopLevelKind,
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

/** A top-level resource, plus one resource per entry of a monitor's `alerts` and `reports`. */
export function readResource(
  kind: TopLevelKind,
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
    refused: [],
  };
  draft.resource.members = convert(kind, members, draft, [], [], problem) as Data;
  return [draft, ...drafts];
}

function readSubscriptions(
  nested: (typeof nestedSubscriptions)[number],
  monitor: string,
  value: unknown,
  file: FileSource,
  problem: Problem,
): Draft[] {
  const member: NestedMember = nested.member;
  const listPath = [collectionOf("monitor"), monitor, member];
  // The members an entry needs besides the pair its place in the file gives.
  const needs = (engineKind(nested.kind).definition.required ?? []).filter(
    (m) => m !== "monitorId" && m !== "contactId",
  );
  const form = `{ contact: <name>, ${needs.map((m) => `${m}: [...]`).join(", ")} }`;
  if (!Array.isArray(value)) {
    problem(file.positions.value(listPath), `expected a list of ${form}, got ${describeValue(value)}`, {
      address: `${collectionOf("monitor")}.${monitor}`,
      path: member,
    });
    return [];
  }
  const drafts: Draft[] = [];
  const seen = new Map<string, number>();
  const contacts = collectionOf("contact");
  value.forEach((entry, i) => {
    const base = [...listPath, i];
    const where = (path = "") => ({
      address: `${collectionOf("monitor")}.${monitor}`,
      path: `${member}[${i}]${path}`,
    });
    if (!isData(entry)) {
      problem(file.positions.value(base), `each entry of ${member} is ${form}`, where());
      return;
    }
    if (entry.contact === undefined) {
      const idForm = "contactId" in entry;
      problem(
        idForm ? file.positions.key([...base, "contactId"]) : file.positions.value(base),
        idForm
          ? "vigil files name the contact instead of giving its id: write contact: <name>"
          : `contact is required: each entry of ${member} is ${form}`,
        where(idForm ? ".contactId" : ""),
      );
      return;
    }
    if (typeof entry.contact !== "string") {
      problem(
        file.positions.value([...base, "contact"]),
        `expected the name of one of the ${contacts}, got ${describeValue(entry.contact)}`,
        where(".contact"),
      );
      return;
    }
    const first = seen.get(entry.contact);
    if (first !== undefined) {
      problem(
        file.positions.value([...base, "contact"]),
        `contact ${entry.contact} is listed twice in ${member} (first at ${member}[${first}]); each contact has one entry`,
        where(".contact"),
      );
      return;
    }
    seen.set(entry.contact, i);
    const address = subscriptionAddress(monitor, member, entry.contact);
    const members = dataOf(entry);
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
      refused: [],
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
