/** JSON Pointers (RFC 6901) over plain JSON values: the paths of changes, lifecycle options and credentials. */
import { toPointer as toPointerFromTokens } from "../kinds/index.ts";

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const unescapeToken = (token: string) => token.replace(/~1/g, "/").replace(/~0/g, "~");

/** `["settings", "a/b"]` → `/settings/a~1b`: the kinds' pointer builder, the one that API error entries use. */
export const pointer: (tokens: readonly (string | number)[]) => string = toPointerFromTokens;

export function tokensOf(path: string): string[] {
  if (path === "") return [];
  if (!path.startsWith("/")) throw new Error(`not a JSON pointer: ${path}`);
  return path.slice(1).split("/").map(unescapeToken);
}

/** `settings.timeout` or `/settings/timeout` → `/settings/timeout`: users write either form. */
export function toPointer(memberPath: string): string {
  if (memberPath === "" || memberPath.startsWith("/")) return memberPath;
  return pointer(memberPath.split("."));
}

/** Whether `path` is `prefix` or lies under it. */
export function isUnder(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`);
}

export function getAt(value: unknown, path: string): unknown {
  let current = value;
  for (const token of tokensOf(path)) {
    if (Array.isArray(current)) current = current[Number(token)];
    else if (isObject(current)) current = current[token];
    else return undefined;
  }
  return current;
}

/** Sets a member, creating parent objects on the way (arrays are walked, not created); `undefined` removes it. */
export function setAt(target: Record<string, unknown>, path: string, value: unknown): void {
  const tokens = tokensOf(path);
  let current: Record<string, unknown> | unknown[] = target;
  for (const token of tokens.slice(0, -1)) {
    const next: unknown = (current as Record<string, unknown>)[token];
    if (Array.isArray(next) || isObject(next)) current = next;
    else if (Array.isArray(current)) return;
    else current = (current as Record<string, unknown>)[token] = {};
  }
  const last = tokens.at(-1);
  if (last === undefined) return;
  if (Array.isArray(current)) {
    if (value !== undefined) current[Number(last)] = value;
    return;
  }
  if (value === undefined) delete current[last];
  else current[last] = value;
}

/** Pointers of the leaves of members: objects are walked; lists and scalars are leaves (what a config set). */
export function leafPointers(value: unknown, at = ""): string[] {
  if (!isObject(value)) return at === "" ? [] : [at];
  return Object.entries(value).flatMap(([k, v]) => leafPointers(v, `${at}${pointer([k])}`));
}

/**
 * Whether a change at `path` touches a member that `pattern` names (member names, `*` for any item): one lies
 * under the other. List indexes in `path` match any item, as the item a change names may be new.
 */
export function touchesPattern(path: string, pattern: readonly string[]): boolean {
  const names = tokensOf(path).map((t) => (/^\d+$/.test(t) ? "*" : t));
  const n = Math.min(pattern.length, names.length);
  return pattern.slice(0, n).every((p, i) => p === "*" || names[i] === "*" || p === names[i]);
}
