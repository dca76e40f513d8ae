/**
 * What a config's members allow, read from the kinds' schemas, so that a
 * message can say it: the forms a union takes, whether a lifecycle path names
 * a member, which variants of a kind take a member (the monitor types taking a setting).
 */
import type { z } from "zod";
import { engineKind } from "../engine/kinds/index.ts";
import type { KindName } from "../engine/model.ts";
import { closest, inputSchemaOf, issuesToEntries, type ProblemDetailEntry, shapeOf } from "../kinds/index.ts";
import { apiNameOf, configNameOf } from "./format.ts";

type Members = Record<string, unknown>;
type Path = readonly (string | number)[];

/** The object schemas a value at this schema may be: the object itself, or each object of a union. */
function objectsOf(schema: z.ZodType): z.ZodObject[] {
  const shape = shapeOf(schema);
  if (shape.type === "object") return [shape.object];
  if (shape.type === "union") return shape.options.flatMap(objectsOf);
  return [];
}

const membersOf = (object: z.ZodObject) => object.shape as Record<string, z.ZodType>;
const declares = (object: z.ZodObject, member: string) => Object.hasOwn(object.shape, member);

/** Whether an object schema takes members it does not declare (the settings of types the spec leaves open). */
function isOpen(schema: z.ZodType): boolean {
  const shape = shapeOf(schema);
  if (
    shape.type === "record" ||
    (shape.type === "other" && (shape.name === "unknown" || shape.name === "any"))
  )
    return true;
  const catchall = shape.type === "object" ? shape.object.def.catchall : undefined;
  return catchall !== undefined && catchall._zod.def.type !== "never";
}

/** The schema at a path of API member names and array indices, or undefined where the path leaves it. */
export function schemaAt(schema: z.ZodType, path: Path): z.ZodType | undefined {
  let current: z.ZodType | undefined = schema;
  for (const token of path) {
    const shape = shapeOf(current);
    if (shape.type === "array") current = typeof token === "number" ? shape.element : undefined;
    else {
      const object = objectsOf(current).find((o) => declares(o, String(token)));
      current = object && membersOf(object)[String(token)];
    }
    if (!current) return undefined;
  }
  return current;
}

/** How a config writes a value of this schema, short: `{ name, monitor }`, `true or false`. */
function formOf(kind: KindName, path: Path, schema: z.ZodType): string {
  const shape = shapeOf(schema);
  if (shape.type === "object") {
    const members = Object.entries(shape.members).map(([member, value]) => {
      const name = configNameOf(kind, path, member);
      const inner = shapeOf(value);
      const optional = value.safeParse(undefined).success ? "?" : "";
      if (inner.type === "values" && !inner.enum)
        return `${name}${optional}: ${inner.values.map((v) => JSON.stringify(v)).join(" | ")}`;
      if (inner.type === "array") return `${name}${optional}: [...]`;
      return `${name}${optional}`;
    });
    return `{ ${members.join(", ")} }`;
  }
  if (shape.type === "boolean") return "true or false";
  // A string format (a URL, a UUID) is not just any string.
  if (shape.type === "string" && shape.format === undefined) return "a string";
  if (shape.type === "number") return "a number";
  if (shape.type === "array") return "a list";
  if (shape.type === "values")
    return shape.values.map((v) => JSON.stringify(v)).join(shape.enum ? ", " : " or ");
  return "a value";
}

/** What a member allows, for a message about a missing one: its values, or its forms. */
export function allowedValues(kind: KindName, members: Members, member: string): string | undefined {
  const schema = schemaAt(inputSchemaOf(engineKind(kind).definition, members), [member]);
  let shape = schema && shapeOf(schema);
  if (shape?.type === "array") shape = shapeOf(shape.element);
  if (shape?.type === "values" && shape.enum)
    return `allowed: ${shape.values.map((v) => JSON.stringify(v)).join(", ")}`;
  if (shape?.type === "union")
    return `one of ${shape.options.map((o) => formOf(kind, [member], o)).join(" or ")}`;
  return undefined;
}

/** Issues that say the value has another form than this option: a wrong type, an unknown or missing member. */
function isStructural(issue: z.core.$ZodIssue, value: unknown): boolean {
  if (issue.path.length === 0) return true;
  const member = issue.path[0] as string;
  return issue.path.length === 1 && (typeof value !== "object" || value === null || !(member in value));
}

/**
 * A value that matches no form of a union (a webhook scope, a status page
 * component): the problems of the one form it plainly means, or a message
 * listing the forms, what goes together, and a guess for an unknown member.
 */
export function explainUnion(
  kind: KindName,
  members: Members,
  path: Path,
  value: unknown,
): { entries: ProblemDetailEntry[] } | { message: string } | undefined {
  const union = schemaAt(inputSchemaOf(engineKind(kind).definition, members), path);
  const shape = union && shapeOf(union);
  if (shape?.type !== "union") return undefined;
  const { options } = shape;
  const meant = options.flatMap((option) => {
    const result = option.safeParse(value);
    if (result.success || result.error.issues.some((i) => isStructural(i, value))) return [];
    return [issuesToEntries(result.error.issues, value, option, path)];
  });
  if (meant.length === 1) return { entries: meant[0]! };

  const parts = [`must be one of ${options.map((o) => formOf(kind, path, o)).join(" or ")}`];
  const objects = options.flatMap((o) => {
    const option = shapeOf(o);
    return option.type === "object" ? [option.object] : [];
  });
  if (typeof value === "object" && value !== null && !Array.isArray(value) && objects.length > 0) {
    const keys = Object.keys(value);
    const known = [...new Set(objects.flatMap((o) => Object.keys(membersOf(o))))];
    const name = (member: string) => configNameOf(kind, path, member);
    const unknown = keys.filter((k) => !known.includes(k));
    // Members that tell the forms apart, given together although no form has them all.
    const telling = keys.filter((k) => known.includes(k) && !objects.every((o) => declares(o, k)));
    if (telling.length > 1 && !objects.some((o) => telling.every((k) => declares(o, k))))
      parts.push(`${telling.map(name).join(" and ")} cannot go together`);
    for (const key of unknown) {
      const hint = closest(key, known.map(name));
      parts.push(`unknown member "${key}"${hint ? `; did you mean "${hint}"?` : ""}`);
    }
  }
  return { message: parts.join("; ") };
}

/**
 * Where a member unknown to an object's variant belongs, when other variants declare it: `ssl is a setting
 * of port monitors` for `settings.ssl` of an http monitor. `parent` is the path of the member's object.
 */
export function otherVariantsWith(kind: KindName, parent: Path, member: string): string | undefined {
  const { definition, section } = engineKind(kind);
  const variants = definition.variants;
  if (!variants || parent.length !== 1 || parent[0] !== variants.member) return undefined;
  const owners = Object.entries(variants.schemas)
    .filter(([, schema]) => Object.hasOwn(schema.shape, member))
    .map(([variant]) => variant);
  // One entry of the variant member, in the words of its section: a setting of port monitors.
  const entry = variants.member.replace(/s$/, "");
  return owners.length > 0 ? `${member} is a ${entry} of ${owners.join(", ")} ${section}` : undefined;
}

/**
 * Why a dotted lifecycle path (`settings.timeout`, `scope.monitors`) names no
 * member of the resource, or undefined when it names one.
 */
export function lifecyclePathProblem(kind: KindName, members: Members, dotted: string): string | undefined {
  let schema: z.ZodType = inputSchemaOf(engineKind(kind).definition, members);
  const apiPath: (string | number)[] = [];
  const seen: string[] = [];
  for (const token of dotted.split(".")) {
    const where = seen.length > 0 ? ` in ${seen.join(".")}` : "";
    if (isOpen(schema)) return undefined;
    const shape = shapeOf(schema);
    if (shape.type === "array") {
      if (!/^\d+$/.test(token))
        return `${seen.join(".")} is a list: the next part is an index, not "${token}"`;
      apiPath.push(Number(token));
      schema = shape.element;
    } else {
      const objects = objectsOf(schema);
      if (objects.length === 0) return `${seen.join(".")} has no members`;
      const allowed = [...new Set(objects.flatMap((o) => Object.keys(membersOf(o))))].map((m) =>
        configNameOf(kind, apiPath, m),
      );
      if (!allowed.includes(token)) {
        const hint = closest(token, allowed);
        return `unknown member "${token}"${where}; allowed members: ${allowed.join(", ")}${hint ? `; did you mean "${hint}"?` : ""}`;
      }
      const member = apiNameOf(kind, apiPath, token);
      apiPath.push(member);
      schema = schemaAt(schema, [member])!;
    }
    seen.push(token);
  }
  return undefined;
}
