import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";

/** Templates and subscribers of a status page. */
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const newPage = async (c: Client) =>
  (await c.post("/statuspage", { slug: `p-${randomUUID().slice(0, 8)}`, title: "T" })).body.id as string;

describe("templates", () => {
  it("create with 201 and a default impact, list, delete with a receipt", async () => {
    const c = await sb.account();
    const page = await newPage(c);
    const res = await c.post(`/statuspage/${page}/template`, {
      title: "Degraded API",
      message: "We are looking",
    });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.location).toBe(`/statuspage/${page}/template/${res.body.id}`);
    expect(res.body).toEqual({
      id: expect.any(String),
      pageId: page,
      title: "Degraded API",
      message: "We are looking",
      impact: "minor",
      created: expect.any(Number),
    });
    await sb.advance(1);
    const major = (
      await c.post(`/statuspage/${page}/template`, { title: "Outage", message: "Down", impact: "major" })
    ).body;
    const list = await c.get(`/statuspage/${page}/template?sort=created:asc`);
    expect(list.body.data.map((t: { id: string }) => t.id)).toEqual([res.body.id, major.id]);
    const bad = await c.post(`/statuspage/${page}/template`, { title: "", impact: "huge" });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual([
      "/impact",
      "/message",
      "/title",
    ]);
    const receipt = await c.delete(`/statuspage/${page}/template/${res.body.id}`);
    expect(receipt.body).toEqual({ id: res.body.id, deleted: true, pageId: page });
    expect((await c.delete(`/statuspage/${page}/template/${res.body.id}`)).status).toBe(404);
    expect((await c.get(`/statuspage/${page}/template`)).body.data).toHaveLength(1);
  });
});

describe("subscribers", () => {
  it("adds slack, teams and webhook subscribers; lists and deletes them", async () => {
    const c = await sb.account();
    const page = await newPage(c);
    const made = [];
    for (const [kind, url] of [
      ["slack", "https://hooks.slack.com/services/a"],
      ["teams", "https://acme.webhook.office.com/b"],
      ["webhook", "https://example.com/status-hook"],
    ]) {
      const res = await c.post(`/statuspage/${page}/subscriber`, { kind, url });
      expect(res.status, res.text).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(String),
        pageId: page,
        kind,
        url,
        created: expect.any(Number),
      });
      made.push(res.body.id);
      await sb.advance(1);
    }
    expect(
      (await c.get(`/statuspage/${page}/subscriber?sort=created:asc`)).body.data.map(
        (s: { id: string }) => s.id,
      ),
    ).toEqual(made);
    const receipt = await c.delete(`/statuspage/${page}/subscriber/${made[0]}`);
    expect(receipt.body).toEqual({ id: made[0], deleted: true, pageId: page });
    expect((await c.get(`/statuspage/${page}/subscriber`)).body.data).toHaveLength(2);
  });

  it("refuses email: those join only through the public page's double opt-in", async () => {
    const c = await sb.account();
    const page = await newPage(c);
    const res = await c.post(`/statuspage/${page}/subscriber`, {
      kind: "email",
      url: "https://example.com/x",
    });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("validation_failed");
    expect(res.body.errors).toEqual([
      expect.objectContaining({
        pointer: "/kind",
        value: "email",
        reason: "double_opt_in_only",
        allowed: ["slack", "teams", "webhook"],
        message: expect.stringContaining("double opt-in"),
      }),
    ]);
    expect((await c.get(`/statuspage/${page}/subscriber`)).body.data).toEqual([]);
  });

  it("refuses other kinds, non-https urls and a url already subscribed", async () => {
    const c = await sb.account();
    const page = await newPage(c);
    const bad = await c.post(`/statuspage/${page}/subscriber`, { kind: "sms", url: "http://example.com" });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual(["/kind", "/url"]);
    const first = await c.post(`/statuspage/${page}/subscriber`, {
      kind: "webhook",
      url: "https://example.com/h",
    });
    const again = await c.post(`/statuspage/${page}/subscriber`, {
      kind: "slack",
      url: "https://example.com/h",
    });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: "duplicate_resource", existingId: first.body.id });
  });
});
