import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

let sb: TestSandbox;
let c: Client;
beforeAll(async () => {
  sb = await startTestSandbox();
  c = await sb.account();
});
afterAll(() => sb.close());

const pools = { pools: ["allworld"] };

describe("attached sub-checks", () => {
  it("answers one row per kind the type carries, with what is enabled", async () => {
    const m = await c.post("/monitor", {
      type: "http",
      url: "https://att.example.com/",
      locations: pools,
      attached: { sslExp: true },
    });
    expect(m.status).toBe(201);
    const res = await c.get(`/monitor/${m.body.id}/attached`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((r: any) => [r.kind, r.enabled])).toEqual([
      ["dnsbl", false],
      ["sslExp", true],
      ["domainExp", false],
      ["webRisk", false],
    ]);
    expect(res.body.data[1]).toMatchObject({ state: null, checkedAt: null });

    const ping = await c.post("/monitor", { type: "ping", url: "att.example.com", locations: pools });
    expect((await c.get(`/monitor/${ping.body.id}/attached`)).body.data.map((r: any) => r.kind)).toEqual([
      "dnsbl",
    ]);
  });

  it("mutes and unmutes dnsbl listings", async () => {
    const m = await c.post("/monitor", { type: "port", url: "mail.example.com:25", locations: pools });
    const muted = await c.post(`/monitor/${m.body.id}/attached/dnsbl/mute`, {
      listings: ["zen.spamhaus.org", "b.barracudacentral.org"],
      muted: true,
    });
    expect(muted.status).toBe(200);
    expect(muted.body.data[0].mutedListings).toEqual(["b.barracudacentral.org", "zen.spamhaus.org"]);
    const unmuted = await c.post(`/monitor/${m.body.id}/attached/dnsbl/mute`, {
      listings: ["zen.spamhaus.org"],
      muted: false,
    });
    expect(unmuted.body.data[0].mutedListings).toEqual(["b.barracudacentral.org"]);
  });

  it("a mute that changes nothing leaves the monitor and its updated as they were", async () => {
    const m = await c.post("/monitor", { type: "ping", url: "quiet-mute.example.com", locations: pools });
    await c.post(`/monitor/${m.body.id}/attached/dnsbl/mute`, {
      listings: ["zen.spamhaus.org"],
      muted: true,
    });
    const before = (await c.get(`/monitor/${m.body.id}`)).body;
    await sb.advance(30);
    for (const body of [
      { listings: ["zen.spamhaus.org"], muted: true },
      { listings: ["never.listed.org"], muted: false },
    ]) {
      const res = await c.post(`/monitor/${m.body.id}/attached/dnsbl/mute`, body);
      expect(res.status).toBe(200);
      expect(res.body.data[0].mutedListings).toEqual(["zen.spamhaus.org"]);
    }
    expect((await c.get(`/monitor/${m.body.id}`)).body).toEqual(before);
  });

  it("refuses dnsbl muting where the type carries no dnsbl check, and bad bodies", async () => {
    const m = await c.post("/monitor", { type: "sslExp", url: "att.example.com" });
    const res = await c.post(`/monitor/${m.body.id}/attached/dnsbl/mute`, { listings: ["x"], muted: true });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("validation_failed");
    expect(res.body.errors[0]).toMatchObject({
      reason: "not_allowed",
      allowed: ["http", "api", "ping", "port"],
    });

    const bad = await c.post(`/monitor/${m.body.id}/attached/dnsbl/mute`, { listings: [], mute: true });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: any) => [e.pointer, e.reason])).toEqual(
      expect.arrayContaining([
        ["/listings", "too_few"],
        ["/mute", "unknown_member"],
        ["/muted", "required"],
      ]),
    );
  });

  it("answers 404 for another account's monitor, like a missing one", async () => {
    const other = await sb.account();
    const m = await c.post("/monitor", { type: "http", url: "https://iso.example.com/", locations: pools });
    const res = await other.get(`/monitor/${m.body.id}/attached`);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("not_found");
    expect((await other.get("/monitor/00000000-0000-4000-8000-000000000000/attached")).body).toMatchObject({
      code: "not_found",
      status: 404,
    });
  });
});
