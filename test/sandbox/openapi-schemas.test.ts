import type { ValidateFunction } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventDataSchemas, eventEnvelope, type WebhookEvent } from "../../src/kinds/events.ts";
import { callbackEvents, subscribableEvents } from "../../src/kinds/index.ts";
import type { Operation } from "../../src/sandbox/core/operation.ts";
import { allOperations } from "../../src/sandbox/operations.ts";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";
import { schemaCompiler } from "./openapi-ajv.ts";

type Json = Record<string, any>;

let sb: TestSandbox;
let doc: Json;
let compile: (schema: unknown) => ValidateFunction;
const operations = allOperations().filter((op) => !op.internal);
const shape = (path: string) => path.replace(/\{\w+\}/g, "{}");

function requestSchema(op: Operation): unknown {
  const path = Object.keys(doc.paths).find((p) => shape(p) === shape(op.path))!;
  return doc.paths[path][op.method.toLowerCase()].requestBody.content["application/json"].schema;
}

const find = (method: string, path: string) =>
  operations.find((op) => op.method === method && op.path === path);

beforeAll(async () => {
  sb = await startTestSandbox();
  doc = (await sb.client.get("/openapi/v2.json", { token: null })).body;
  compile = schemaCompiler(doc);
});
afterAll(() => sb.close());

describe("request bodies", () => {
  it("never refuse what the operation's zod schema accepts", () => {
    const samples = [{}, { name: "x" }, { enabled: true }, { unknownMember: 1 }];
    for (const op of operations.filter((o) => o.body)) {
      const validate = compile(requestSchema(op));
      for (const sample of samples) {
        if (op.body!.safeParse(sample).success)
          expect(validate(sample), `${op.id} ${JSON.stringify(sample)}`).toBe(true);
      }
    }
  });

  // Samples that hinge on structure: zod refinements have no JSON Schema form, so there the document is looser.
  const cases: Array<[string, string, unknown[]]> = [
    [
      "POST",
      "/monitor",
      [
        { type: "http", url: "https://example.com", name: "Example", interval: 300, tags: ["a"] },
        { type: "pageSpeed", url: "https://example.com", locations: { pools: ["allworld"] } },
        { type: "http", url: "https://example.com", colour: "red" },
        { type: "http", url: 42 },
        { type: "nope", url: "https://example.com" },
        { type: "http", url: "https://example.com", id: "readonly" },
        { type: "http", url: "https://example.com", interval: 1.5 },
        { type: "http", url: "https://example.com", tags: "a" },
        { type: "http", url: "https://example.com", locations: { pools: [] } },
      ],
    ],
    [
      "POST",
      "/contact",
      [
        { type: "email", address: "ops@example.com", name: "Ops", alertDelay: 5 },
        { type: "http", address: "https://example.com/hook", httpHeaders: [{ header: "X-A", value: "1" }] },
        { type: "email" },
        { type: "pigeon", address: "roof" },
        { type: "email", address: "ops@example.com", confirmed: true },
        { type: "http", address: "https://example.com/hook", httpHeaders: [{ value: "1" }] },
        { type: "email", address: "ops@example.com", activePeriod: { days: [], from: "09:00", to: "17:00" } },
      ],
    ],
  ];
  for (const [method, path, samples] of cases) {
    it(`${method} ${path} accepts and refuses like its zod schema`, () => {
      const op = find(method, path);
      expect(op?.body, `${method} ${path}`).toBeDefined();
      const validate = compile(requestSchema(op!));
      const verdicts = samples.map((s) => [validate(s), op!.body!.safeParse(s).success]);
      for (const [i, [json, zod]] of verdicts.entries()) expect(json, JSON.stringify(samples[i])).toBe(zod);
      expect(verdicts.some(([, zod]) => zod)).toBe(true);
      expect(verdicts.some(([, zod]) => !zod)).toBe(true);
    });
  }

  it("a body the document refuses is refused by the sandbox too", async () => {
    const body = { type: "http", url: "https://example.com", colour: "red" };
    expect(compile(requestSchema(find("POST", "/monitor")!))(body)).toBe(false);
    const res = await sb.client.post("/monitor", body);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("validation_failed");
  });

  it("a /q twin body refuses unknown parameters, like the sandbox", async () => {
    const twin = find("POST", "/monitor/q")!;
    const validate = compile(requestSchema(twin));
    expect(validate({ limit: 10, sort: "name:desc", type: ["http"] })).toBe(true);
    expect(validate({ limit: 0 })).toBe(false);
    expect(validate({ bogus: 1 })).toBe(false);
    expect((await sb.client.post("/monitor/q", { bogus: 1 })).body.code).toBe("unknown_parameter");
  });
});

const location = {
  id: "b0c5b2a4-1d8e-4f8e-9a77-5d0c6b1a2f10",
  country: "DE",
  region: "HE",
  city: "Frankfurt",
  ip: "192.0.2.7",
};
const monitorRef = {
  id: "8f14e45f-ceea-4e7a-9d1b-6f2f0c4b7a11",
  name: "Shop",
  url: "https://shop.example",
  type: "http",
};
const down = {
  monitor: monitorRef,
  state: "down",
  occurredAt: 1_700_000_000,
  checkNumber: 42,
  failedAt: 1_699_999_990,
  error: { code: 503, message: "Service Unavailable", codename: "HTTP_503" },
  recheck: [
    { location, state: "down", error: { code: 503, message: "Service Unavailable", codename: "HTTP_503" } },
  ],
};
const episode = {
  firstFailedAt: 1_699_999_000,
  lastFailedAt: 1_699_999_990,
  failedChecks: 4,
  downtimeSec: 1000,
};
const samples: Partial<Record<WebhookEvent, unknown>> = {
  "monitor.down": down,
  "monitor.up": { ...down, ...episode, state: "up" },
  "monitor.repeatedlyDown": { ...down, ...episode, recheck: [] },
  "incident.opened": {
    incidentId: "inc_1",
    monitorId: monitorRef.id,
    start: 1,
    cause: "HTTP 503",
    underMaintenance: false,
  },
  "monitor.created": {
    id: monitorRef.id,
    type: "http",
    url: "https://shop.example",
    name: "Shop",
    interval: 60,
  },
  "monitor.deleted": {
    id: monitorRef.id,
    deleted: true,
    type: "http",
    name: "Shop",
    url: "https://shop.example",
    cascaded: { alertSubscriptions: ["als_1"] },
  },
  "maintenance.ended": {
    maintenanceId: "m1",
    name: "Upgrade",
    from: 1,
    to: 2,
    endedAt: 2,
    endedEarly: false,
    monitorIds: [monitorRef.id],
  },
  "contact.confirmed": {
    contactId: "c1",
    type: "email",
    address: "ops@example.com",
    confirmedAt: 3,
    via: "code",
  },
  "job.progress": {
    jobId: "j1",
    kind: "monitor.bulkCreate",
    state: "running",
    summary: { created: 1 },
    progress: { done: 1, total: 3 },
  },
};

describe("webhooks", () => {
  const events = [...subscribableEvents, ...callbackEvents];

  it("has one POST per event, 13 subscribable and 2 callback", () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual([...events].sort());
    expect(events).toHaveLength(15);
  });

  it("sends the delivery headers with every event", () => {
    const names = [
      "SVC-Event",
      "SVC-Delivery",
      "SVC-Webhook",
      "SVC-Attempt",
      "SVC-Signature",
      "webhook-id",
      "webhook-timestamp",
      "webhook-signature",
    ];
    for (const event of events) {
      const params = doc.webhooks[event].post.parameters.map((p: Json) => {
        const name = p.$ref.split("/").at(-1);
        return doc.components.parameters[name];
      });
      expect(params.map((p: Json) => p.name).sort(), event).toEqual([...names].sort());
      expect(params.every((p: Json) => p.in === "header" && p.required)).toBe(true);
    }
  });

  it("describes each body as the envelope with that event's data", () => {
    for (const event of events) {
      const schema = doc.webhooks[event].post.requestBody.content["application/json"].schema;
      expect(schema.required, event).toEqual(["id", "event", "occurredAt", "apiVersion", "data"]);
      expect(schema.properties.event.const).toBe(event);
      expect(schema.properties.apiVersion.const).toBe("v2");
    }
    const { data } =
      doc.webhooks["contact.updated"].post.requestBody.content["application/json"].schema.properties;
    expect(data.$ref).toBe("#/components/schemas/Contact");
  });

  for (const [event, data] of Object.entries(samples) as [WebhookEvent, unknown][]) {
    it(`${event}: the document and the zod schema agree on a sample delivery`, () => {
      const validate = compile(doc.webhooks[event].post.requestBody.content["application/json"].schema);
      const envelope = {
        id: `d_${"ab".repeat(16)}`,
        event,
        occurredAt: 1_700_000_000,
        apiVersion: "v2",
        data,
      };
      expect(eventDataSchemas[event].safeParse(data).success).toBe(true);
      for (const [body, ok] of [
        [envelope, true],
        [{ ...envelope, newMember: "ignored" }, true],
        [{ ...envelope, id: "d_123" }, false],
        [{ ...envelope, apiVersion: "v3" }, false],
        [{ ...envelope, event: "monitor.nope" }, false],
        [{ ...envelope, data: "nope" }, false],
      ] as const) {
        expect(validate(body), JSON.stringify(body).slice(0, 80)).toBe(ok);
        expect(eventEnvelope(event).safeParse(body).success).toBe(ok);
      }
    });
  }
});
