/**
 * `${env:NAME}` in any string of a config: how secrets (and anything else
 * that differs per environment) come in without being written in the repo.
 * `${env:NAME:-fallback}` gives a value for when NAME is unset or empty;
 * `$${` writes a literal `${`. Whatever the environment fills in is reported,
 * so it is kept secret like a credential (masked in plans, hashed in the state).
 */
import type { YamlPath } from "./files.ts";

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
): { value: unknown; problems: EnvProblem[]; secrets: YamlPath[] } {
  const problems: EnvProblem[] = [];
  const secrets: YamlPath[] = [];
  const expandString = (text: string, path: YamlPath): string =>
    text.replace(placeholder, (whole, inner: string | undefined) => {
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
      const value = env[name!];
      if (value !== undefined && value !== "") return value;
      if (fallback !== undefined) return fallback;
      problems.push({ path, message: `the environment variable ${name} is not set (\${env:${name}})` });
      return "";
    });
  const walk = (value: unknown, path: (string | number)[]): unknown => {
    if (typeof value === "string") return value.includes("${") ? expandString(value, path) : value;
    if (Array.isArray(value)) return value.map((item, i) => walk(item, [...path, i]));
    if (typeof value === "object" && value !== null)
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, [...path, k])]));
    return value;
  };
  return { value: walk(data, []), problems, secrets };
}
