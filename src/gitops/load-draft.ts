/** What the loader's parts share: a resource on its way from YAML to the engine, and how a place is named. */
import type { DesiredResource } from "../engine/model.ts";
import { type ParsedFile, type Position, quote, type YamlPath } from "./files.ts";
import { namePattern } from "./format.ts";
import { userMap } from "./source.ts";

export interface LoadDiagnostic {
  at?: Position;
  /** The resource's address, when the problem is in one. */
  address?: string;
  /** The member path in the config's names (`settings.timeout`, `members[0].contact`). */
  path?: string;
  message: string;
}

export type Data = Record<string, unknown>;

export const isData = (v: unknown): v is Data => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * A map of user keys: nothing inherited, so `__proto__`, `constructor` and the like
 * are own members like any other (the engine's validation then names them).
 */
export const dataOf = (from: Data = {}): Data => Object.assign(userMap(), from);

/** A name as written, for a message: as is when it is a valid name, else quoted and escaped. */
export const shownName = (name: string) => (namePattern.test(name) ? name : quote(name));

/** `settings.timeout`, `members[0].contact`. */
export function memberPath(path: YamlPath): string {
  return path
    .map((t, i) => (typeof t === "number" ? `[${t}]` : i === 0 ? shownKey(t) : `.${shownKey(t)}`))
    .join("");
}

/** A key in a member path or address: as written, or quoted and escaped when it holds anything unprintable. */
export const shownKey = (key: string) => (/^[^\p{C}\p{Z}"\\]{1,60}$/u.test(key) ? key : quote(key));

/**
 * A file as resources keep it: its name and where each node is, but not its data, which the resources'
 * members replace, so that each file's data is released once the file is read.
 */
export type FileSource = Omit<ParsedFile, "data">;

/** One resource on its way from YAML to the engine. */
export interface Draft {
  resource: DesiredResource;
  file: FileSource;
  /** Where its members start in the file (`["monitors", "web"]`, `["monitors", "web", "alerts", 0]`). */
  base: YamlPath;
  /** Engine JSON pointer → the config's member path under `base`. */
  paths: Map<string, YamlPath>;
  /** References to check once every file is read: where, which section, which name. */
  refs: { path: YamlPath; section: string; name: unknown }[];
  /** Member paths under `base` whose values the loader refused (and said why): the engine's word on them is not repeated. */
  refused: YamlPath[];
}

export type Problem = (at: Position | undefined, message: string, extra?: Partial<LoadDiagnostic>) => void;

/** A value's kind, for a message: `got a list`. */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return "nothing";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a map";
  return typeof value === "string" ? `string ${quote(value)}` : `${typeof value} ${String(value)}`;
}
