import type { z } from "zod";
import { isMaskedCredential } from "./common.ts";
import { toPointer } from "./diagnostics.ts";
import { membersOf, traitsOf } from "./field.ts";
import { shapeOf } from "./walk.ts";

/**
 * Where credentials sit: every member whose trait is `writeOnly`, at any depth
 * (`secret`, `settings/password`, `headers/*\/value`). This is the one way
 * vigil finds a credential: the engine (hashed in the state, masked in plans),
 * export (placeholders), the Terraform schema (sensitive), Pulumi (secrets)
 * and the client's debug log all ask here, so a new credential is covered by
 * declaring its trait.
 */

/** A member path; `*` stands for every item of an array and every value of a record. */
export type CredentialPattern = readonly string[];

const patternCache = new WeakMap<z.ZodType, readonly CredentialPattern[]>();

/** The paths of every credential a schema can hold. */
export function credentialPatterns(schema: z.ZodType): readonly CredentialPattern[] {
  let patterns = patternCache.get(schema);
  if (!patterns) {
    patterns = walk(schema);
    patternCache.set(schema, patterns);
  }
  return patterns;
}

function walk(schema: z.ZodType): CredentialPattern[] {
  if (traitsOf(schema).writeOnly) return [[]];
  const shape = shapeOf(schema);
  const under = (step: string, child: z.ZodType) => credentialPatterns(child).map((p) => [step, ...p]);
  if (shape.type === "object") return Object.entries(shape.members).flatMap(([name, m]) => under(name, m));
  if (shape.type === "array") return under("*", shape.element);
  if (shape.type === "record") return under("*", shape.value);
  if (shape.type !== "union") return [];
  const seen = new Set<string>();
  return shape.options
    .flatMap((o) => credentialPatterns(o))
    .filter((p) => {
      const key = p.join("/");
      return !seen.has(key) && Boolean(seen.add(key));
    });
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * JSON pointers of the credentials a value holds: the credential members set
 * to a string (as sent, or read back in full) or read back masked. An action
 * such as `{rotate: true}` and a null (clearing it) hold no credential.
 */
export function credentialPointers(schema: z.ZodType, value: unknown): string[] {
  const out: string[] = [];
  for (const pattern of credentialPatterns(schema)) expand(value, pattern, [], out);
  return out;
}

function expand(value: unknown, pattern: CredentialPattern, at: (string | number)[], out: string[]): void {
  if (pattern.length === 0) {
    if (typeof value === "string" || isMaskedCredential(value)) out.push(toPointer(at));
    return;
  }
  const [step, ...rest] = pattern as [string, ...string[]];
  if (step === "*") {
    if (Array.isArray(value)) for (const [i, item] of value.entries()) expand(item, rest, [...at, i], out);
    else if (isRecord(value))
      for (const key of Object.keys(value)) expand(value[key], rest, [...at, key], out);
  } else if (isRecord(value) && Object.hasOwn(value, step)) expand(value[step], rest, [...at, step], out);
}

/** The members the service generates when a create leaves them out (trait `generated`). */
export function generatedMembers(schema: z.ZodObject): string[] {
  return membersOf(schema)
    .filter((m) => m.traits.generated)
    .map((m) => m.name);
}

/**
 * What a create's answer revealed: each generated member the body left out, as the answer shows it in
 * full. Later reads show it masked, so this is the only time anyone can learn it.
 */
export function generatedValues(
  schema: z.ZodObject,
  sent: Record<string, unknown>,
  answer: Record<string, unknown>,
): Map<string, string> {
  const out = new Map<string, string>();
  for (const name of generatedMembers(schema)) {
    const value = Object.hasOwn(answer, name) ? answer[name] : undefined;
    if (sent[name] === undefined && typeof value === "string") out.set(name, value);
  }
  return out;
}

/** The output a frontend hands a generated member out as: `secret` → `generatedSecret`. */
export const generatedOutputName = (member: string): string =>
  `generated${member.charAt(0).toUpperCase()}${member.slice(1)}`;
