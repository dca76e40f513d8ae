import { z } from "zod";
import { kinds, membersOf, settingsByType, unwrap } from "../kinds/index.ts";

export const redacted = "[redacted]";

/**
 * Names of every member the kinds declare `writeOnly` (monitor settings
 * credentials, webhook `secret`, ...), at any depth, plus `token`: the one
 * secret the API answers that no kind describes (minted tokens).
 */
function collectCredentialNames(): Set<string> {
  const names = new Set<string>(["token"]);
  const seen = new Set<z.ZodType>();
  const walk = (schema: z.ZodType): void => {
    const inner = unwrap(schema);
    if (seen.has(inner)) return;
    seen.add(inner);
    if (inner instanceof z.ZodObject) {
      for (const member of membersOf(inner)) {
        if (member.traits.writeOnly) names.add(member.name);
        walk(member.schema);
      }
    } else if (inner instanceof z.ZodArray) {
      walk(inner.element as z.ZodType);
    } else if (inner instanceof z.ZodUnion) {
      for (const option of inner.options) walk(option as z.ZodType);
    } else if (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable) {
      walk(inner.unwrap() as z.ZodType);
    }
  };
  for (const kind of kinds) walk(kind.schema);
  for (const settings of Object.values(settingsByType)) walk(settings);
  return names;
}

export const credentialNames: ReadonlySet<string> = collectCredentialNames();

/**
 * A copy of a JSON body safe to log: credential members are replaced, and so
 * is the value of every configured header (webhook `headers[].value`, monitor
 * request headers), which routinely carries an API key.
 */
export function redactBody(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactBody);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(value)) {
    if (credentialNames.has(name)) out[name] = isRotateOrSetMarker(member) ? member : redacted;
    else if (name === "headers" && Array.isArray(member)) out[name] = member.map(redactHeaderEntry);
    else out[name] = redactBody(member);
  }
  return out;
}

/** `{rotate: true}` and `{set: true}` say nothing secret; keeping them makes logs readable. */
function isRotateOrSetMarker(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const entries = Object.entries(value);
  return entries.length === 1 && typeof entries[0]![1] === "boolean";
}

function redactHeaderEntry(entry: unknown): unknown {
  if (typeof entry !== "object" || entry === null || Array.isArray(entry)) return redactBody(entry);
  const copy = redactBody(entry) as Record<string, unknown>;
  if ("value" in copy && typeof copy.value === "string") copy.value = redacted;
  return copy;
}
