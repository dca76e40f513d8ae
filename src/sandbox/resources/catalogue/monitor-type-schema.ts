import { monitorSchema, monitorTypeAliases, monitorTypeNames, settingsByType } from "../../../kinds/index.ts";
import { jsonSchemaOf } from "../../../kinds/json-schema.ts";
import { defineOperations } from "../../core/operation.ts";
import { anonymous } from "./anonymous.ts";

/**
 * One JSON Schema for a monitor of any type: the monitor body, with
 * `settings` checked against the schema of the body's `type` (aliases
 * included) through `if`/`then` branches over `$defs`.
 */
export function combinedMonitorSchema(baseUrl: string): Record<string, unknown> {
  const $defs: Record<string, unknown> = {};
  const branches = monitorTypeNames.map((type) => {
    $defs[`${type}Settings`] = {
      title: `${type} settings`,
      ...jsonSchemaOf(settingsByType[type], { embedded: true }),
    };
    const names = [type, ...Object.keys(monitorTypeAliases).filter((a) => monitorTypeAliases[a] === type)];
    return {
      if: { properties: { type: { enum: names } }, required: ["type"] },
      // biome-ignore lint/suspicious/noThenProperty: `then` is JSON Schema's keyword, not a promise.
      then: { properties: { settings: { $ref: `#/$defs/${type}Settings` } } },
    };
  });
  return {
    ...jsonSchemaOf(monitorSchema),
    $id: `${baseUrl}/monitor/type/schema`,
    title: "Monitor",
    description: "A monitor of any type; settings follow the schema of its type.",
    allOf: branches,
    $defs,
  };
}

export const monitorTypeSchemaOperations = defineOperations({
  ...anonymous,
  id: "monitorType.schema",
  method: "GET",
  path: "/monitor/type/schema",
  summary: "JSON Schema of a monitor of any type, with per-type settings.",
  errors: ["unknown_parameter", "invalid_token", "rate_limited"],
  response: { status: 200, description: "A JSON Schema 2020-12 document." },
  handle: (ctx) => ({ status: 200, body: combinedMonitorSchema(ctx.baseUrl) }),
});
