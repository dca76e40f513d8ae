import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestSandbox } from "../../helpers/sandbox.ts";
import { closeWithReceiver, type Receiver, startWithReceiver } from "../webhooks/receiver.ts";
import { arrivals, hook, monitorBody, settle } from "./helpers.ts";

/** Faults that strike after the commit never duplicate a bulk job, over HTTP only. */
let sb: TestSandbox;
let rx: Receiver;
// The sandbox clock moves only when a test moves it: a duration asserted is the one advanced, on any machine.
beforeAll(async () => {
  ({ sb, rx } = await startWithReceiver({ manualClock: true }));
});
afterAll(async () => {
  await sb.admin.delete("/_sandbox/faults");
  await closeWithReceiver(sb, rx);
});

describe("faults with jobs", () => {
  it("a bulk create retried with one Idempotency-Key through after faults yields one job and no duplicates", async () => {
    const c = await sb.account();
    const h = await hook(c, rx, { events: ["monitor.created"] });
    const items = Array.from({ length: 5 }, () => monitorBody());
    const body = { items };
    const idempotencyKey = randomUUID();
    const config = await sb.admin.post("/_sandbox/faults", {
      rate: 0.7,
      when: "after",
      reset: 0.3,
      seed: 7,
      routes: ["POST /monitor/bulk"],
    });
    expect(config.status, config.text).toBe(200);

    let answer: { status: number; body: any; headers: Record<string, string> } | undefined;
    let attempts = 0;
    while (!answer && attempts < 50) {
      attempts++;
      try {
        const res = await c.post("/monitor/bulk", body, { headers: { "idempotency-key": idempotencyKey } });
        if (res.status === 202) answer = res;
        else expect([500, 502, 503]).toContain(res.status);
      } catch (error) {
        // A reset connection: the answer was lost, so retry with the same key.
        expect(String((error as { code?: string }).code ?? error)).toMatch(
          /ECONNRESET|UND_ERR_SOCKET|socket/i,
        );
      }
    }
    const injected = (await sb.admin.get("/_sandbox/faults")).body.injected;
    await sb.admin.delete("/_sandbox/faults");
    expect(answer, "the bulk create never got through").toBeDefined();
    // The seed makes faults strike before the answer arrives, so the 202 is a replay of the first commit.
    expect(injected.after).toBeGreaterThan(0);
    expect(attempts).toBe(injected.after + 1);
    expect(answer!.headers["idempotency-replayed"]).toBe("true");

    const jobs = (await c.get("/job")).body.data;
    expect(jobs.map((j: any) => j.id)).toEqual([answer!.body.jobId]);
    expect((await settle(c, answer!.body.jobId)).body).toMatchObject({
      state: "succeeded",
      summary: { created: 5 },
    });
    const monitors = (await c.get("/monitor?limit=100")).body.data as any[];
    expect(monitors).toHaveLength(5);
    expect(monitors.map((m) => m.url).sort()).toEqual(items.map((i) => i.url).sort());
    // Each monitor was announced exactly once, however many times the request was retried.
    const created = await arrivals(rx, h.path, "monitor.created", 5);
    await sb.settle();
    expect(rx.received(h.path)).toHaveLength(5);
    expect(created.map((r) => r.body.data.id).sort()).toEqual(monitors.map((m) => m.id).sort());
  });
});
