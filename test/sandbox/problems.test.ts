import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { familyOf, type ProblemCodeName, problemCodes } from "../../src/kinds/index.ts";
import { allOperations } from "../../src/sandbox/operations.ts";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

let sb: TestSandbox;
const codes = Object.keys(problemCodes) as ProblemCodeName[];
const families = ["fix-request", "fix-account-state", "wait-and-retry"];
const operations = allOperations().filter((op) => !op.internal);
// Anonymous calls share one per-address bucket; the token client spends a per-account one.
const anonymous = { token: null } as const;

beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

describe("GET /problems", () => {
  it("lists every code of the table, anonymously", async () => {
    const res = await sb.client.get("/problems", anonymous);
    expect(res.status).toBe(200);
    expect(res.body.data.map((p: { code: string }) => p.code).sort()).toEqual([...codes].sort());
    for (const row of res.body.data) {
      const known = problemCodes[row.code as ProblemCodeName];
      expect(row).toMatchObject({
        type: `${sb.url}/problems/${row.code}`,
        status: known.status,
        title: known.title,
        description: known.description,
        family: familyOf(known.status),
      });
      expect(families).toContain(row.family);
    }
  });

  it("maps statuses to the spec's families", async () => {
    const { data } = (await sb.client.get("/problems")).body;
    const family = (code: string) => data.find((p: { code: string }) => p.code === code);
    expect(family("validation_failed")).toMatchObject({
      family: "fix-request",
      familyTitle: "Fix the request",
    });
    expect(family("not_found")).toMatchObject({ family: "fix-account-state" });
    expect(family("rate_limited")).toMatchObject({ family: "wait-and-retry", familyTitle: "Wait and retry" });
  });
});

describe("GET /problems/{code}", () => {
  it("answers every code with its page and the operations that can answer it", async () => {
    const ids = new Set(operations.map((op) => op.id));
    for (const code of codes) {
      const res = await sb.client.get(`/problems/${code}`, anonymous);
      expect(res.status, code).toBe(200);
      expect(res.body).toMatchObject({
        code,
        status: problemCodes[code].status,
        title: problemCodes[code].title,
      });
      expect(families).toContain(res.body.family);
      expect(res.body.description).toEqual(expect.any(String));
      for (const id of res.body.operations) expect(ids.has(id), `${code}: ${id}`).toBe(true);
    }
  });

  it("names every operation that lists the code", async () => {
    const answers = new Map<string, string[]>();
    for (const code of new Set(operations.flatMap((op) => op.errors))) {
      answers.set(code, (await sb.client.get(`/problems/${code}`)).body.operations);
    }
    for (const op of operations) {
      for (const code of op.errors) expect(answers.get(code), `${op.id}: ${code}`).toContain(op.id);
    }
    const internal = allOperations().filter((op) => op.internal);
    for (const list of answers.values()) for (const op of internal) expect(list).not.toContain(op.id);
  });

  it("answers an unknown code with a 404 problem", async () => {
    const res = await sb.client.get("/problems/no_such_code", anonymous);
    expect(res.status).toBe(404);
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ code: "not_found", status: 404, type: `${sb.url}/problems/not_found` });
  });

  it("is where a problem document's type points", async () => {
    const refused = await sb.client.get("/account", anonymous);
    expect(refused.body.code).toBe("invalid_token");
    const page = await sb.client.get(new URL(refused.body.type).pathname, anonymous);
    expect(page.status).toBe(200);
    expect(page.body.code).toBe("invalid_token");
    expect(page.body.operations).toContain("account.get");
  });

  it("serves a small HTML page to callers that prefer HTML, JSON otherwise", async () => {
    const browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
    const html = await sb.client.get("/problems/rate_limited", {
      ...anonymous,
      headers: { accept: browser },
    });
    expect(html.status).toBe(200);
    expect(html.headers["content-type"]).toMatch(/^text\/html/);
    expect(html.headers.vary).toMatch(/Accept/i);
    expect(html.text).toContain("<code>rate_limited</code>");
    expect(html.text).toContain("Wait and retry");
    for (const accept of ["*/*", "application/json", "text/html;q=0.5, application/json"]) {
      const json = await sb.client.get("/problems/rate_limited", { ...anonymous, headers: { accept } });
      expect(json.headers["content-type"], accept).toMatch(/^application\/json/);
      expect(json.body.code).toBe("rate_limited");
    }
  });
});
