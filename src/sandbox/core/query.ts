import { closest } from "../../kinds/index.ts";
import { ApiProblem } from "./problem.ts";

/**
 * Query strings are a closed vocabulary: unknown names, unknown enum values
 * and empty values are refused. `POST <path>/q` bodies go through the same
 * rules, with arrays for list filters.
 */
export type QueryParam =
  | { type: "string"; list?: boolean; description?: string }
  | { type: "enum"; values: readonly string[]; list?: boolean; description?: string }
  | { type: "int"; min?: number; max?: number; description?: string }
  | { type: "bool"; description?: string }
  | { type: "time"; description?: string };

/**
 * Raw values by name: each occurrence in a query string (always strings), or
 * the one JSON value a `/q` body holds for the name.
 */
export type RawQuery = Map<string, unknown[]>;

export function rawFromSearch(search: string): RawQuery {
  const raw: RawQuery = new Map();
  for (const [name, value] of new URLSearchParams(search)) {
    const values = raw.get(name) ?? [];
    values.push(value);
    raw.set(name, values);
  }
  return raw;
}

export function rawFromBody(body: unknown): RawQuery {
  if (body === undefined || body === null) return new Map();
  if (typeof body !== "object" || Array.isArray(body)) {
    throw new ApiProblem("validation_failed", "The /q body is a JSON object of list parameters.", {
      errors: [{ pointer: "", reason: "wrong_type", expected: "object" }],
    });
  }
  return new Map(Object.entries(body).map(([k, v]) => [k, [v]]));
}

export function parseQuery(
  raw: RawQuery,
  spec: Record<string, QueryParam>,
  fromBody: boolean,
): Record<string, unknown> {
  const allowed = Object.keys(spec);
  // Own names only: `constructor` or `toString` must not find Object.prototype's members.
  const params = new Map(Object.entries(spec));
  const out: Record<string, unknown> = {};
  for (const [name, values] of raw) {
    const param = params.get(name);
    if (!param) {
      const entry: Record<string, unknown> = { pointer: `/${name}`, parameter: name, allowed };
      const hint = closest(name, allowed);
      if (hint) entry.didYouMean = hint;
      throw new ApiProblem("unknown_parameter", `Unknown parameter "${name}".`, { errors: [entry] });
    }
    const isList = (param.type === "string" || param.type === "enum") && param.list === true;
    if (fromBody) {
      out[name] = parseBodyValue(name, param, isList, values[0]);
      continue;
    }
    // A list filter takes a comma list or repeated parameters.
    const items = isList ? values.flatMap((v) => String(v).split(",")) : values;
    if (!isList && items.length > 1) {
      throw new ApiProblem("validation_failed", `Parameter "${name}" takes one value.`, {
        errors: [{ pointer: `/${name}`, parameter: name, reason: "repeated" }],
      });
    }
    const parsed = items.map((item) => parseOne(name, param, item));
    out[name] = isList ? parsed : parsed[0];
  }
  return out;
}

/** A `/q` body value: list filters take an array (or one value); an empty array is an empty parameter. */
function parseBodyValue(name: string, param: QueryParam, isList: boolean, value: unknown): unknown {
  if (Array.isArray(value) && value.length === 0) throw emptyParameter(name);
  if (isList && Array.isArray(value))
    return value.map((item, i) => parseOne(name, param, item, `/${name}/${i}`));
  // Anything else is one value; an array or object where a scalar belongs is the wrong type.
  const parsed = parseOne(name, param, value);
  return isList ? [parsed] : parsed;
}

const emptyParameter = (name: string) =>
  new ApiProblem("validation_failed", `Parameter "${name}" is empty.`, {
    errors: [{ pointer: `/${name}`, parameter: name, reason: "empty" }],
  });

/** The JSON type name of one value of a parameter, for `wrong_type` entries. */
const expectedType = (param: QueryParam) =>
  param.type === "bool" ? "boolean" : param.type === "int" || param.type === "time" ? "integer" : "string";

function parseOne(name: string, param: QueryParam, value: unknown, pointer = `/${name}`): unknown {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  if (text === "" || text === '""' || value === null) throw emptyParameter(name);
  // Only `/q` bodies can send these; integers judge them below (a limit keeps its own code).
  if (typeof value === "object" && param.type !== "int" && param.type !== "time") {
    const expected = expectedType(param);
    throw new ApiProblem("validation_failed", `Parameter "${name}" is a ${expected}.`, {
      errors: [{ pointer, parameter: name, value, reason: "wrong_type", expected }],
    });
  }
  switch (param.type) {
    case "string":
      return String(value);
    case "enum": {
      const v = String(value);
      if (param.values.includes(v)) return v;
      const entry: Record<string, unknown> = {
        pointer: `/${name}`,
        parameter: name,
        value: v,
        allowed: [...param.values],
      };
      const hint = closest(v, param.values);
      if (hint) entry.didYouMean = hint;
      throw new ApiProblem("unknown_enum_value", `"${v}" is not a value of "${name}".`, { errors: [entry] });
    }
    case "bool": {
      if (value === true || value === "true") return true;
      if (value === false || value === "false") return false;
      throw new ApiProblem("unknown_enum_value", `"${text}" is not a value of "${name}".`, {
        errors: [{ pointer: `/${name}`, parameter: name, value, allowed: ["true", "false"] }],
      });
    }
    case "int":
    case "time": {
      const n = typeof value === "number" ? value : /^-?\d+$/.test(text) ? Number(text) : Number.NaN;
      const min = param.type === "int" ? param.min : 0;
      const max = param.type === "int" ? param.max : undefined;
      if (name === "limit" && (!Number.isInteger(n) || n < (min ?? 1) || n > (max ?? 500))) {
        throw new ApiProblem("invalid_limit", "limit is an integer from 1 to 500.", {
          errors: [
            {
              pointer: "/limit",
              parameter: "limit",
              value,
              ...(Number.isInteger(n)
                ? { reason: "out_of_range" }
                : { reason: "wrong_type", expected: "integer" }),
              minimum: 1,
              maximum: 500,
            },
          ],
        });
      }
      if (!Number.isInteger(n)) {
        throw new ApiProblem("validation_failed", `Parameter "${name}" is an integer.`, {
          errors: [
            { pointer: `/${name}`, parameter: name, value, reason: "wrong_type", expected: "integer" },
          ],
        });
      }
      if ((min !== undefined && n < min) || (max !== undefined && n > max)) {
        throw new ApiProblem("validation_failed", `Parameter "${name}" is out of range.`, {
          errors: [
            {
              pointer: `/${name}`,
              parameter: name,
              value: n,
              reason: "out_of_range",
              minimum: min,
              maximum: max,
            },
          ],
        });
      }
      return n;
    }
  }
}
