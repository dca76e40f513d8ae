import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { create, everywhere } from "./fixtures.ts";

/** `name` defaults to the address (`defaultFrom: "url"`) and keeps following it until a name is sent. */
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const http = (url: string, extra: Record<string, unknown> = {}) => ({
  type: "http",
  url,
  locations: everywhere,
  ...extra,
});

describe("a defaulted name", () => {
  it("follows a new url", async () => {
    const acct = await sb.account();
    const body = await create(acct, http("https://old-home.example.com/"));
    expect(body.name).toBe("https://old-home.example.com/");
    const moved = await acct.patch(`/monitor/${body.id}`, { url: "https://new-home.example.com/" });
    expect(moved.body.name).toBe("https://new-home.example.com/");
    expect((await acct.get(`/monitor/${body.id}`)).body.name).toBe("https://new-home.example.com/");
  });

  it("of a counter follows settings.probeUrl", async () => {
    const acct = await sb.account({ plan: "enterprise" });
    const body = await create(acct, { type: "counter", settings: { probeUrl: "https://probe-a.internal/" } });
    const moved = await acct.patch(`/monitor/${body.id}`, {
      settings: { probeUrl: "https://probe-b.internal/" },
    });
    expect(moved.body.name).toBe("https://probe-b.internal/");
  });

  it("is named by the url in the delete receipt", async () => {
    const acct = await sb.account();
    const body = await create(acct, http("https://before.example.com/"));
    await acct.patch(`/monitor/${body.id}`, { url: "https://after.example.com/" });
    const receipt = await acct.delete(`/monitor/${body.id}`);
    expect(receipt.body).toMatchObject({
      name: "https://after.example.com/",
      url: "https://after.example.com/",
    });
  });

  it("sorts and filters by the name as read", async () => {
    const acct = await sb.account();
    const zulu = await create(acct, http("https://zulu.example.com/"));
    await create(acct, http("https://mike.example.com/"));
    await acct.patch(`/monitor/${zulu.id}`, { url: "https://alpha.example.com/" });
    const sorted = await acct.get("/monitor?sort=name&fields=name");
    expect(sorted.body.data.map((m: { name: string }) => m.name)).toEqual([
      "https://alpha.example.com/",
      "https://mike.example.com/",
    ]);
    expect((await acct.get("/monitor?q=zulu")).body.data).toEqual([]);
    expect((await acct.get("/monitor?q=ALPHA")).body.data.map((m: { id: string }) => m.id)).toEqual([
      zulu.id,
    ]);
  });
});

describe("a sent name", () => {
  it("sticks when the url changes", async () => {
    const acct = await sb.account();
    const body = await create(acct, http("https://kept-a.example.com/", { name: "Shop" }));
    const moved = await acct.patch(`/monitor/${body.id}`, { url: "https://kept-b.example.com/" });
    expect(moved.body.name).toBe("Shop");
    const renamed = await acct.patch(`/monitor/${body.id}`, { name: "Store" });
    expect(renamed.body.name).toBe("Store");
  });

  it("null returns the name to the address, on create and on update", async () => {
    const acct = await sb.account();
    const body = await create(acct, http("https://nulled.example.com/", { name: null }));
    expect(body.name).toBe("https://nulled.example.com/");
    await acct.patch(`/monitor/${body.id}`, { name: "Named" });
    const cleared = await acct.patch(`/monitor/${body.id}`, { name: null });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body.name).toBe("https://nulled.example.com/");
    const moved = await acct.patch(`/monitor/${body.id}`, { url: "https://renulled.example.com/" });
    expect(moved.body.name).toBe("https://renulled.example.com/");
  });
});
