import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

/**
 * CR or LF in a configured header would end it early and smuggle another header into each request the
 * service sends. The kinds refuse them, so the sandbox answers 422 at the member's pointer, for contacts,
 * webhooks and monitors alike, and nothing is stored.
 */
let sb: TestSandbox;
let acct: Client;
beforeAll(async () => {
  sb = await startTestSandbox();
  acct = await sb.account();
});
afterAll(() => sb.close());

const key = () => ({ headers: { "idempotency-key": randomUUID() } });
const injected = "Bearer abc\r\nX-Injected: 1";

function expectRefused(res: { status: number; body: any }, pointer: string) {
  expect(res.status).toBe(422);
  expect(res.body.code).toBe("validation_failed");
  expect(res.body.errors).toContainEqual(expect.objectContaining({ pointer, reason: "invalid_format" }));
}

describe("CR and LF in header names and values", () => {
  it("a contact's httpHeaders: refused on create and update", async () => {
    const body = { type: "http", address: "https://hooks.example.com/crlf" };
    for (const httpHeaders of [
      [{ header: "Authorization", value: injected }],
      [{ header: "X-Token\nX-Injected", value: "1" }],
    ]) {
      const res = await acct.post("/contact", { ...body, httpHeaders }, key());
      expectRefused(res, `/httpHeaders/0/${httpHeaders[0]!.value === "1" ? "header" : "value"}`);
    }
    expect((await acct.get("/contact")).body.data).toEqual([]);
    const created = await acct.post("/contact", body, key());
    expect(created.status).toBe(201);
    const patched = await acct.patch(
      `/contact/${created.body.id}`,
      { httpHeaders: [{ header: "X-A", value: "a\rb" }] },
      key(),
    );
    expectRefused(patched, "/httpHeaders/0/value");
  });

  it("a webhook's headers and a monitor's settings.headers", async () => {
    const webhook = await acct.post("/webhook", {
      url: "https://hooks.example.com/crlf",
      events: ["monitor.down"],
      scope: { all: true },
      headers: [{ header: "X-A", value: injected }],
    });
    expectRefused(webhook, "/headers/0/value");
    const monitor = await acct.post("/monitor", {
      type: "http",
      url: "https://crlf.example.com/",
      settings: { headers: [{ name: "X-A", value: "1\n2" }] },
    });
    expectRefused(monitor, "/settings/headers/0/value");
  });
});
