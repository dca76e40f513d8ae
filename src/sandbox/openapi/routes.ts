import { defineOperations, type Operation } from "../core/operation.ts";
import { buildDocument } from "./document.ts";

/**
 * `GET /openapi/v2.json`. Each call makes a fresh operation whose document
 * is built on first request (the base URL is known only once the app
 * listens) and kept for the table and address it was built for.
 */
export function openapiOperations(): Operation[] {
  let cache: { operations: readonly Operation[]; baseUrl: string; text: string } | undefined;
  return defineOperations({
    id: "openapi.get",
    method: "GET",
    path: "/openapi/v2.json",
    summary: "This API's OpenAPI 3.1 description, webhook payloads included.",
    scope: null,
    metering: "catalogue",
    errors: [],
    response: { status: 200, description: "The OpenAPI 3.1 document." },
    handle: (ctx) => {
      const { operations } = ctx.services;
      if (cache?.operations !== operations || cache.baseUrl !== ctx.baseUrl) {
        cache = {
          operations,
          baseUrl: ctx.baseUrl,
          text: JSON.stringify(buildDocument(operations, ctx.baseUrl)),
        };
      }
      return { status: 200, text: cache.text };
    },
  });
}
