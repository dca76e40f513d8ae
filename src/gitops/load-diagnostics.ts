/** The engine's diagnostics of a draft, in the config's places and words. */
import type { DesiredResource } from "../engine/model.ts";
import { pointer, tokensOf } from "../engine/pointer.ts";
import { closest, type ProblemDetailEntry } from "../kinds/index.ts";
import { allowedValues, explainUnion, typesWithSetting } from "./explain.ts";
import { type Position, quote } from "./files.ts";
import { configNameOf, excludedMembers, nestedSubscriptions } from "./format.ts";
import { type Draft, describeValue } from "./load-draft.ts";

/** Where an engine pointer into a resource is written: its config path, and the position to report. */
export function placeOf(
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

/**
 * A value that matches no form of a union comes back from zod as one
 * "Invalid input": replace it with the problems of the form it means, or say
 * which forms there are.
 */
export function narrowed(
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
export function describeEntry(draft: Draft, entry: ProblemDetailEntry, path: (string | number)[]): string {
  const kind = draft.resource.kind;
  const parent = tokensOf(entry.pointer ?? "")
    .slice(0, -1)
    .map((t) => (/^\d+$/.test(t) ? Number(t) : t));
  const rename = (member: unknown) => configNameOf(kind, parent, String(member));
  let message = typeof entry.message === "string" ? entry.message : (entry.reason ?? "invalid");
  if (entry.reason === "unknown_member") {
    const name = String(path[path.length - 1]);
    const excluded = parent.length === 0 ? [...(excludedMembers[kind] ?? []), ...impliedMembers(kind)] : [];
    const own = parent.length === 0 ? ownMembers(kind) : [];
    const allowed = [...(entry.allowed ?? []).map(rename).filter((m) => !excluded.includes(m)), ...own];
    const hint = closest(name, allowed);
    message = `unknown member ${quote(name)}; allowed members: ${allowed.join(", ")}`;
    // A setting of another monitor type is a common slip: say where it belongs.
    const types = kind === "monitor" && parent.join(".") === "settings" ? typesWithSetting(name) : [];
    if (types.length > 0) message += `; ${name} is a setting of ${types.join(", ")} monitors`;
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
  return nestedSubscriptions.some((n) => n.kind === kind) ? [configNameOf(kind, [], "monitorId")] : [];
}

/** Members the format adds to a kind's own. */
function ownMembers(kind: DesiredResource["kind"]): string[] {
  return kind === "monitor" ? [...nestedSubscriptions.map((n) => n.member), "lifecycle"] : ["lifecycle"];
}
