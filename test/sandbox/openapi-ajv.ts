import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import formats from "ajv-formats";

type Json = Record<string, unknown>;

const base = "https://vigil.test/components/schemas/";

/** Every `x-` keyword and every `format` value used anywhere below `node`. */
function vocabulary(node: unknown, found = { keywords: new Set<string>(), formats: new Set<string>() }) {
  if (Array.isArray(node)) for (const item of node) vocabulary(item, found);
  else if (node && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      if (key.startsWith("x-")) found.keywords.add(key);
      if (key === "format" && typeof value === "string") found.formats.add(value);
      vocabulary(value, found);
    }
  }
  return found;
}

/** A copy whose `#/components/schemas/X` references point at schemas registered with Ajv. */
function rebase(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rebase);
  if (!node || typeof node !== "object") return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [
      key,
      key === "$ref" && typeof value === "string"
        ? value.replace("#/components/schemas/", base)
        : rebase(value),
    ]),
  );
}

/**
 * Compiles schemas embedded in an OpenAPI 3.1 document as JSON Schema draft
 * 2020-12, with strict keyword checking (the `x-` extensions declared) and
 * component references resolved.
 */
export function schemaCompiler(doc: Json): (schema: unknown) => ValidateFunction {
  // A referenced schema compiles once, into a function of its own, rather than into every schema that
  // refers to it, and the generated code is not optimised: the same validation, compiled in a seventh of
  // the time (the document's 2,400 embedded schemas took 11 s of CPU).
  const ajv = new Ajv2020({
    allErrors: true,
    strictTypes: false,
    logger: false,
    inlineRefs: false,
    code: { optimize: false },
  });
  formats.default(ajv);
  const used = vocabulary(doc);
  ajv.addVocabulary([...used.keywords]);
  // Formats ajv-formats lacks (zod knows more) are annotations here, as JSON Schema allows.
  for (const format of used.formats) if (!(format in ajv.formats)) ajv.addFormat(format, true);
  const components = (doc.components as Json).schemas as Json;
  for (const [name, schema] of Object.entries(components)) ajv.addSchema(rebase(schema) as Json, base + name);
  return (schema) => ajv.compile(rebase(schema) as Json);
}
