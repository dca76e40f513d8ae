/**
 * Terraform attribute names are the members' words in snake_case (`src/kinds/names.ts`); the schema
 * (provider.json) and the value conversion both map names through these, so a name maps the same way everywhere.
 */
export { camelCase, snakeCase } from "../kinds/names.ts";
