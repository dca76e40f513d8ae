/**
 * `${env:NAME}` in any string of a config: how secrets (and anything else
 * that differs per environment) come in without being written in the repo.
 * `${env:NAME:-fallback}` gives a value for when NAME is unset or empty;
 * `$${` writes a literal `${`. Whatever the environment fills in is reported,
 * so it is kept secret like a credential (masked in plans, hashed in the state).
 */
import type { YamlPath } from "./files.ts";
import { userMap } from "./source.ts";

export interface EnvProblem {
  path: YamlPath;
  message: string;
}

const placeholder = /\$\$\{|\$\{([^}]*)\}/g;
const reference = /^env:([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/s;

/** Substitutes every placeholder; unset variables and malformed placeholders are problems at their path. */
export function expandEnv(
  data: unknown,
  env: Record<string, string | undefined>,
): { value: unknown; problems: EnvProblem[]; secrets: YamlPath[]; values: string[] } {
  const problems: EnvProblem[] = [];
  const secrets: YamlPath[] = [];
  /** What the environment filled in, alone and as part of its string: no message may show either. */
  const values: string[] = [];
  const expandString = (text: string, path: YamlPath): string => {
    const expanded = text.replace(placeholder, (whole, inner: string | undefined) => {
      if (whole === "$${") return "${";
      const match = reference.exec(inner ?? "");
      if (!match) {
        problems.push({
          path,
          message: `"${whole}" is not a placeholder vigil knows; write \${env:NAME} or \${env:NAME:-default} (or $\${ for a literal \${)`,
        });
        return whole;
      }
      const [, name, fallback] = match;
      // Whatever the environment fills in is kept secret: masked in plans, hashed in the state.
      if (secrets.at(-1) !== path) secrets.push(path);
      // Only the environment's own variables: `constructor` or `__proto__` are names like any other.
      const value = Object.hasOwn(env, name!) ? env[name!] : undefined;
      if (value !== undefined && value !== "") {
        values.push(value);
        return value;
      }
      if (fallback !== undefined) return fallback;
      problems.push({ path, message: `the environment variable ${name} is not set (\${env:${name}})` });
      return "";
    });
    if (secrets.at(-1) === path) values.push(expanded);
    return expanded;
  };
  // A value without placeholders is returned as is, not copied; a map with one is copied into a
  // map without Object.prototype, like the loader's own (userMap), so a member named `__proto__` stays a member.
  // The path is one array, copied only for a string with a placeholder: not one array per value.
  const trail: (string | number)[] = [];
  const walk = (value: unknown): unknown => {
    if (typeof value === "string") return value.includes("${") ? expandString(value, [...trail]) : value;
    if (Array.isArray(value)) {
      let items: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        trail.push(i);
        const item = walk(value[i]);
        trail.pop();
        if (items) items.push(item);
        else if (item !== value[i]) items = [...value.slice(0, i), item];
      }
      return items ?? value;
    }
    if (typeof value === "object" && value !== null) {
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record);
      let out: Record<string, unknown> | undefined;
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i]!;
        trail.push(k);
        const v = walk(record[k]);
        trail.pop();
        if (out) out[k] = v;
        else if (v !== record[k]) {
          out = userMap();
          for (let j = 0; j < i; j++) out[keys[j]!] = record[keys[j]!];
          out[k] = v;
        }
      }
      return out ?? value;
    }
    return value;
  };
  return { value: walk(data), problems, secrets, values };
}
