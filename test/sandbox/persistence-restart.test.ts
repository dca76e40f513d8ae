import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, startTestSandbox } from "../helpers/sandbox.ts";

/** `startSandbox({dataFile})`: everything acknowledged survives a close and a restart on the same file. */
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "vigil-persist-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("restart on the same data file", () => {
  it("keeps accounts, tokens, secrets, the clock offset and idempotency records", async () => {
    const dataFile = join(dir, "state.db");
    const first = await startTestSandbox({ dataFile, plan: "trial" });
    const acct = await first.account({ plan: "enterprise" });
    expect((await acct.patch("/account", { name: "Persisted", country: "DE" })).status).toBe(200);
    const minted = await first.mint({
      accountId: acct.accountId,
      scopes: ["account:read"],
      duration: "0.02:00:00",
    });
    const replayKey = { headers: { "idempotency-key": "persisted-key" } };
    const keyed = await acct.patch("/account", { language: "de" }, replayKey);
    const now = await first.advance(3600);
    const monitor = await acct.post("/monitor", {
      type: "http",
      url: "https://persisted.example.com",
      locations: { pools: ["allworld"] },
    });
    await first.close();

    const second = await startTestSandbox({ dataFile });
    try {
      // Same default account, same owner token, same admin token (secrets are kept in the file).
      expect(second.accountId).toBe(first.accountId);
      expect(second.adminToken).toBe(first.adminToken);
      const owner = await new Client(second.url, first.token).get("/account");
      expect(owner.status).toBe(200);
      expect(owner.body.package.name).toBe("trial");
      // The created account and its tokens.
      const again = new Client(second.url, acct.token);
      const account = await again.get("/account");
      expect(account.body).toMatchObject({
        id: acct.accountId,
        name: "Persisted",
        country: "DE",
        language: "de",
      });
      expect(account.body.package.name).toBe("enterprise");
      expect((await again.get("/account", { token: minted.body.token })).status).toBe(200);
      // The clock offset.
      const clock = (await second.admin.post("/_sandbox/clock", {})).body.now as number;
      expect(clock).toBeGreaterThanOrEqual(now);
      expect(clock - now).toBeLessThanOrEqual(5);
      // The idempotency record replays byte for byte, and a different body still conflicts.
      const replay = await again.patch("/account", { language: "de" }, replayKey);
      expect(replay.headers["idempotency-replayed"]).toBe("true");
      expect(replay.text).toBe(keyed.text);
      expect((await again.patch("/account", { language: "fr" }, replayKey)).status).toBe(409);
      // Resources created by other routes.
      if (monitor.status === 201) {
        const read = await again.get(`/monitor/${monitor.body.id}`);
        expect(read.status).toBe(200);
        expect(read.body.url).toBe("https://persisted.example.com");
      }
      // The minted 2-hour token expires on the persisted clock: one hour is already gone.
      await second.advance(3601);
      expect((await again.get("/account", { token: minted.body.token })).status).toBe(401);
    } finally {
      await second.close();
    }
  });

  it("keeps the default account's plan: --plan applies only when the file is new", async () => {
    const dataFile = join(dir, "plan.db");
    const first = await startTestSandbox({ dataFile, plan: "enterprise" });
    await first.close();
    const second = await startTestSandbox({ dataFile, plan: "trial" });
    try {
      expect((await second.client.get("/account")).body.package.name).toBe("enterprise");
    } finally {
      await second.close();
    }
  });

  it("an in-memory sandbox shares nothing with the next one", async () => {
    const a = await startTestSandbox();
    const b = await startTestSandbox();
    try {
      expect(a.accountId).not.toBe(b.accountId);
      expect(a.adminToken).not.toBe(b.adminToken);
      expect((await new Client(b.url, a.token).get("/account")).status).toBe(401);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("two sandboxes cannot share one data file", async () => {
    const dataFile = join(dir, "shared.db");
    const first = await startTestSandbox({ dataFile });
    try {
      await expect(startTestSandbox({ dataFile })).rejects.toThrow(/locked|in use/i);
    } finally {
      await first.close();
    }
    // Once the first is closed, the file opens again.
    const third = await startTestSandbox({ dataFile });
    await third.close();
  });
});
