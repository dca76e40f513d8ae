import { type Operation, pathShape } from "../core/operation.ts";
import { componentSchemas } from "./components.ts";
import { type JsonSchema, SchemaComponents } from "./json-schema.ts";
import { parametersOf, queryBodySchema } from "./parameters.ts";
import { responseHeaders, responsesOf } from "./responses.ts";
import { deliveryHeaders, webhooksOf } from "./webhooks.ts";

const tagOf = (path: string) => path.split("/")[1] ?? "";

/**
 * The OpenAPI 3.1 description of an operation table. Everything comes from
 * the table and the kinds: operations, their parameters, bodies and error
 * codes, the components, and the webhook payloads.
 */
export function buildDocument(operations: readonly Operation[], baseUrl: string): JsonSchema {
  const components = new SchemaComponents(componentSchemas());
  const paths: Record<string, Record<string, unknown>> = {};
  // OpenAPI treats templates differing only in parameter names as one path; keep the first spelling.
  const templates = new Map<string, string>();
  for (const op of operations) {
    if (op.internal) continue;
    const path = templates.get(pathShape(op.path)) ?? op.path;
    templates.set(pathShape(op.path), path);
    paths[path] = { ...paths[path], [op.method.toLowerCase()]: operationObject(op, path, components) };
  }
  const tags = [...new Set(Object.keys(paths).map(tagOf)), "events"].sort();
  return {
    openapi: "3.1.0",
    info: {
      title: "Monitoring Service REST API",
      version: "v2",
      description:
        "Served by the vigil sandbox. Errors are RFC 9457 problem documents; each code has a page at /problems/{code}. Webhook payloads are under `webhooks`.",
    },
    servers: [{ url: baseUrl, description: "vigil sandbox" }],
    security: [{ bearer: [] }],
    tags: tags.map((name) => ({ name })),
    paths,
    webhooks: webhooksOf(components),
    components: {
      schemas: components.schemas,
      parameters: deliveryHeaders,
      headers: responseHeaders,
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          description: "An access token minted in the application; operations list the scope they need.",
        },
      },
    },
  };
}

function operationObject(op: Operation, path: string, components: SchemaComponents): JsonSchema {
  const body = op.queryInBody
    ? queryBodySchema(op)
    : op.body
      ? components.convert(op.body, "input")
      : undefined;
  return {
    operationId: op.id,
    summary: op.summary,
    tags: [tagOf(path)],
    // Bearer roles name the leaf scope (OpenAPI 3.1 allows roles for non-OAuth schemes).
    security: op.scope ? [{ bearer: [op.scope] }] : [],
    ...(op.scope && { "x-scope": op.scope }),
    parameters: parametersOf(op, path),
    ...(body && {
      requestBody: {
        // A body that accepts `{}` may be left out: the pipeline validates `{}` in its place.
        required: !(op.queryInBody || op.body?.safeParse({}).success),
        content: { "application/json": { schema: body } },
      },
    }),
    responses: responsesOf(op, components),
  };
}
