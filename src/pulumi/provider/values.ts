/**
 * Pulumi's property values as the engine's members. Pulumi sends and keeps resource properties as
 * protobuf Structs, with two special values inside: the unknown sentinel (a value decided only once
 * something else exists, during preview) and secrets (objects tagged by a signature key). Structs know no
 * `undefined`, so nothing leaves here with one.
 */
import type { Members } from "../../engine/index.ts";
import { getAt, isObject, pointer, setAt, tokensOf } from "../../engine/pointer.ts";

/*
 * The constants of @pulumi/pulumi/runtime/rpc.js (`unknownValue`, `specialSigKey`, `specialSecretSig`).
 * Defined here rather than imported: that module loads the whole Pulumi runtime, which start-up can do
 * without.
 */
export const unknownValue = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
export const specialSigKey = "4dabf18193072939515e22adb298388d";
export const specialSecretSig = "1b47061264138c4ac30d75fd1eb44270";

export type Props = Record<string, unknown>;

export const isSecret = (value: unknown): value is { value: unknown } =>
  isObject(value) && value[specialSigKey] === specialSecretSig;

export const secret = (value: unknown): Props => ({ [specialSigKey]: specialSecretSig, value });

export interface Unwrapped {
  /** The values with secrets unwrapped; unknowns are still the sentinel string. */
  members: Members;
  /** Pointers of the values that came in as secrets. */
  secrets: string[];
  /** Pointers of the unknown values. */
  unknowns: string[];
}

export function unwrapSecrets(props: Props | undefined): Unwrapped {
  const secrets: string[] = [];
  const unknowns: string[] = [];
  const walk = (value: unknown, at: string[]): unknown => {
    if (isSecret(value)) {
      secrets.push(pointer(at));
      return walk(value.value, at);
    }
    if (value === unknownValue) unknowns.push(pointer(at));
    if (Array.isArray(value)) return value.map((v, i) => walk(v, [...at, String(i)]));
    if (isObject(value))
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, [...at, k])]));
    return value;
  };
  const members = (walk(props ?? {}, []) as Members) ?? {};
  return { members, secrets, unknowns };
}

/** Members with each unknown as the engine's `{$unknown}` marker, named by its property path. */
export function withUnknownMarkers(members: Members, unknowns: readonly string[]): Members {
  const out = structuredClone(members);
  for (const p of unknowns) setAt(out, p, { $unknown: propertyPath(p, members) });
  return out;
}

/**
 * Members without their unknowns, for validation, and where the unknowns were: an unknown inside a list
 * takes the whole list with it (an item removed would shift the others).
 */
export function knownMembers(
  members: Members,
  unknowns: readonly string[],
): { known: Members; open: string[] } {
  const known = structuredClone(members);
  const open: string[] = [];
  for (const p of unknowns) {
    const tokens = tokensOf(p);
    let cut = tokens.length;
    for (let i = 0; i < tokens.length; i++)
      if (Array.isArray(getAt(members, pointer(tokens.slice(0, i))))) {
        cut = i;
        break;
      }
    const at = pointer(tokens.slice(0, cut));
    if (at === "") return { known: {}, open: [""] };
    setAt(known, at, undefined);
    open.push(at);
  }
  return { known: withoutUndefined(known) as Members, open };
}

/**
 * A member pointer as a Pulumi property path (`settings.password`, `locations.pools[0]`,
 * `headers[0].value`, `templates["x-y"]`); `root` tells list indexes from map keys that look like numbers.
 */
export function propertyPath(at: string, root?: unknown): string {
  let out = "";
  let current = root;
  for (const token of tokensOf(at)) {
    if (Array.isArray(current) || (current === undefined && /^\d+$/.test(token))) out += `[${token}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(token)) out += out === "" ? token : `.${token}`;
    else out += `[${JSON.stringify(token)}]`;
    current = isObject(current) || Array.isArray(current) ? (current as Props)[token] : undefined;
  }
  return out;
}

/** The value with secrets wrapped at the given pointers (the outermost one wins); undefined dropped. */
export function wrapSecrets(members: Members, secrets: readonly string[]): Props {
  const out = withoutUndefined(members) as Props;
  const sorted = [...new Set(secrets)].sort((a, b) => a.length - b.length);
  const wrapped: string[] = [];
  for (const p of sorted) {
    if (p === "" || wrapped.some((w) => p === w || p.startsWith(`${w}/`))) continue;
    const value = getAt(out, p);
    if (value === undefined) continue;
    setAt(out, p, secret(value));
    wrapped.push(p);
  }
  return out;
}

/** A copy without `undefined`: dropped from objects, null in lists (a Struct holds neither). */
export function withoutUndefined(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : withoutUndefined(v)));
  if (isObject(value))
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, withoutUndefined(v)]),
    );
  return value;
}

/** Pointers matching an attribute path (`*`: every item of a list, every key of a map) in a value. */
export function expandPath(value: unknown, path: readonly string[], at: string[] = []): string[] {
  const [step, ...rest] = path;
  if (step === undefined) return value === undefined ? [] : [pointer(at)];
  if (step === "*") {
    const keys = Array.isArray(value)
      ? [...value.keys()].map(String)
      : isObject(value)
        ? Object.keys(value)
        : [];
    return keys.flatMap((k) => expandPath((value as Props)[k], rest, [...at, k]));
  }
  return isObject(value) ? expandPath(value[step], rest, [...at, step]) : [];
}
