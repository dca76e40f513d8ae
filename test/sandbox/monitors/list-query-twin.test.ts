import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { create, everywhere, refusal } from "./fixtures.ts";

/** POST /monitor/q: the list's parameters as a JSON body, with the same rows, scope and cursors. */
let sb: TestSandbox;
let acct: Awaited<ReturnType<TestSandbox["account"]>>;
beforeAll(async () => {
  sb = await startTestSandbox();
  acct = await sb.account();
  for (let i = 0; i < 12; i++) {
    const type = i % 3 === 0 ? "ping" : "http";
    const url = type === "ping" ? `host-${i}.example.com` : `https://site-${i}.example.com/`;
    await create(acct, { type, url, name: `n${i}`, tags: [`t${i % 4}`], locations: everywhere });
    await sb.advance(1);
  }
});
afterAll(() => sb.close());

const ids = (body: { data: Array<{ id: string }> }) => body.data.map((m) => m.id);

describe("POST /monitor/q", () => {
  it("answers the same rows as GET, with arrays for list filters", async () => {
    const get = await acct.get("/monitor?type=http&tag=t1,t2&sort=name&expand=count&fields=name,type");
    const post = await acct.post("/monitor/q", {
      type: ["http"],
      tag: ["t1", "t2"],
      sort: "name",
      expand: ["count"],
      fields: ["name", "type"],
    });
    expect(post.status, post.text).toBe(200);
    expect(post.body.data).toEqual(get.body.data);
    expect(post.body.count).toEqual(get.body.count);
    expect(post.body.syncCursor).toBe(get.body.syncCursor);
  });

  it("an empty body lists everything in the default order", async () => {
    const get = await acct.get("/monitor");
    const post = await acct.post("/monitor/q", {});
    expect(ids(post.body)).toEqual(ids(get.body));
    expect(ids((await acct.post("/monitor/q")).body)).toEqual(ids(get.body));
  });

  it("shares cursors with GET in both directions", async () => {
    const firstGet = await acct.get("/monitor?limit=5&tag=t0,t1");
    const secondPost = await acct.post("/monitor/q", {
      limit: 5,
      tag: ["t0", "t1"],
      cursor: firstGet.body.nextCursor,
    });
    const firstPost = await acct.post("/monitor/q", { limit: 5, tag: ["t0", "t1"] });
    const secondGet = await acct.get(
      `/monitor?limit=5&tag=t0&tag=t1&cursor=${encodeURIComponent(firstPost.body.nextCursor)}`,
    );
    expect(ids(firstPost.body)).toEqual(ids(firstGet.body));
    expect(ids(secondPost.body)).toEqual(ids(secondGet.body));
    const all = ids((await acct.get("/monitor?limit=500&tag=t0,t1")).body);
    expect([...ids(firstGet.body), ...ids(secondGet.body)]).toEqual(all.slice(0, 10));
  });

  it("refuses what GET refuses: unknown names, unknown values, bad limits, empty values", async () => {
    expect(refusal(await acct.post("/monitor/q", { order: "desc" }))).toMatchObject({
      status: 422,
      code: "unknown_parameter",
    });
    expect(refusal(await acct.post("/monitor/q", { state: ["dwon"] }))).toEqual({
      status: 422,
      code: "unknown_enum_value",
      errors: [
        {
          pointer: "/state",
          parameter: "state",
          value: "dwon",
          allowed: ["up", "down", "paused", "maintenance"],
          didYouMean: "down",
        },
      ],
    });
    expect(refusal(await acct.post("/monitor/q", { limit: 501 }))).toMatchObject({
      status: 422,
      code: "invalid_limit",
    });
    expect(refusal(await acct.post("/monitor/q", { q: "" }))).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [{ pointer: "/q", parameter: "q", reason: "empty" }],
    });
  });

  it("does not split strings on commas: arrays carry list filters", async () => {
    const res = await acct.post("/monitor/q", { type: "http,ping" });
    expect(refusal(res)).toMatchObject({ status: 422, code: "unknown_enum_value" });
    expect(ids((await acct.post("/monitor/q", { type: "ping" })).body)).toEqual(
      ids((await acct.get("/monitor?type=ping")).body),
    );
  });

  it("refuses a body that is not an object", async () => {
    const res = await acct.post("/monitor/q", ["type"]);
    expect(refusal(res)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [{ pointer: "", reason: "wrong_type", expected: "object" }],
    });
  });

  it("needs the same scope as GET", async () => {
    expect(refusal(await acct.post("/monitor/q", {}, { token: null }))).toMatchObject({
      status: 401,
      code: "invalid_token",
    });
    const token = (await sb.mint({ accountId: acct.accountId, scopes: ["monitor:write"] })).body.token;
    expect(refusal(await acct.post("/monitor/q", {}, { token }))).toEqual({
      status: 403,
      code: "missing_scope",
      errors: [{ required: "monitor:read", granted: ["monitor:write"] }],
    });
  });
});
