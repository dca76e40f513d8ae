import { credentialPatterns, isMaskedCredential, kinds } from "../kinds/index.ts";

export const redacted = "[redacted]";

/**
 * The credentials a body may carry, from the kinds' `writeOnly` traits
 * (`credentialPatterns`): a member by its name (`password`, `secret`,
 * `connectionString`...), or, for a credential inside the items of a list, as
 * `list[].member` (`headers[].value`, `httpHeaders[].value`). Plus `token`: the
 * one secret the API answers that no kind describes (minted tokens). A body is
 * logged without knowing its kind (bulk bodies wrap many), so names are what
 * can be matched. Found on first use: walking every kind's schemas is a cost of every start otherwise,
 * and most runs (`vigil validate`) never redact a body.
 */
function collectCredentialNames(): Set<string> {
  const names = new Set<string>(["token"]);
  const variantSchemas = kinds.flatMap((k) => Object.values(k.variants?.schemas ?? {}));
  for (const schema of [...kinds.map((k) => k.schema), ...variantSchemas]) {
    for (const pattern of credentialPatterns(schema)) {
      const [list, star, member] = pattern.slice(-3);
      names.add(pattern.length >= 3 && star === "*" ? `${list}[].${member}` : pattern.at(-1)!);
    }
  }
  return names;
}

let names: ReadonlySet<string> | undefined;

export function credentialNames(): ReadonlySet<string> {
  names ??= collectCredentialNames();
  return names;
}

/** A copy of a JSON body safe to log: every credential member is replaced. */
export function redactBody(value: unknown): unknown {
  return redact(value, undefined);
}

/** `itemOf`: the name of the list whose item `value` is. */
function redact(value: unknown, itemOf: string | undefined): unknown {
  if (Array.isArray(value)) return value.map((item) => redact(item, itemOf));
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(value)) {
    const credential =
      credentialNames().has(name) || (itemOf !== undefined && credentialNames().has(`${itemOf}[].${name}`));
    if (credential) out[name] = saysNothingSecret(member) ? member : redacted;
    else out[name] = redact(member, Array.isArray(member) ? name : undefined);
  }
  return out;
}

/**
 * A credential read back masked (`{set: true, updatedAt}`) and an action on one (`{rotate: true}`, made only
 * of `true` flags) say nothing secret; keeping them makes logs readable.
 */
function saysNothingSecret(value: unknown): boolean {
  if (isMaskedCredential(value)) return true;
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const flags = Object.values(value);
  return flags.length > 0 && flags.every((flag) => flag === true);
}
