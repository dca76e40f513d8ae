import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

/**
 * Token IP allow-lists. Linux routes all of 127.0.0.0/8 to loopback, so a
 * client can bind 127.0.0.2 (etc.) as its source address.
 */
let sb: TestSandbox;
let acct: Client & { accountId: string };
beforeAll(async () => {
  sb = await startTestSandbox();
  acct = await sb.account();
});
afterAll(() => sb.close());

async function tokenWith(allowIps: string[], scopes = ["account"]): Promise<string> {
  const res = await sb.mint({ accountId: acct.accountId, scopes, allowIps });
  expect(res.status, res.text).toBe(201);
  return res.body.token;
}

describe("ip_not_allowed", () => {
  it("admits a caller whose address is listed exactly", async () => {
    const token = await tokenWith(["127.0.0.2"]);
    const res = await acct.get("/account", { token, localAddress: "127.0.0.2" });
    expect(res.status).toBe(200);
  });

  it("refuses another address with 403, echoing the caller and not revealing the list", async () => {
    const token = await tokenWith(["127.0.0.2"]);
    const res = await acct.get("/account", { token, localAddress: "127.0.0.3" });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: "ip_not_allowed", status: 403 });
    expect(res.body.errors).toEqual([{ clientIp: "127.0.0.3" }]);
    expect(res.text).not.toContain("127.0.0.2");
  });

  it("admits addresses inside a from-to range, inclusive, and refuses those outside", async () => {
    const token = await tokenWith(["127.0.0.10-127.0.0.20"]);
    for (const ip of ["127.0.0.10", "127.0.0.15", "127.0.0.20"]) {
      expect((await acct.get("/account", { token, localAddress: ip })).status, ip).toBe(200);
    }
    for (const ip of ["127.0.0.9", "127.0.0.21"]) {
      const res = await acct.get("/account", { token, localAddress: ip });
      expect(res.status, ip).toBe(403);
      expect(res.body.errors[0].clientIp).toBe(ip);
    }
  });

  it("mixes exact entries and ranges", async () => {
    const token = await tokenWith(["10.0.0.1", "127.0.0.30-127.0.0.31", "127.0.0.40"]);
    expect((await acct.get("/account", { token, localAddress: "127.0.0.31" })).status).toBe(200);
    expect((await acct.get("/account", { token, localAddress: "127.0.0.40" })).status).toBe(200);
    expect((await acct.get("/account", { token, localAddress: "127.0.0.35" })).status).toBe(403);
  });

  it("checks the allow-list before the scope", async () => {
    const token = await tokenWith(["127.0.0.2"], ["monitor:read"]);
    const outside = await acct.get("/account", { token, localAddress: "127.0.0.4" });
    expect(outside.status).toBe(403);
    expect(outside.body.code).toBe("ip_not_allowed");
    const inside = await acct.get("/account", { token, localAddress: "127.0.0.2" });
    expect(inside.status).toBe(403);
    expect(inside.body.code).toBe("missing_scope");
  });

  it("checks the allow-list before body validation", async () => {
    const token = await tokenWith(["127.0.0.2"]);
    const res = await acct.patch("/account", { nmae: "x" }, { token, localAddress: "127.0.0.5" });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("ip_not_allowed");
  });

  it("matches entries written as IPv4-mapped IPv6 addresses, exact or as range bounds", async () => {
    const token = await tokenWith(["::ffff:127.0.0.2", "::ffff:127.0.0.50-::ffff:127.0.0.60"]);
    expect((await acct.get("/account", { token, localAddress: "127.0.0.2" })).status).toBe(200);
    expect((await acct.get("/account", { token, localAddress: "127.0.0.55" })).status).toBe(200);
    expect((await acct.get("/account", { token, localAddress: "127.0.0.61" })).status).toBe(403);
  });

  it("a token without an allow-list works from any address", async () => {
    const token = await tokenWith([]);
    expect((await acct.get("/account", { token, localAddress: "127.0.0.77" })).status).toBe(200);
  });
});

describe("the mint's allow-list rules", () => {
  it("takes up to 10 entries", async () => {
    const ten = Array.from({ length: 10 }, (_, i) => `127.0.1.${i + 1}`);
    expect((await sb.mint({ accountId: acct.accountId, scopes: ["account"], allowIps: ten })).status).toBe(
      201,
    );
    const eleven = [...ten, "127.0.1.11"];
    const res = await sb.mint({ accountId: acct.accountId, scopes: ["account"], allowIps: eleven });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("ValidationError");
    expect(res.body.message).toMatch(/10/);
  });

  it("refuses malformed entries", async () => {
    for (const entry of [
      "127.0.0",
      "localhost",
      "127.0.0.1-",
      "127.0.0.1-banana",
      "10.0.0.0/8",
      "1.1.1.1-2.2.2.2-3.3.3.3",
    ]) {
      const res = await sb.mint({ accountId: acct.accountId, scopes: ["account"], allowIps: [entry] });
      expect(res.status, entry).toBe(400);
      expect(res.body.error).toBe("ValidationError");
    }
  });

  it("refuses inverted ranges, and ranges whose bounds are of different families", async () => {
    for (const entry of ["127.0.0.20-127.0.0.10", "2001:db8::ff-2001:db8::1", "127.0.0.1-::1"]) {
      const res = await sb.mint({ accountId: acct.accountId, scopes: ["account"], allowIps: [entry] });
      expect(res.status, entry).toBe(400);
      expect(res.body.error).toBe("ValidationError");
    }
    const single = await sb.mint({
      accountId: acct.accountId,
      scopes: ["account"],
      allowIps: ["127.0.0.9-127.0.0.9"],
    });
    expect(single.status).toBe(201);
  });

  it("accepts IPv6 addresses and ranges", async () => {
    const res = await sb.mint({
      accountId: acct.accountId,
      scopes: ["account"],
      allowIps: ["::1", "2001:db8::1-2001:db8::ff"],
    });
    expect(res.status).toBe(201);
  });
});
