import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError, describeProblem, type Pacer, type TimeSource, VigilClient } from "../../src/api/index.ts";
import { describeError } from "../../src/cli/errors.ts";
import { resourceKind } from "../../src/pulumi/provider/resources.ts";
import { ApiProblem } from "../../src/sandbox/core/problem.ts";
import type { DiagnosticsError } from "../../src/terraform/resource-diagnostics.ts";
import { ResourceType } from "../../src/terraform/resources.ts";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

/**
 * Every shape of problem document the API answers, said in full by each frontend: the CLI's message,
 * Terraform's diagnostics and Pulumi's error. The documents come from the real sandbox (its answers over
 * HTTP, or its own problem builder for refusals a test cannot provoke cheaply).
 */
const freePacer: Pacer = { acquire: async () => {}, observe: () => {} };
const instant: TimeSource = { now: () => Date.now(), sleep: async () => {} };

let sb: TestSandbox;
const clients: VigilClient[] = [];
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await sb.close();
});

async function clientFor(plan: "trial" | "business" | "enterprise" | "bad-token"): Promise<VigilClient> {
  const token = plan === "bad-token" ? "not-a-token" : (await sb.account({ plan })).token;
  const client = new VigilClient({ baseUrl: sb.url, token, pacer: freePacer, time: instant });
  clients.push(client);
  return client;
}

async function refused(
  client: VigilClient,
  method: "GET" | "POST",
  path: string,
  body?: unknown,
): Promise<ApiError> {
  const route = `${method} ${path}`;
  const error = await client
    .call({ method, path, route, quotaClass: method === "GET" ? "read" : "write", body })
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

const fromSandbox = (problem: ApiProblem, route: string) =>
  new ApiError({
    status: problem.status,
    body: problem.toDocument("https://sandbox.invalid", "/x"),
    headers: {},
    route,
    attempts: 1,
  });

const url = () => `https://example.com/${Math.random().toString(36).slice(2)}`;
const monitor = () => ({ type: "http", url: url(), locations: { pools: ["allworld"] } });

interface Shape {
  name: string;
  error: () => Promise<ApiError>;
  /** What must be said, wherever the frontend puts it. */
  says: RegExp[];
  /** The member the entry names, as a pointer; undefined when it names none. */
  pointer?: string;
  terraformAttribute?: string[];
  pulumiProperty?: string;
}

const shapes: Shape[] = [
  {
    name: "invalid_interval: the account's intervals in `allowed`",
    error: async () =>
      refused(await clientFor("business"), "POST", "/monitor", { ...monitor(), interval: 45 }),
    says: [/invalid_interval/, /got 45; allowed: 30, 60, 120, 180, 300, 600, 900, 1800, 3600/],
    pointer: "/interval",
    terraformAttribute: ["interval"],
    pulumiProperty: "interval",
  },
  {
    name: "interval_below_type_floor: the type's `minimum`",
    error: async () =>
      refused(await clientFor("enterprise"), "POST", "/monitor", {
        ...monitor(),
        type: "waterfall",
        interval: 300,
      }),
    says: [/interval_below_type_floor/, /got 300; minimum: 600/, /minInterval: 600/],
    pointer: "/interval",
    terraformAttribute: ["interval"],
    pulumiProperty: "interval",
  },
  {
    name: "unknown_pool: `reason`, `allowed` and `didYouMean` of a nested member",
    error: async () =>
      refused(await clientFor("business"), "POST", "/monitor", {
        type: "http",
        url: url(),
        locations: { pools: ["allwrld"] },
      }),
    says: [
      /unknown_pool/,
      /unknown; got "allwrld"; allowed: allworld, westeurope, .*; did you mean "allworld"\?/,
    ],
    pointer: "/locations/pools/0",
    terraformAttribute: ["locations", "pools"],
    pulumiProperty: "locations.pools[0]",
  },
  {
    name: "validation_failed, wrong_type: `expected`",
    error: async () =>
      refused(await clientFor("business"), "POST", "/monitor", {
        type: "http",
        url: url(),
        interval: "often",
      }),
    says: [/validation_failed/, /expected number, got string; got "often"$/m],
    pointer: "/interval",
    terraformAttribute: ["interval"],
    pulumiProperty: "interval",
  },
  {
    name: "invalid_token: an entry that names no member",
    error: async () => refused(await clientFor("bad-token"), "GET", "/account"),
    says: [/401 invalid_token: .*\(invalid\)/],
  },
  {
    name: "package_limit: the top-level `feature`",
    error: async () =>
      refused(await clientFor("trial"), "POST", "/monitor", { ...monitor(), cronSchedule: "*/5 * * * *" }),
    says: [/403 package_limit: .*\(feature: cron\)/],
  },
  {
    name: "invalid_range: the top-level `maxSpan` in seconds",
    error: async () =>
      fromSandbox(
        new ApiProblem("invalid_range", "to must be after from.", {
          errors: [{ pointer: "/to", value: 5, reason: "not_after_from" }],
          extra: { maxSpan: 31622400 },
        }),
        "POST /report",
      ),
    says: [/invalid_range: to must be after from\. \(maxSpan: 31622400 seconds\)/, /not after from; got 5/],
    pointer: "/to",
  },
  {
    name: "quota_exceeded: `resetAt` as ISO 8601, per-code members in the entry",
    error: async () =>
      fromSandbox(
        new ApiProblem("quota_exceeded", "The account write_per_minute quota is spent.", {
          extra: { quota: "write_per_minute", limit: 30, remaining: 0, resetAt: 1800000000 },
          errors: [{ quota: "write_per_minute", limit: 30, remaining: 0, resetAt: 1800000000 }],
        }),
        "POST /monitor",
      ),
    says: [/quota_exceeded: .*limit: 30; remaining: 0; resetAt: 2027-01-15T08:00:00Z/],
  },
];

describe("describeProblem", () => {
  it("says an entry with nothing but a pointer with the problem's summary, never an empty message", () => {
    const d = describeProblem({
      status: 422,
      code: "unknown_pool",
      title: "Unknown pool",
      errors: [{ pointer: "/x" }],
    });
    expect(d.members).toEqual([{ pointer: "/x", message: "Unknown pool" }]);
  });

  it("never echoes a refused credential's value", () => {
    const d = describeProblem({
      status: 422,
      code: "validation_failed",
      errors: [
        { pointer: "/settings/password", value: "hunter2", reason: "too_long" },
        { pointer: "/settings/headers/0/value", value: "Bearer s3cret", reason: "too_long" },
      ],
    });
    expect(JSON.stringify(d)).not.toMatch(/hunter2|s3cret/);
    expect(d.members.map((m) => m.message)).toEqual(["too long", "too long"]);
  });

  it("cuts a long allowed list and says how many there are", () => {
    const allowed = Array.from({ length: 40 }, (_, i) => i);
    const d = describeProblem({ status: 422, code: "x", errors: [{ pointer: "/a", allowed }] });
    expect(d.members[0]!.message).toMatch(/allowed: 0, 1, .*29, … \(40 in all\)$/);
  });

  it("a member named __proto__ is said like any other", () => {
    const doc = JSON.parse(
      '{"status":422,"code":"x","__proto__":{"polluted":1},"errors":[{"pointer":"/a","__proto__":2}]}',
    );
    const d = describeProblem(doc);
    expect(d.facts).toEqual(['__proto__: {"polluted":1}']);
    expect(d.members[0]!.message).toBe("__proto__: 2");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe.each(shapes)("$name", (shape) => {
  let error: ApiError;
  beforeAll(async () => {
    error = await shape.error();
  });

  it("the CLI says every member, with no empty line", () => {
    const text = describeError(error);
    for (const pattern of shape.says) expect(text).toMatch(pattern);
    for (const line of text.split("\n")) expect(line).not.toMatch(/:\s*$/);
    if (shape.pointer) expect(text).toContain(`\n  ${shape.pointer}: `);
  });

  it("Terraform puts each member at its attribute, with the code and every member said", () => {
    const diagnostics = (
      new ResourceType("vigil_monitor").adapter.refusal("create", error) as DiagnosticsError
    ).diagnostics;
    const text = diagnostics.map((d) => `${d.summary}\n${d.detail}`).join("\n");
    for (const pattern of shape.says) expect(text).toMatch(pattern);
    for (const d of diagnostics) expect(d.detail?.trim()).not.toBe("");
    if (shape.terraformAttribute) {
      const steps = diagnostics[0]!.attribute?.steps
        .map((s) => ("attribute_name" in s ? s.attribute_name : undefined))
        .filter(Boolean);
      expect(steps).toEqual(shape.terraformAttribute);
    }
  });

  it("Pulumi names each property, with the code and every member said", () => {
    const message = (resourceKind("vigil:index:Monitor").adapter.refusal("create", error) as Error).message;
    for (const pattern of shape.says) expect(message).toMatch(pattern);
    if (shape.pulumiProperty) expect(message).toContain(`\n  ${shape.pulumiProperty}: `);
    expect(message).not.toMatch(/\/items\//);
  });
});
