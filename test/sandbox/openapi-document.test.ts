import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { problemCodes } from "../../src/kinds/index.ts";
import { type Operation, pathShape as shape, takesIdempotencyKey } from "../../src/sandbox/core/operation.ts";
import { allOperations } from "../../src/sandbox/operations.ts";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";
import { schemaCompiler } from "./openapi-ajv.ts";

type Json = Record<string, any>;

let sb: TestSandbox;
let doc: Json;
let text: string;
const operations = allOperations().filter((op) => !op.internal);

/** The document's operation object for a table operation (paths match by shape, as OpenAPI does). */
function docOperation(op: Operation): Json | undefined {
  const path = Object.keys(doc.paths).find((p) => shape(p) === shape(op.path));
  return path ? doc.paths[path][op.method.toLowerCase()] : undefined;
}

const allDocOperations = () =>
  Object.values(doc.paths).flatMap((item) => Object.values(item as Json)) as Json[];

beforeAll(async () => {
  sb = await startTestSandbox();
  const res = await sb.client.get("/openapi/v2.json", { token: null });
  expect(res.status).toBe(200);
  doc = res.body;
  text = res.text;
});
afterAll(() => sb.close());

describe("GET /openapi/v2.json", () => {
  it("answers anonymously with JSON, and the same document every time", async () => {
    const again = await sb.client.get("/openapi/v2.json", { token: null });
    expect(again.headers["content-type"]).toMatch(/^application\/json/);
    expect(again.text).toBe(text);
    const withToken = await sb.client.get("/openapi/v2.json");
    expect(withToken.status).toBe(200);
  });

  it("validates as OpenAPI 3.1 with an independent validator", async () => {
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
    // The validator is discerning: a copy with a broken operation fails.
    const broken = structuredClone(doc);
    broken.paths["/problems"].get.responses = "none";
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it("names the API, its version and the sandbox address", () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.info.version).toBe("v2");
    expect(doc.info.title).toEqual(expect.any(String));
    expect(doc.servers).toEqual([expect.objectContaining({ url: sb.url })]);
  });

  it("describes every public operation of the table, and no internal one", () => {
    for (const op of operations) {
      expect(docOperation(op), `${op.method} ${op.path}`).toMatchObject({
        operationId: op.id,
        summary: op.summary,
      });
    }
    const ids = allDocOperations().map((o) => o.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort()).toEqual(operations.map((op) => op.id).sort());
    expect(Object.keys(doc.paths).some((p) => p.startsWith("/_sandbox"))).toBe(false);
  });

  it("requires a bearer token with the operation's scope, and none for anonymous ones", () => {
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: "http", scheme: "bearer" });
    for (const op of operations) {
      expect(docOperation(op)!.security, op.id).toEqual(op.scope ? [{ bearer: [op.scope] }] : []);
    }
    expect(docOperation(operations.find((op) => op.path === "/openapi/v2.json")!)!.security).toEqual([]);
  });

  it("lists path parameters from the template and query parameters from the operation", () => {
    for (const op of operations) {
      const o = docOperation(op)!;
      const path = Object.keys(doc.paths).find((p) => shape(p) === shape(op.path))!;
      const inPath = o.parameters.filter((p: Json) => p.in === "path").map((p: Json) => p.name);
      expect(inPath, op.id).toEqual([...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]));
      if (op.queryInBody) continue;
      const inQuery = new Map(
        o.parameters.filter((p: Json) => p.in === "query").map((p: Json) => [p.name, p]),
      );
      expect([...inQuery.keys()].sort(), op.id).toEqual(Object.keys(op.query ?? {}).sort());
      for (const [name, param] of Object.entries(op.query ?? {})) {
        const described = inQuery.get(name) as Json;
        if (param.type === "enum" && !param.list) expect(described.schema.enum).toEqual(param.values);
        if ((param.type === "string" || param.type === "enum") && param.list) {
          expect(described).toMatchObject({ style: "form", explode: true, schema: { type: "array" } });
        }
        if (param.type === "int" || param.type === "time") expect(described.schema.type).toBe("integer");
      }
    }
  });

  it("takes the query of a POST /q twin as its JSON body", () => {
    const twin = operations.find((op) => op.queryInBody && op.query?.limit);
    expect(twin).toBeDefined();
    const schema = docOperation(twin!)!.requestBody.content["application/json"].schema;
    expect(Object.keys(schema.properties).sort()).toEqual(Object.keys(twin!.query!).sort());
  });

  it("declares Idempotency-Key on writes, required where the operation requires it", () => {
    for (const op of operations.filter(takesIdempotencyKey)) {
      const key = docOperation(op)!.parameters.find((p: Json) => p.name === "Idempotency-Key");
      expect(key, op.id).toMatchObject({ in: "header", required: op.idempotency === "required" });
    }
  });

  it("advertises Idempotency-Key and its conflict only where the pipeline honours the key", async () => {
    const byId = (id: string) => docOperation(operations.find((op) => op.id === id)!)!;
    const advertised = (o: Json) => ({
      header: o.parameters.some((p: Json) => p.name === "Idempotency-Key"),
      conflict: (o.responses["409"]?.["x-error-codes"] ?? []).includes("idempotency_key_conflict"),
    });
    // POST reads: the /q twins, validate-cron and resolve ignore the key, so the document must too.
    for (const id of [
      "monitor.list.query",
      "contact.list.query",
      "monitor.validateCron",
      "monitor.resolve",
    ]) {
      expect(advertised(byId(id)), id).toEqual({ header: false, conflict: false });
    }
    for (const id of ["account.update", "contact.delete"]) {
      expect(advertised(byId(id)), id).toEqual({ header: true, conflict: true });
    }
    for (const op of operations.filter((o) => !takesIdempotencyKey(o))) {
      expect(advertised(docOperation(op)!), op.id).toEqual({ header: false, conflict: false });
    }
    // And the pipeline indeed ignores it there: one key with two bodies is no conflict.
    const headers = { "idempotency-key": "read-key" };
    const a = await sb.client.post("/monitor/validate-cron", { cronSchedule: "0 * * * *" }, { headers });
    const b = await sb.client.post("/monitor/validate-cron", { cronSchedule: "5 * * * *" }, { headers });
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.headers["idempotency-replayed"]).toBeUndefined();
  });

  it("answers every code an operation lists, under its status, with the Problem schema", () => {
    for (const op of operations) {
      const responses = docOperation(op)!.responses;
      for (const code of op.errors) {
        expect(problemCodes, `${op.id}: ${code}`).toHaveProperty(code);
        const response = responses[String(problemCodes[code].status)];
        expect(response?.["x-error-codes"], `${op.id}: ${code}`).toContain(code);
        expect(response.description).toContain(`\`${code}\``);
        expect(response.content["application/problem+json"].schema).toEqual({
          $ref: "#/components/schemas/Problem",
        });
      }
      const success = Object.keys(responses).filter((s) => Number(s) < 400);
      expect(success, op.id).toEqual([String(op.response?.status ?? 200)]);
    }
  });

  it("adds the universal refusals: 401/403/429/500 with a token, 400/413/415/422 on writes", () => {
    for (const op of operations) {
      const responses = docOperation(op)!.responses;
      const codes = (status: number) => responses[status]?.["x-error-codes"] ?? [];
      expect(codes(500), op.id).toContain("internal_error");
      expect(codes(401), op.id).toContain("invalid_token");
      if (op.scope) {
        expect(codes(403), op.id).toContain("missing_scope");
        if (op.metering !== "free") expect(codes(429), op.id).toContain("quota_exceeded");
      }
      // Every write reads a body (one without a body schema refuses any member), so each can fail parsing it.
      if (op.method !== "GET") {
        expect(codes(422), op.id).toContain("validation_failed");
        expect(codes(400), op.id).toContain("malformed_request");
        expect(codes(413), op.id).toContain("payload_too_large");
        expect(codes(415), op.id).toContain("unsupported_media_type");
      }
      for (const [status, response] of Object.entries(responses) as [string, Json][]) {
        for (const code of response["x-error-codes"] ?? []) {
          expect(problemCodes[code as keyof typeof problemCodes].status, code).toBe(Number(status));
        }
      }
    }
  });

  it("publishes the Problem and kind schemas as components, with field traits", () => {
    const { schemas } = doc.components;
    expect(schemas.Problem.required).toEqual(expect.arrayContaining(["type", "title", "status", "code"]));
    expect(schemas.Monitor.properties.id.readOnly).toBe(true);
    expect(schemas.Monitor.properties.interval.default).toBe(180);
    expect(schemas.Monitor.properties.type["x-immutable"]).toBe(true);
    expect(schemas.Monitor.properties.onOverlimit.writeOnly).toBe(true);
    expect(schemas.Webhook.properties.secret).toMatchObject({ writeOnly: true, "x-credential": true });
    expect(schemas.Contact.properties.alertDelay.description).toMatch(/Minutes/);
    for (const name of ["Contact", "ContactGroup", "Maintenance", "StatusPage", "Webhook"]) {
      expect(schemas[name].properties.created.readOnly, name).toBe(true);
    }
  });

  it("compiles every embedded schema as JSON Schema 2020-12, component references included", () => {
    const compile = schemaCompiler(doc);
    for (const schema of Object.values(doc.components.schemas)) compile(schema);
    for (const o of allDocOperations()) {
      if (o.requestBody) compile(o.requestBody.content["application/json"].schema);
      for (const r of Object.values(o.responses) as Json[]) {
        for (const media of Object.values(r.content ?? {}) as Json[]) compile(media.schema);
      }
      for (const p of o.parameters) compile(p.schema);
    }
    // Compiling some hundreds of schemas is CPU work: several seconds on a busy 2-core machine.
  }, 120_000);

  it("groups refusals by the spec's families in the descriptions", () => {
    const o = docOperation(operations.find((op) => op.scope)!)!;
    expect(o.responses["401"].description).toMatch(/^Fix the account state/);
    expect(o.responses["500"].description).toMatch(/^Wait and retry/);
  });
});
