import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { Client, startTestSandbox } from "../../helpers/sandbox.ts";
import { eventually, Receiver } from "./receiver.ts";

/** `--data`: the index of pending deliveries is rebuilt at start, so retries due before a restart still go out. */
let dir: string;
let rx: Receiver;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "vigil-webhooks-"));
  rx = await new Receiver().start();
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await rx.close();
});

it("sends a pending retry after a restart", async () => {
  const dataFile = join(dir, "state.db");
  let status = 503;
  const target = rx.hook(() => ({ status }));
  const first = await startTestSandbox({ dataFile, allowInsecureWebhooks: true });
  const acct = await first.account();
  const h = await acct.post("/webhook", { url: target.url, events: ["monitor.down"], scope: { all: true } });
  expect(h.status, h.text).toBe(201);
  const queued = await first.admin.post(`/_sandbox/webhook/${h.body.id}/event`, { event: "monitor.down" });
  expect(queued.status, queued.text).toBe(202);
  await rx.waitFor(target.path);
  await eventually(async () => {
    const [d] = (await acct.get(`/webhook/${h.body.id}/delivery`)).body.data;
    return d?.attempts.length === 1 ? d : undefined;
  });
  await first.close();

  status = 200;
  const second = await startTestSandbox({ dataFile, allowInsecureWebhooks: true });
  try {
    const c = new Client(second.url, acct.token);
    await second.advance(13);
    const [, retry] = await rx.waitFor(target.path, 2);
    expect(retry!.headers["svc-attempt"]).toBe("2");
    const d = await eventually(async () => {
      const [row] = (await c.get(`/webhook/${h.body.id}/delivery`)).body.data;
      return row?.outcome === "delivered" ? row : undefined;
    });
    expect(d.attempts.map((a: any) => a.statusCode)).toEqual([503, 200]);
  } finally {
    await second.close();
  }
});
