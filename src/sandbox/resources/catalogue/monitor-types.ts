import {
  closest,
  discontinuedMonitorTypes,
  isDiscontinuedMonitorType,
  type MonitorType,
  monitorTypeAliases,
  monitorTypeNames,
  settingsByType,
} from "../../../kinds/index.ts";
import { jsonSchemaOf } from "../../../kinds/json-schema.ts";
import { defineOperations } from "../../core/operation.ts";
import { own } from "../../core/own.ts";
import { ApiProblem } from "../../core/problem.ts";
import { anonymous, callerAccount } from "./anonymous.ts";
import { allTypeRows, discontinuedRow, typeRow } from "./monitor-type-rows.ts";

function unknownType(name: string): ApiProblem {
  const allowed = [...monitorTypeNames, ...Object.keys(monitorTypeAliases), ...discontinuedMonitorTypes];
  const entry: Record<string, unknown> = { pointer: "/type", parameter: "type", value: name, allowed };
  const hint = closest(name, allowed);
  if (hint) entry.didYouMean = hint;
  return new ApiProblem("not_found", `No monitor type "${name}".`, { errors: [entry] });
}

export const monitorTypeOperations = defineOperations(
  {
    ...anonymous,
    id: "monitorType.list",
    method: "GET",
    path: "/monitor/type",
    summary: "The monitor type catalogue; a token adds accountLimits per row.",
    errors: ["unknown_parameter", "invalid_token", "rate_limited"],
    response: { status: 200, description: "{data: [type rows]}, discontinued types last." },
    handle: (ctx) => ({ status: 200, body: { data: allTypeRows(callerAccount(ctx)) } }),
  },
  {
    ...anonymous,
    id: "monitorType.get",
    method: "GET",
    path: "/monitor/type/{type}",
    summary: "One monitor type with the JSON Schema of its settings. An alias answers its canonical type.",
    errors: ["not_found", "unknown_parameter", "invalid_token", "rate_limited"],
    response: { status: 200, description: "The type row plus settingsSchema (JSON Schema 2020-12)." },
    handle: (ctx, req) => {
      const name = req.params.type!;
      if (isDiscontinuedMonitorType(name)) return { status: 200, body: discontinuedRow(name) };
      const type = (own(monitorTypeAliases, name) ?? name) as MonitorType;
      if (!(monitorTypeNames as readonly string[]).includes(type)) throw unknownType(name);
      return {
        status: 200,
        body: {
          ...typeRow(type, callerAccount(ctx)),
          settingsSchema: jsonSchemaOf(settingsByType[type], { embedded: true }),
        },
      };
    },
  },
);
