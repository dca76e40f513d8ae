/**
 * The field-level diff of one resource: desired members against the live
 * object, both normalised the way the service stores them, restricted to the
 * members vigil manages. Pulumi and Terraform call this directly.
 */
import fastJsonPatch from "fast-json-patch";
import type { z } from "zod";
import { isMaskedCredential } from "../kinds/index.ts";
import { canonicalize, sameValue, schemaAt, traitsAt } from "./canonical.ts";
import { equalsUnset } from "./config-members.ts";
import type { EngineKind, Members, Row } from "./kinds/index.ts";
import type { Change, Lifecycle, ResourceState } from "./model.ts";
import { getAt, isObject, isUnder, pointer, setAt, tokensOf, toPointer } from "./pointer.ts";
import { hasUnknown } from "./refs.ts";
import { hashSecret } from "./state/index.ts";

/** What a credential shows in plans and in the state. */
export const sensitive = "(sensitive)";
const sensitiveDiffers = "(sensitive, differs)";

export interface DiffInput {
  kind: EngineKind;
  /** Desired members with references resolved (or `{$unknown}` while their target is still to be created). */
  desired: Members;
  /** The live row, absent when the object does not exist. */
  live?: Row;
  /** What the state holds for the address: managed members and credential hashes. */
  prior?: Pick<ResourceState, "managed" | "secrets">;
  /** Salt of credential hashes: the state's lineage. */
  lineage: string;
  lifecycle?: Lifecycle;
  /** Members to treat as credentials besides the kind's own (`DesiredResource.sensitive`). */
  sensitive?: readonly string[];
}

export interface ResourceDiff {
  changes: Change[];
  /** Non-empty when the changes cannot be applied in place. */
  replaceReasons: string[];
  /** The desired members in canonical form, credentials masked: what the state records once applied. */
  managed: Members;
  /** Credential pointer → salted hash of the desired value. */
  secrets: Record<string, string>;
  /** Credentials read back masked with no recorded hash to compare (an import): taken as configured. */
  unverified: string[];
}

/** A credential read back masked (`{set: true, ...}`), or a live row rebuilt from the state. */
function isMasked(value: unknown): boolean {
  return isMaskedCredential(value) || value === sensitive;
}

/** Leaf paths of an object: arrays and scalars are leaves. */
function leafPaths(value: unknown, prefix = ""): string[] {
  if (!isObject(value)) return prefix === "" ? [] : [prefix];
  return Object.entries(value).flatMap(([k, v]) => leafPaths(v, `${prefix}${pointer([k])}`));
}

/** The live members at the paths the desired members name: what vigil manages, nothing else. */
function project(desired: unknown, live: unknown): unknown {
  if (!isObject(desired) || !isObject(live)) return live;
  const out: Members = {};
  for (const key of Object.keys(desired)) {
    if (live[key] !== undefined) out[key] = project(desired[key], live[key]);
  }
  return out;
}

/** Members the service accepts but never reads back (`onOverlimit`, `assertsSource`, inline create-only lists). */
function unreadPaths(schema: z.ZodType, desired: Members): string[] {
  const paths: string[] = [];
  for (const [key, value] of Object.entries(desired)) {
    const traits = traitsAt(schema, [key], desired);
    if (traits.inputOnly || traits.createOnly) paths.push(`/${key}`);
    else if (isObject(value)) {
      for (const sub of Object.keys(value)) {
        const t = traitsAt(schema, [key, sub], desired);
        if (t.inputOnly || t.createOnly) paths.push(`/${key}/${sub}`);
      }
    }
  }
  return paths;
}

/** The path of the outermost array on the way to `path`, or `path` itself: arrays change whole. */
function wholeArrayPath(root: unknown, path: string): string {
  const tokens = tokensOf(path);
  let current = root;
  for (let i = 0; i < tokens.length; i++) {
    if (Array.isArray(current)) return pointer(tokens.slice(0, i));
    current = isObject(current) ? current[tokens[i]!] : undefined;
  }
  return path;
}

/**
 * Where the values marked sensitive sit once normalised. Found by value, not by pointer: normalising may
 * drop or reorder array items (a dropped header), and a pointer that slid would mask the wrong value. A
 * value in a set masks its set, wherever the item went. A value normalising changed (a pool in lower case)
 * masks the member at its pointer, or the nearest one above it that is still there: never nothing.
 */
function sensitiveIn(
  schema: z.ZodType,
  desired: Members,
  normalized: Members,
  pointers: readonly string[],
): string[] {
  const out: string[] = [];
  const byValue = new Map<unknown, string>();
  for (const p of pointers) {
    const set = maskedMember(schema, p, desired);
    if (set !== p && getAt(normalized, set) !== undefined) out.push(set);
    else if (getAt(desired, p) !== undefined) byValue.set(getAt(desired, p), p);
  }
  if (byValue.size === 0) return out;
  const found = new Set<unknown>();
  const walk = (value: unknown, at: string[]) => {
    if (byValue.has(value)) {
      out.push(pointer(at));
      found.add(value);
    } else if (Array.isArray(value)) for (const [i, v] of value.entries()) walk(v, [...at, String(i)]);
    else if (isObject(value)) for (const [k, v] of Object.entries(value)) walk(v, [...at, k]);
  };
  walk(normalized, []);
  for (const [value, p] of byValue) {
    if (found.has(value)) continue;
    const tokens = tokensOf(p);
    while (tokens.length > 1 && getAt(normalized, pointer(tokens)) === undefined) tokens.pop();
    out.push(pointer(tokens));
  }
  return out;
}

/**
 * The member a mask at `path` covers: the outermost set on the way to it, or `path` itself. A set is
 * sorted by its items' values, so a mask on one item would land on whichever value sorts there (and a
 * changed secret would move the others); as Terraform does with a sensitive value in a set, the whole set
 * is sensitive then. Lists and objects keep their positions, so a mask in them stays on its value.
 */
export function maskedMember(schema: z.ZodType, path: string, value: Members): string {
  const tokens = tokensOf(path);
  for (let i = 1; i < tokens.length; i++)
    if (traitsAt(schema, tokens.slice(0, i), value).collection === "set") return pointer(tokens.slice(0, i));
  return path;
}

/** Paths without those lying under another one of them: a mask on a member covers what it holds. */
function outermost(paths: Iterable<string>): string[] {
  const all = [...new Set(paths)];
  return all.filter((p) => !all.some((q) => q !== p && isUnder(p, q)));
}

export function diffResource(input: DiffInput): ResourceDiff {
  const sides = desiredSide(input);
  const { desired, secrets } = sides;
  const { live, unverified } = input.live ? liveSide(input, input.live, sides) : { live: {}, unverified: [] };
  const ignored = (input.lifecycle?.ignoreChanges ?? []).map(toPointer);
  for (const p of ignored) {
    setAt(desired, p, undefined);
    setAt(live, p, undefined);
  }
  const changes = changesOf(input, sides, live);
  const replaceReasons = input.live ? replaceReasonsOf(input, sides, changes) : [];
  return { changes, replaceReasons: [...new Set(replaceReasons)], managed: desired, secrets, unverified };
}

/** The desired side of a diff, and what both sides share. */
interface DesiredSide {
  schema: z.ZodObject;
  /** The desired members in canonical form, credentials masked. */
  desired: Members;
  /** Where the credentials sit in `desired` (masks cover a set whole). */
  credentialPaths: string[];
  /** Credential pointer → salted hash of the desired value. */
  secrets: Record<string, string>;
  /** What vigil last applied, in canonical form. */
  prior: Members | undefined;
  /** Every path whose value is masked on either side; the live side adds its own credentials. */
  sensitivePaths: Set<string>;
}

/** The desired members canonical, their credentials hashed and masked. */
function desiredSide(input: DiffInput): DesiredSide {
  const { kind, lineage } = input;
  const schema = kind.schemaFor(input.desired);
  const desiredN = kind.normalizeDesired(input.desired);
  const desired = canonicalize(desiredN, schema) as Members;
  // Masks are placed on the canonical form (sets sorted): a credential where its value sits there, one in
  // a set on the whole set (the path up to a set is the same in every form).
  const credentialPaths = outermost(
    [
      ...kind.credentials(desired),
      ...sensitiveIn(schema, input.desired, desiredN, input.sensitive ?? []),
    ].map((p) => maskedMember(schema, p, desired)),
  );
  const secrets: Record<string, string> = {};
  for (const p of credentialPaths) secrets[p] = hashSecret(lineage, getAt(desired, p));
  for (const p of credentialPaths) setAt(desired, p, sensitive);
  const prior = input.prior ? (canonicalize(input.prior.managed, schema) as Members) : undefined;
  const sensitivePaths = new Set([
    ...credentialPaths,
    // A state written before masks covered whole sets may hold one on an item: it covers its set now.
    ...Object.keys(input.prior?.secrets ?? {}).map((p) => maskedMember(schema, p, desired)),
  ]);
  return { schema, desired, credentialPaths, secrets, prior, sensitivePaths };
}

/**
 * The live members vigil manages, canonical, credentials masked (`(sensitive, differs)` where the hash
 * tells a change), and the credentials nothing can verify.
 */
function liveSide(input: DiffInput, row: Row, sides: DesiredSide): { live: Members; unverified: string[] } {
  const { kind } = input;
  const { schema, desired, prior } = sides;
  const liveAll = canonicalize(kind.normalizeLive(row), schema) as Members;
  const unverified = maskLiveCredentials(input, liveAll, sides);
  const live = (project(desired, liveAll) as Members) ?? {};
  // Members never read back are compared with what vigil last applied; an adopted object has no record,
  // and the config it was found by is taken as what made it (nothing to verify, nothing to send).
  for (const p of unreadPaths(schema, desired)) setAt(live, p, prior ? getAt(prior, p) : getAt(desired, p));
  addDroppedMembers(input, row, liveAll, live, sides);
  return { live, unverified };
}

/** Masks the live credentials in place; answers those read back masked with no hash to compare. */
function maskLiveCredentials(input: DiffInput, liveAll: Members, sides: DesiredSide): string[] {
  const { kind, lineage } = input;
  const { schema, credentialPaths, secrets, sensitivePaths } = sides;
  const unverified: string[] = [];
  for (const p of credentialPaths) {
    const value = getAt(liveAll, p);
    if (value === undefined) continue;
    // A masked credential is compared by the hash vigil recorded; one read in full, by its own hash.
    // With no record (an import, lost state) nothing can tell: the configured value is taken as the
    // live one, as for members never read back, and the plan says so instead of rewriting it blindly.
    const unrecorded = input.prior === undefined;
    if (isMasked(value) && unrecorded) unverified.push(p);
    const same = isMasked(value)
      ? unrecorded || input.prior?.secrets?.[p] === secrets[p]
      : hashSecret(lineage, value) === secrets[p];
    setAt(liveAll, p, same ? sensitive : sensitiveDiffers);
  }
  // Credentials the config no longer names (or never named) may read back in full: never let them reach a change.
  for (const p of kind.credentials(liveAll)) sensitivePaths.add(maskedMember(schema, p, liveAll));
  for (const p of outermost(sensitivePaths)) {
    if (!credentialPaths.includes(p) && getAt(liveAll, p) !== undefined) setAt(liveAll, p, sensitive);
  }
  return unverified;
}

/** A member vigil managed and the config no longer names goes back to the service's default: `live` shows it. */
function addDroppedMembers(
  input: DiffInput,
  row: Row,
  liveAll: Members,
  live: Members,
  sides: DesiredSide,
): void {
  const { kind } = input;
  const { schema, desired, prior } = sides;
  for (const p of leafPaths(prior ?? {})) {
    if (getAt(desired, p) !== undefined || isUnder(p, "/id")) continue;
    const now = getAt(liveAll, p);
    const traits = traitsAt(schema, tokensOf(p), desired);
    // Already what the member is when unset: its default (a contact's name its address, as sent), or none.
    if (now === undefined || equalsUnset(now, traits, schemaAt(schema, tokensOf(p), desired), row)) continue;
    // Without a default and without null, nothing can reset it (a webhook always has a secret): left as it is.
    // Inside a merging member (settings), null removes a member, credentials included.
    const accepts = schemaAt(schema, tokensOf(p), desired);
    const merged = kind.merging.includes(tokensOf(p)[0] ?? "");
    if (
      !merged &&
      traits.default === undefined &&
      !traits.defaultFrom &&
      accepts &&
      !accepts.safeParse(null).success
    )
      continue;
    setAt(live, p, now);
  }
}

/** The changes from `live` to the desired members, arrays whole, each said sensitive, unknown or drift. */
function changesOf(input: DiffInput, sides: DesiredSide, live: Members): Change[] {
  const { kind } = input;
  const { desired, credentialPaths, secrets, prior, sensitivePaths } = sides;
  const seen = new Set<string>();
  const changes: Change[] = [];
  // A merging member the config dropped entirely still changes member by member (PATCH merges it).
  const target: Members = { ...desired };
  for (const name of kind.merging) if (isObject(live[name]) && target[name] === undefined) target[name] = {};
  for (const op of fastJsonPatch.compare(live, target)) {
    if (op.op !== "add" && op.op !== "remove" && op.op !== "replace") continue;
    const path = wholeArrayPath(op.op === "remove" ? live : target, op.path);
    if (seen.has(path)) continue;
    seen.add(path);
    const value = getAt(desired, path);
    const before = getAt(live, path);
    const change: Change = {
      op: value === undefined ? "remove" : before === undefined ? "add" : "replace",
      path,
      ...(value !== undefined && { value }),
      ...(before !== undefined && { before }),
    };
    // A change of a credential is sensitive; a change of an object holding one (a created monitor's
    // settings) is not: its credentials are already masked inside it, and the rest stays readable.
    if ([...sensitivePaths].some((c) => isUnder(path, c))) change.sensitive = true;
    if (hasUnknown(value)) change.unknown = true;
    // The config did not move, yet the live value did: someone changed it outside vigil.
    // Masked credentials look alike in `managed`: their hashes tell whether the config moved.
    // A member the config removed (value undefined) is the user's change, never drift.
    const secretMoved = credentialPaths.some(
      (c) => isUnder(c, path) && input.prior?.secrets?.[c] !== secrets[c],
    );
    if (input.live && prior && value !== undefined && !secretMoved && sameValue(getAt(prior, path), value))
      change.drift = true;
    changes.push(change);
  }
  return changes;
}

/** Why the changes of a live object cannot be made in place: immutable, create-only or replaceOnChanges. */
function replaceReasonsOf(input: DiffInput, sides: DesiredSide, changes: readonly Change[]): string[] {
  const replaceReasons: string[] = [];
  const replaceOn = (input.lifecycle?.replaceOnChanges ?? []).map(toPointer);
  for (const change of changes) {
    const top = tokensOf(change.path)[0]!;
    const traits = traitsAt(sides.schema, [top], sides.desired);
    if (traits.immutable) replaceReasons.push(`${top} cannot change in place`);
    else if (traits.createOnly) replaceReasons.push(`${top} is accepted on create only`);
    else if (replaceOn.some((p) => isUnder(change.path, p) || isUnder(p, change.path)))
      replaceReasons.push(`${change.path} is in replaceOnChanges`);
  }
  return replaceReasons;
}
