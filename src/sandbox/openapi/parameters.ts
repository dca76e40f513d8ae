import { type Operation, takesIdempotencyKey } from "../core/operation.ts";
import type { QueryParam } from "../core/query.ts";
import type { JsonSchema } from "./json-schema.ts";

/** The JSON Schema of one value of a query parameter, as the pipeline parses it. */
function valueSchema(param: QueryParam): JsonSchema {
  switch (param.type) {
    case "string":
      return { type: "string", minLength: 1 };
    case "enum":
      return { type: "string", enum: [...param.values] };
    case "int":
      return {
        type: "integer",
        ...(param.min !== undefined && { minimum: param.min }),
        ...(param.max !== undefined && { maximum: param.max }),
      };
    case "bool":
      return { type: "boolean" };
    case "time":
      return { type: "integer", minimum: 0, description: "Unix seconds." };
  }
}

const isList = (param: QueryParam) =>
  (param.type === "string" || param.type === "enum") && param.list === true;

/** A parameter's schema: list filters are arrays (any-of). */
export function querySchema(param: QueryParam): JsonSchema {
  return isList(param) ? { type: "array", minItems: 1, items: valueSchema(param) } : valueSchema(param);
}

/** `{name}` segments of a path template, in order. */
export const pathParamNames = (path: string) => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);

/** Path, query and header parameters of an operation. */
export function parametersOf(op: Operation, path: string): JsonSchema[] {
  const out: JsonSchema[] = pathParamNames(path).map((name) => ({
    name,
    in: "path",
    required: true,
    schema: { type: "string" },
  }));
  if (!op.queryInBody) {
    for (const [name, param] of Object.entries(op.query ?? {})) {
      out.push({
        name,
        in: "query",
        required: false,
        ...(param.description && { description: param.description }),
        schema: querySchema(param),
        // Any-of lists: repeat the parameter; a comma list (`a,b`) is accepted too.
        ...(isList(param) && { style: "form", explode: true }),
      });
    }
  }
  if (takesIdempotencyKey(op)) out.push(idempotencyKey(op));
  return out;
}

function idempotencyKey(op: Operation): JsonSchema {
  const required = op.idempotency === "required";
  return {
    name: "Idempotency-Key",
    in: "header",
    required,
    description: required
      ? "Required: the same key and body replays the stored answer."
      : op.idempotency
        ? "Required for some bodies (400 idempotency_key_required); replays the stored answer."
        : "Optional: the same key and body replays the stored answer (Idempotency-Replayed: true).",
    schema: { type: "string", minLength: 1, maxLength: 255 },
  };
}

/** The JSON body of a `POST <path>/q` twin: the same parameters, arrays for list filters. */
export function queryBodySchema(op: Operation): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const [name, param] of Object.entries(op.query ?? {})) {
    properties[name] = {
      ...querySchema(param),
      ...(param.description && { description: param.description }),
    };
  }
  return { type: "object", properties, additionalProperties: false };
}
