/**
 * A member's words in the two spellings frontends use: the API's camelCase and snake_case (Terraform's
 * attribute names, and the order every generated schema lists members in). One mapping, so a name maps
 * the same way in the schemas and in the value conversions.
 */

/** `cronSchedule` → `cron_schedule`; a run of capitals is one word (`httpURL` → `http_url`); digits stay put. */
export function snakeCase(name: string): string {
  return name
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase();
}

/** `cron_schedule` → `cronSchedule`: the inverse of `snakeCase` for member names without capital runs. */
export function camelCase(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}
