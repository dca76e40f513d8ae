import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openEmbeddedSandbox } from "../../src/cli/embedded-sandbox.ts";
import { contact, monitor } from "../helpers/fixtures.ts";
import { Client } from "../helpers/sandbox.ts";

/** `--sandbox`: the embedded sandbox kept in `.vigil/sandbox.json` between CLI runs. */
let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "vigil-embedded-"));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

it("creates the directory, serves a metered business account on loopback, and keeps it across runs", async () => {
  const dir = join(root, "project", ".vigil");
  const first = await openEmbeddedSandbox(dir);
  let monitorId: string;
  let contactId: string;
  try {
    expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const c = new Client(first.url, first.token);
    const account = await c.get("/account");
    expect(account.status).toBe(200);
    expect(account.body.id).toBe(first.accountId);
    expect(account.body.package.name).toBe("business");
    // Metered like a real account: the API's quota headers are there.
    expect(account.headers["ratelimit-limit"]).toBe("60");
    expect((await new Client(first.url, first.adminToken).get("/_sandbox/stats")).status).toBe(200);
    monitorId = await monitor(c);
    contactId = await contact(c, { type: "http", address: "https://hooks.example.com/pager" });
  } finally {
    await first.close();
  }
  const file = join(dir, "sandbox.json");
  expect(readdirSync(dir)).toEqual(["sandbox.json"]);
  expect(statSync(file).mode & 0o777).toBe(0o600);

  const second = await openEmbeddedSandbox(dir);
  try {
    expect(second.accountId).toBe(first.accountId);
    expect(second.adminToken).toBe(first.adminToken);
    const c = new Client(second.url, second.token);
    expect((await c.get(`/monitor/${monitorId}`)).status).toBe(200);
    expect((await c.get(`/contact/${contactId}`)).body.address).toBe("https://hooks.example.com/pager");
    // A token of the earlier run still works: the signing key is in the snapshot.
    expect((await new Client(second.url, first.token).get("/account")).status).toBe(200);
  } finally {
    await second.close();
  }
});

it("writes the snapshot when it closes, not at start", async () => {
  const dir = join(root, "fresh", ".vigil");
  const sandbox = await openEmbeddedSandbox(dir);
  try {
    expect(existsSync(join(dir, "sandbox.json"))).toBe(false);
  } finally {
    await sandbox.close();
  }
  expect(existsSync(join(dir, "sandbox.json"))).toBe(true);
});
