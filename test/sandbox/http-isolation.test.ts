import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CallResult, type Client, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

/** An id belonging to another account answers 404 `not_found`, exactly like a missing id. */
let sb: TestSandbox;
let owner: Client & { accountId: string };
let stranger: Client & { accountId: string };
beforeAll(async () => {
  sb = await startTestSandbox();
  owner = await sb.account();
  stranger = await sb.account();
});
afterAll(() => sb.close());

/** The answer with the id itself masked, so a foreign id and a missing one can be compared whole. */
function masked(res: CallResult, id: string) {
  return {
    status: res.status,
    contentType: res.headers["content-type"],
    body: JSON.parse(res.text.replaceAll(id, "<id>")),
  };
}

async function expectSameAsMissing(method: string, path: (id: string) => string, id: string, body?: unknown) {
  const missing = randomUUID();
  const foreign = await stranger.call(method, path(id), { body });
  const absent = await stranger.call(method, path(missing), { body });
  expect(foreign.status).toBe(404);
  expect(foreign.body.code).toBe("not_found");
  expect(masked(foreign, id)).toEqual(masked(absent, missing));
}

describe("isolation", () => {
  it("monitors: GET, PATCH and DELETE of another account's monitor read as missing", async (t) => {
    const created = await owner.post("/monitor", {
      type: "http",
      url: "https://isolated.example.com",
      locations: { pools: ["allworld"] },
    });
    if (created.status === 404) t.skip();
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    await expectSameAsMissing("GET", (x) => `/monitor/${x}`, id);
    await expectSameAsMissing("PATCH", (x) => `/monitor/${x}`, id, { name: "hijacked" });
    await expectSameAsMissing("DELETE", (x) => `/monitor/${x}`, id);
    // Nothing happened to it, and it is not listed for the stranger.
    const mine = await owner.get(`/monitor/${id}`);
    expect(mine.status).toBe(200);
    expect(mine.body.name).not.toBe("hijacked");
    const list = await stranger.get("/monitor");
    expect(list.body.data.map((m: { id: string }) => m.id)).not.toContain(id);
  });

  it("contacts: GET, PATCH and DELETE of another account's contact read as missing", async (t) => {
    const created = await owner.post("/contact", { type: "http", address: "https://hooks.example.com/iso" });
    if (created.status === 404) t.skip();
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    await expectSameAsMissing("GET", (x) => `/contact/${x}`, id);
    await expectSameAsMissing("PATCH", (x) => `/contact/${x}`, id, { name: "hijacked" });
    await expectSameAsMissing("DELETE", (x) => `/contact/${x}`, id);
    expect((await owner.get(`/contact/${id}`)).status).toBe(200);
  });

  it("idempotency records are per account: a stranger's key never replays another account's answer", async () => {
    const k = "shared-key";
    const a = await owner.patch("/account", { name: "Owner" }, { headers: { "idempotency-key": k } });
    const b = await stranger.patch("/account", { name: "Owner" }, { headers: { "idempotency-key": k } });
    expect(b.headers["idempotency-replayed"]).toBeUndefined();
    expect(b.body.id).toBe(stranger.accountId);
    expect(a.body.id).toBe(owner.accountId);
  });

  it("every account reads only itself at GET /account", async () => {
    expect((await owner.get("/account")).body.id).toBe(owner.accountId);
    expect((await stranger.get("/account")).body.id).toBe(stranger.accountId);
  });
});
