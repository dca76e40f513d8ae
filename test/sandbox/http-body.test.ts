import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

/** Request bodies: JSON only, at most 1 MiB, closed member sets. */
let sb: TestSandbox;
let acct: Client & { accountId: string };
beforeAll(async () => {
  sb = await startTestSandbox();
  acct = await sb.account();
});
afterAll(() => sb.close());

const json = { "content-type": "application/json" };

describe("malformed_request", () => {
  it("answers 400 for a body that is not JSON", async () => {
    const res = await acct.call("PATCH", "/account", { raw: '{"name": "x",', headers: json });
    expect(res.status).toBe(400);
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ code: "malformed_request", status: 400, instance: "/account" });
    expect(typeof res.body.detail).toBe("string");
  });

  it("answers 400 for an empty body declared as JSON", async () => {
    const res = await acct.call("PATCH", "/account", { raw: "", headers: json });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("malformed_request");
  });

  it("answers 400 for a prototype-poisoning body", async () => {
    const res = await acct.call("PATCH", "/account", { raw: '{"__proto__":{"admin":true}}', headers: json });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("malformed_request");
  });

  it("a JSON body that is not an object is a validation failure at the root pointer", async () => {
    for (const raw of ["[]", '"name"', "42", "null"]) {
      const res = await acct.call("PATCH", "/account", { raw, headers: json });
      expect(res.status, raw).toBe(422);
      expect(res.body.code).toBe("validation_failed");
      expect(res.body.errors[0]).toMatchObject({ pointer: "", reason: "wrong_type", expected: "object" });
    }
  });
});

describe("payload_too_large", () => {
  it("answers 413 for a body over 1 MiB, and takes one just under it", async () => {
    const big = JSON.stringify({ name: "x".repeat(1024 * 1024) });
    const res = await acct.call("PATCH", "/account", { raw: big, headers: json });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: "payload_too_large", status: 413 });
    expect(res.headers["x-request-id"]).toMatch(/^req_/);
    // Just under the limit the body is read, and judged on its members (name is at most 255 chars).
    const under = JSON.stringify({ name: "x".repeat(1024 * 1024 - 20) });
    const ok = await acct.call("PATCH", "/account", { raw: under, headers: json });
    expect(ok.status).toBe(422);
    expect(ok.body.errors[0]).toMatchObject({ pointer: "/name", reason: "too_long" });
  });
});

describe("unsupported_media_type", () => {
  for (const type of [
    "text/plain",
    "application/x-www-form-urlencoded",
    "application/xml",
    "multipart/form-data; boundary=x",
  ]) {
    it(`answers 415 for ${type}`, async () => {
      const res = await acct.call("PATCH", "/account", { raw: "name=x", headers: { "content-type": type } });
      expect(res.status).toBe(415);
      expect(res.body).toMatchObject({ code: "unsupported_media_type", status: 415 });
      expect(res.body.errors).toEqual([{ pointer: "/headers/Content-Type", allowed: ["application/json"] }]);
    });
  }

  it("answers 415 for a body without a content type", async () => {
    const res = await acct.call("PATCH", "/account", { raw: '{"name":"x"}', headers: {} });
    expect(res.status).toBe(415);
  });

  it("accepts application/json with parameters and in any case", async () => {
    for (const type of ["application/json; charset=utf-8", "Application/JSON"]) {
      const res = await acct.call("PATCH", "/account", {
        raw: '{"name":"typed"}',
        headers: { "content-type": type },
      });
      expect(res.status, type).toBe(200);
    }
  });
});

describe("unknown members", () => {
  it("answers 422 validation_failed, reason unknown_member, with allowed and didYouMean", async () => {
    const res = await acct.patch("/account", { nmae: "x", timezone: "UTC" });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("validation_failed");
    expect(res.body.errors).toHaveLength(1);
    const [entry] = res.body.errors;
    expect(entry).toMatchObject({ pointer: "/nmae", reason: "unknown_member", didYouMean: "name" });
    expect(entry.allowed).toEqual([
      "name",
      "company",
      "phone",
      "country",
      "timezone",
      "language",
      "defaultAgentPools",
    ]);
  });

  it("names every unknown member, and omits didYouMean when nothing is close", async () => {
    const res = await acct.patch("/account", { zzzzzzzz: 1, compnay: "Acme" });
    expect(res.status).toBe(422);
    const byPointer = Object.fromEntries(res.body.errors.map((e: { pointer: string }) => [e.pointer, e]));
    expect(byPointer["/zzzzzzzz"]).not.toHaveProperty("didYouMean");
    expect(byPointer["/compnay"].didYouMean).toBe("company");
  });

  it("refuses read-only account members as unknown", async () => {
    const res = await acct.patch("/account", { login: "new@example.com" });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ pointer: "/login", reason: "unknown_member" });
  });

  it("never sends null members in errors[] entries", async () => {
    const res = await acct.patch("/account", { nmae: "x", country: "germany", timezone: 3 });
    for (const entry of res.body.errors) for (const v of Object.values(entry)) expect(v).not.toBeNull();
  });
});

describe("writes that take no body", () => {
  const contact = async () => {
    const res = await acct.post(
      "/contact",
      { type: "email", address: `nobody-${Math.random()}@example.com` },
      { headers: { "idempotency-key": `k-${Math.random()}` } },
    );
    expect(res.status, res.text).toBe(201);
    return res.body.id as string;
  };

  it("refuse sent members as unknown, each with an empty allowed list, and do nothing", async () => {
    const id = await contact();
    const sent = (await sb.outbox()).length;
    const res = await acct.post(`/contact/${id}/confirmation`, { junk: 1, more: true });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("validation_failed");
    expect(res.body.errors).toEqual([
      expect.objectContaining({ pointer: "/junk", reason: "unknown_member", allowed: [] }),
      expect.objectContaining({ pointer: "/more", reason: "unknown_member", allowed: [] }),
    ]);
    expect((await sb.outbox()).length).toBe(sent);
    const del = await acct.delete(`/contact/${id}`, { body: { force: true } });
    expect(del.status).toBe(422);
    expect(del.body.errors).toEqual([
      expect.objectContaining({ pointer: "/force", reason: "unknown_member", allowed: [] }),
    ]);
    expect((await acct.get(`/contact/${id}`)).status).toBe(200);
  });

  it("refuse a body that is not an object as wrong_type, and take {} or none", async () => {
    const id = await contact();
    for (const raw of ["[]", "42", "null"]) {
      const res = await acct.call("DELETE", `/contact/${id}`, { raw, headers: json });
      expect(res.status, raw).toBe(422);
      expect(res.body.errors[0]).toMatchObject({ pointer: "", reason: "wrong_type", expected: "object" });
    }
    expect((await acct.post(`/contact/${id}/confirmation`, {})).status).toBeLessThan(300);
    expect((await acct.post(`/contact/${id}/confirmation`)).status).toBeLessThan(300);
    expect((await acct.delete(`/contact/${id}`, { body: {} })).status).toBeLessThan(300);
  });

  it("GET ignores a body", async () => {
    const res = await acct.call("GET", "/account", { raw: '{"junk":1}', headers: json });
    expect(res.status).toBe(200);
  });
});
