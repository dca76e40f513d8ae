import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ProblemCodeName, problemCodes } from "../../../src/kinds/index.ts";
import { errorCodesOf } from "../../../src/sandbox/openapi/error-codes.ts";
import { allOperations } from "../../../src/sandbox/operations.ts";
import { type CallResult, startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { key, monitorBody, outcome, settle } from "./helpers.ts";

/**
 * Every problem code is answered by some operation, and every refusal an
 * operation gives over HTTP is a code its published `errors` list.
 */
const operations = allOperations().filter((op) => !op.internal);
const codes = Object.keys(problemCodes) as ProblemCodeName[];

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

describe("the problem table against the operation table", () => {
  it("ties every code to an operation, by its own errors or by the pipeline, except method_not_allowed", () => {
    const own = new Set(operations.flatMap((op) => op.errors));
    const published = new Set(operations.flatMap((op) => errorCodesOf(op)));
    // Codes no operation lists itself are the pipeline's: authentication, metering, parsing, idempotency, faults.
    const pipelineOnly = codes.filter((code) => !own.has(code) && published.has(code));
    expect(pipelineOnly.sort()).toEqual(
      [
        "idempotency_key_conflict",
        "insufficient_rights",
        "internal_error",
        "ip_not_allowed",
        "malformed_request",
        "payload_too_large",
        "quota_exceeded",
        "service_unavailable",
        "unsupported_media_type",
        "upstream_error",
      ].sort(),
    );
    // Routing answers a method a path does not take: there is no operation to list it.
    expect(codes.filter((code) => !published.has(code))).toEqual(["method_not_allowed"]);
  });

  it("the sandbox does answer method_not_allowed, for a path without that method", async () => {
    const res = await sb.client.call("DELETE", "/account");
    expect(res.status).toBe(405);
    expect(res.body).toMatchObject({ code: "method_not_allowed", status: 405 });
  });
});

describe("refusals over HTTP are listed by their operation", () => {
  it("bad queries and bodies sent to every public operation answer only codes it lists", async () => {
    const c = await sb.account({ plan: "enterprise" });
    const m = (await c.post("/monitor", monitorBody())).body.id as string;
    const incidentId = (await outcome(sb, m, "down")).incidentId!;
    const page = (await c.post("/statuspage", { slug: `codes-${randomUUID().slice(0, 8)}`, title: "x" })).body
      .id as string;
    const webhook = (
      await c.post("/webhook", {
        url: "https://example.org/h",
        events: ["monitor.down"],
        scope: { all: true },
      })
    ).body.id as string;
    const job = await c.post("/monitor/bulk", { items: [monitorBody()] }, key());
    await settle(c, job.body.jobId);
    const window = (await c.post("/maintenance", { name: "w", from: 1, to: 2 })).body.id as string;

    const pathOf = (path: string) => {
      const first: Record<string, string> = {
        "/statuspage/": page,
        "/webhook/": webhook,
        "/job/": job.body.jobId,
        "/monitor/incident/": incidentId,
        "/maintenance/": window,
      };
      const prefix = Object.keys(first).find((p) => path.startsWith(`${p}{id}`));
      const filled = prefix ? path.replace("{id}", first[prefix]!) : path.replace("{id}", m);
      // Child ids that do not exist: the parent is real, so the handler runs to its own refusals.
      return filled.replace(/\{[A-Za-z]+\}/g, randomUUID());
    };
    const queries = [
      "fields=zzz",
      "expand=zzz",
      "sort=zzz",
      "cursor=zzz",
      "limit=0",
      "from=10&to=5",
      "zzz=1",
      "state=zzz",
    ];
    const bodies: unknown[] = [
      {},
      { zzz: 1 },
      { items: [] },
      { filter: { zzz: 1 } },
      { filter: { tag: ["none"] }, expectedCount: 5 },
      { urls: ["https://example.com/p"] },
      { events: ["job.completed"] },
    ];
    const unlisted: string[] = [];
    const seen = new Set<string>();
    // Deletes last, so that the probes before them find the resources.
    const ordered = [...operations].sort(
      (a, b) => Number(a.method === "DELETE") - Number(b.method === "DELETE"),
    );
    for (const op of ordered) {
      const path = pathOf(op.path);
      const answers: CallResult[] = [];
      if (op.method === "GET") for (const q of queries) answers.push(await c.get(`${path}?${q}`));
      else
        for (const body of bodies) {
          answers.push(await c.call(op.method, path, { body }));
          answers.push(await c.call(op.method, path, { body, ...key() }));
        }
      const listed = errorCodesOf(op);
      for (const res of answers) if (res.status >= 400) seen.add(res.body.code);
      for (const res of answers)
        if (res.status >= 400 && !listed.includes(res.body.code))
          unlisted.push(`${op.method} ${op.path}: ${res.status} ${res.body.code}`);
    }
    expect([...new Set(unlisted)]).toEqual([]);
    // The probes did reach the refusals of the pipeline and of the handlers.
    expect([...seen]).toEqual(
      expect.arrayContaining([
        "idempotency_key_required",
        "invalid_cursor",
        "invalid_limit",
        "invalid_range",
        "not_found",
        "selection_mismatch",
        "unknown_event_type",
        "unknown_parameter",
        "validation_failed",
      ]),
    );
  });
});
