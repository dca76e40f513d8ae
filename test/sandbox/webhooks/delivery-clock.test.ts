import { afterAll, beforeAll, expect, it } from "vitest";
import { ManualClock, until } from "../../helpers/clock.ts";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { eventually, Receiver } from "./receiver.ts";

/**
 * The sandbox on a clock the test moves (`time`): its clock, its background ticker and its deliveries'
 * signatures all read it, so a retry falls due when the test moves the clock past it, with no real wait and
 * no call of the clock route.
 */
const time = new ManualClock(Date.now());
let sb: TestSandbox;
let rx: Receiver;

beforeAll(async () => {
  sb = await startTestSandbox({ allowInsecureWebhooks: true, time });
  rx = await new Receiver().start();
});
afterAll(async () => {
  await sb?.close();
  await rx?.close();
});

it("sends a retry when the injected clock passes its time, on the background ticker alone", async () => {
  const c = await sb.account();
  const target = rx.hook((r) => ({ status: r.headers["svc-attempt"] === "1" ? 503 : 200 }));
  const created = await c.post("/webhook", {
    url: target.url,
    events: ["monitor.down"],
    scope: { all: true },
  });
  expect(created.status, created.text).toBe(201);
  const queued = await sb.admin.post(`/_sandbox/webhook/${created.body.id}/event`, { event: "monitor.down" });
  expect(queued.status, queued.text).toBe(202);

  // The first attempt goes out at once (a write kicks the worker); it fails and is due again later.
  const [first] = await rx.waitFor(target.path, 1);
  expect(first!.headers["svc-signature"]).toMatch(new RegExp(`^t=${Math.floor(time.now() / 1000)},`));
  const pending = await eventually(async () => {
    const [row] = (await c.get(`/webhook/${created.body.id}/delivery`)).body.data;
    return row?.attempts.length === 1 ? row : undefined;
  });
  expect(pending.outcome).toBe("pending");
  const waitMs = (pending.nextRetryAt - pending.attempts[0].at) * 1000;

  // Short of the retry's time nothing goes out; the clock stood still meanwhile, whatever real time passed.
  await time.advance(waitMs - 2000);
  await sb.settle();
  expect(rx.received(target.path)).toHaveLength(1);

  // Past it, the ticker (woken by the clock, not by real time) sends the retry.
  await until(() => time.waiting > 0);
  await time.advance(3000);
  const got = await rx.waitFor(target.path, 2);
  expect(got[1]!.headers["svc-attempt"]).toBe("2");
});
