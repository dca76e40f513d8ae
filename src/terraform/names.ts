/**
 * Terraform attribute names are snake_case; API members are camelCase. Both the schema (provider.json) and the
 * value conversion use these two functions, so a name maps the same way everywhere.
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
