import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestSandbox } from "../helpers/sandbox.ts";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "vigil-retention-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const storedKeys = (file: string) => {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return (
      db.prepare("SELECT count(*) AS n FROM docs WHERE collection = 'idempotency'").get() as { n: number }
    ).n;
  } finally {
    db.close();
  }
};

it("sweeps idempotency records out of the data file once their 24 hours are over", async () => {
  const dataFile = join(dir, "state.db");
  const first = await startTestSandbox({ dataFile });
  const acct = await first.account();
  for (const key of ["k1", "k2"]) {
    expect(
      (await acct.patch("/account", { name: key }, { headers: { "idempotency-key": key } })).status,
    ).toBe(200);
  }
  await first.advance(23 * 3600);
  expect(
    (await acct.patch("/account", { name: "k3" }, { headers: { "idempotency-key": "k3" } })).status,
  ).toBe(200);
  await first.advance(2 * 3600);
  await first.close();
  expect(storedKeys(dataFile)).toBe(3);

  // The restart sweeps k1 and k2 (25 hours old) and keeps k3 (2 hours old), which still replays.
  // (The running sandbox locks its file, so the count is read after it stops.)
  const second = await startTestSandbox({ dataFile });
  try {
    const again = await second.client.call("PATCH", "/account", {
      token: acct.token,
      body: { name: "k3" },
      headers: { "idempotency-key": "k3" },
    });
    expect(again.headers["idempotency-replayed"]).toBe("true");
  } finally {
    await second.close();
  }
  expect(storedKeys(dataFile)).toBe(1);
});
