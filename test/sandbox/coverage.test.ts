import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webhookEvents } from "../../src/kinds/events.ts";
import { type ProblemCodeName, problemCodes } from "../../src/kinds/index.ts";
import { type Operation, pathShape } from "../../src/sandbox/core/operation.ts";
import { errorCodesOf } from "../../src/sandbox/openapi/error-codes.ts";
import { allOperations } from "../../src/sandbox/operations.ts";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

/**
 * Coverage guarantees, written over the whole operation table and problem
 * table so that every route and code added later is held to them too: the
 * OpenAPI document describes every public operation, the problem pages cover
 * every code, and every code an operation names exists.
 */
type Json = Record<string, any>;

let sb: TestSandbox;
let doc: Json;
let listed: Json[];
const table = allOperations();
const operations = table.filter((op) => !op.internal);
const codes = Object.keys(problemCodes) as ProblemCodeName[];
const anonymous = { token: null } as const;

beforeAll(async () => {
  sb = await startTestSandbox();
  doc = (await sb.client.get("/openapi/v2.json", anonymous)).body;
  listed = (await sb.client.get("/problems", anonymous)).body.data;
});
afterAll(() => sb.close());

/** The document's path for an operation: OpenAPI keeps one spelling per path shape. */
const docPath = (op: Operation) => Object.keys(doc.paths).find((p) => pathShape(p) === pathShape(op.path));

describe("the operation table", () => {
  it("has one operation per id and per method and path", () => {
    const ids = table.map((op) => op.id);
    expect(new Set(ids).size).toBe(ids.length);
    const routes = table.map((op) => `${op.method} ${pathShape(op.path)}`);
    expect(new Set(routes).size).toBe(routes.length);
  });

  it("keeps sandbox control routes, and only them, internal and under /_sandbox/", () => {
    for (const op of table) expect(op.internal === true, op.id).toBe(op.path.startsWith("/_sandbox/"));
  });

  it("names only codes of the problem table", () => {
    for (const op of table) {
      for (const code of op.errors) expect(Object.hasOwn(problemCodes, code), `${op.id}: ${code}`).toBe(true);
      for (const code of errorCodesOf(op))
        expect(Object.hasOwn(problemCodes, code), `${op.id}: ${code}`).toBe(true);
    }
  });
});

describe("GET /openapi/v2.json covers every public operation", () => {
  it("with its method, path, id and summary, and nothing else", () => {
    const described = new Set<string>();
    for (const [path, item] of Object.entries(doc.paths) as [string, Json][]) {
      for (const method of Object.keys(item)) described.add(`${method.toUpperCase()} ${pathShape(path)}`);
    }
    expect([...described].sort()).toEqual(
      operations.map((op) => `${op.method} ${pathShape(op.path)}`).sort(),
    );
    for (const op of operations) {
      const o = doc.paths[docPath(op)!][op.method.toLowerCase()];
      expect(o, `${op.method} ${op.path}`).toMatchObject({ operationId: op.id, summary: op.summary });
      expect(op.summary.length, op.id).toBeGreaterThan(0);
    }
  });

  it("with every code it can answer, under the code's status, as a Problem", () => {
    for (const op of operations) {
      const { responses } = doc.paths[docPath(op)!][op.method.toLowerCase()];
      for (const code of errorCodesOf(op)) {
        const response = responses[String(problemCodes[code].status)];
        expect(response?.["x-error-codes"], `${op.id}: ${code}`).toContain(code);
      }
      for (const code of op.errors) expect(errorCodesOf(op), op.id).toContain(code);
      for (const [status, response] of Object.entries(responses) as [string, Json][]) {
        if (Number(status) < 400) continue;
        expect(response.content["application/problem+json"].schema, `${op.id} ${status}`).toEqual({
          $ref: "#/components/schemas/Problem",
        });
        expect(response["x-error-codes"].length, `${op.id} ${status}`).toBeGreaterThan(0);
        expect(response.headers["x-request-id"], `${op.id} ${status}`).toBeDefined();
      }
    }
  });

  it("with a success answer each operation declares itself, not the document's generic fallback", () => {
    // What the document says when an operation has no `response` member; a real answer says what the body is.
    const generic = new Set(["", "success.", "ok.", "one page of the list."]);
    const undeclared = operations.flatMap((op) => {
      const where = `${op.id} (${op.method} ${op.path})`;
      if (!op.response) return [`${where}: no response {status, description, schema?}`];
      if (generic.has(op.response.description.trim().toLowerCase()))
        return [`${where}: generic description "${op.response.description}"`];
      return [];
    });
    expect(undeclared, "public operations without a declared success answer").toEqual([]);
  });

  it("with exactly one success answer, described, with a JSON body unless 204 or a file", () => {
    for (const op of operations) {
      const { responses } = doc.paths[docPath(op)!][op.method.toLowerCase()];
      const success = Object.keys(responses).filter((s) => Number(s) < 400);
      expect(success, op.id).toEqual([String(op.response?.status ?? 200)]);
      const answer = responses[success[0]!];
      expect(answer.description, op.id).toBe(op.response?.description);
      if (success[0] === "204") expect(answer.content, op.id).toBeUndefined();
      else
        for (const type of op.response?.mediaTypes ?? ["application/json"])
          expect(answer.content[type].schema, `${op.id}: ${type}`).toBeDefined();
    }
  });

  it("with a request body exactly where the operation reads one", () => {
    for (const op of operations) {
      const o = doc.paths[docPath(op)!][op.method.toLowerCase()];
      expect(o.requestBody !== undefined, op.id).toBe(op.body !== undefined || op.queryInBody === true);
    }
  });

  it("marks replayable answers and the in-flight conflict where the key is honoured", () => {
    const o = doc.paths["/monitor"].post;
    expect(o.responses["201"].headers["Idempotency-Replayed"]).toEqual({
      $ref: "#/components/headers/IdempotencyReplayed",
    });
    expect(o.responses["409"].headers["Retry-After"]).toBeDefined();
    expect(doc.paths["/monitor"].get.responses["200"].headers["Idempotency-Replayed"]).toBeUndefined();
  });

  it("with 502 and 503 on every operation: any call may meet them, and the sandbox injects them", () => {
    for (const op of operations) {
      const { responses } = doc.paths[docPath(op)!][op.method.toLowerCase()];
      expect(responses["502"]["x-error-codes"], op.id).toContain("upstream_error");
      expect(responses["503"]["x-error-codes"], op.id).toContain("service_unavailable");
      expect(responses["503"].headers["Retry-After"], op.id).toBeDefined();
    }
  });

  it("with every webhook event's payload", () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual([...webhookEvents].sort());
  });
});

describe("the problem pages cover every code", () => {
  /** The spec's families and their statuses: a code with any other status would be misfiled. */
  const familyStatuses: Record<string, number[]> = {
    "fix-request": [400, 405, 413, 415, 422],
    "fix-account-state": [401, 402, 403, 404, 409],
    "wait-and-retry": [429, 500, 502, 503],
  };

  it("GET /problems lists each code once, in its family by the spec's statuses", () => {
    expect(listed.map((p) => p.code).sort()).toEqual([...codes].sort());
    for (const row of listed) expect(familyStatuses[row.family], row.code).toContain(row.status);
  });

  it("GET /problems/{code} answers each, naming exactly the public operations that can answer it", async () => {
    for (const code of codes) {
      const page = await sb.client.get(`/problems/${code}`, anonymous);
      expect(page.status, code).toBe(200);
      expect(page.body).toMatchObject({ code, status: problemCodes[code].status });
      const answering = operations.filter((op) => errorCodesOf(op).includes(code)).map((op) => op.id);
      expect([...page.body.operations].sort(), code).toEqual(answering.sort());
    }
  });
});
