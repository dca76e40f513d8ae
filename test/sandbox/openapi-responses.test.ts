import type { ValidateFunction } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";
import { schemaCompiler } from "./openapi-ajv.ts";

type Json = Record<string, any>;

/** The documented success answers describe what the sandbox really answers. */
let sb: TestSandbox;
let doc: Json;
let compile: (schema: unknown) => ValidateFunction;

beforeAll(async () => {
  sb = await startTestSandbox();
  doc = (await sb.client.get("/openapi/v2.json", { token: null })).body;
  compile = schemaCompiler(doc);
});
afterAll(() => sb.close());

const success = (path: string, method: string, status = "200") =>
  doc.paths[path][method].responses[status].content["application/json"].schema;

function expectValid(schema: unknown, answer: unknown) {
  const validate = compile(schema);
  expect(validate(answer), JSON.stringify(validate.errors)).toBe(true);
}

describe("success responses", () => {
  it("name the kind a read, a create and a list answer with", () => {
    expect(success("/monitor/{id}", "get")).toEqual({ $ref: "#/components/schemas/Monitor" });
    expect(success("/monitor", "post", "201")).toEqual({ $ref: "#/components/schemas/Monitor" });
    expect(success("/contact/{id}", "patch")).toEqual({ $ref: "#/components/schemas/Contact" });
    expect(success("/monitor", "get").properties.data.items).toEqual({
      $ref: "#/components/schemas/Monitor",
    });
    expect(success("/contact/group/q", "post").properties.data.items).toEqual({
      $ref: "#/components/schemas/ContactGroup",
    });
    expect(success("/monitor/{id}", "delete")).toEqual({ $ref: "#/components/schemas/MonitorDeleteReceipt" });
  });

  it("never forbid members: answers grow additively", () => {
    expect(doc.components.schemas.Monitor.additionalProperties).toBeUndefined();
    expect(doc.components.schemas.Contact.additionalProperties).toBeUndefined();
  });

  it("validate the sandbox's real answers", async () => {
    const c = await sb.account();
    const created = await c.post("/monitor", {
      type: "http",
      url: "https://docs.example.com/health",
      interval: 3600,
      locations: { pools: ["allworld"] },
      tags: ["docs"],
      settings: { password: "secret", keywords: "ok" },
    });
    expect(created.status).toBe(201);
    expectValid(success("/monitor", "post", "201"), created.body);
    expectValid(
      success("/monitor/{id}", "get"),
      (await c.get(`/monitor/${created.body.id}?expand=settings,subscription`)).body,
    );
    expectValid(success("/monitor", "get"), (await c.get("/monitor?expand=count")).body);

    const contact = await c.post("/contact", { type: "http", address: "https://hooks.example.com/x" });
    expectValid(success("/contact", "post", "201"), contact.body);
    expectValid(success("/contact", "get"), (await c.get("/contact")).body);

    const group = await c.post("/contact/group", {
      name: "Ops",
      members: [{ contactId: contact.body.id, events: ["down"] }],
    });
    expectValid(success("/contact/group", "post", "201"), group.body);

    expectValid(success("/monitor/{id}", "delete"), (await c.delete(`/monitor/${created.body.id}`)).body);
  });
});
