/**
 * cty, Terraform's type system, as the plugin protocol carries it: types from schema type expressions and
 * blocks, values in msgpack and JSON DynamicValues, and the conversion to and from engine members.
 */
export * from "./cty/json.ts";
export * from "./cty/members.ts";
export * from "./cty/msgpack.ts";
export * from "./cty/types.ts";
export * from "./cty/values.ts";
