import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { WebhookDoc } from "../../../src/sandbox/resources/webhooks/model.ts";
import { sendAttempt } from "../../../src/sandbox/resources/webhooks/send.ts";

/**
 * "2xx within 10 seconds" is one deadline per attempt: connecting, every
 * redirect hop and each answer's body. Checked on the sender directly with a
 * shortened deadline, so the test takes a second rather than ten.
 */
const deadlineMs = 600;
const hopDelayMs = 250;

const timers = new Set<NodeJS.Timeout>();
const server = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    if (req.url === "/drip") {
      // Answers 200 at once, then a byte every 100 ms, never ending: no silence long enough for an idle timeout.
      res.writeHead(200, { "content-type": "text/plain" });
      const timer = setInterval(() => res.write("."), 100);
      timers.add(timer);
      res.on("close", () => clearInterval(timer));
      return;
    }
    const hop = Number(/^\/hop\/(\d)$/.exec(req.url ?? "")?.[1]);
    // Each hop is quick enough on its own; together they outlast the deadline.
    setTimeout(() => {
      if (hop < 3) res.writeHead(307, { location: `/hop/${hop + 1}` }).end();
      else res.writeHead(200).end();
    }, hopDelayMs);
  });
});
let base = "";
beforeAll(async () => {
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const timer of timers) clearInterval(timer);
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const settings = { allowInsecureWebhooks: true };
const send = (path: string, timeoutMs = deadlineMs) =>
  sendAttempt(
    settings,
    {
      webhook: {
        id: "w",
        url: `${base}${path}`,
        headers: [],
        secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
        previousSecret: null,
        previousValidUntil: null,
      } as unknown as WebhookDoc,
      deliveryId: "d_00000000000000000000000000000000",
      event: "monitor.down",
      attempt: 1,
      body: "{}",
      now: 0,
    },
    timeoutMs,
  );

it("times out an answer whose body keeps trickling past the deadline", async () => {
  const result = await send("/drip");
  expect(result).toMatchObject({ verdict: "retryable", statusCode: null });
  expect(result.error).toMatch(/^timed out/);
  expect(result.latencyMs).toBeGreaterThanOrEqual(deadlineMs - 50);
  expect(result.latencyMs).toBeLessThan(deadlineMs + 500);
});

it("counts every redirect hop against one deadline", async () => {
  const slow = await send("/hop/0");
  expect(slow.verdict).toBe("retryable");
  expect(slow.error).toMatch(/^timed out/);
  expect(slow.latencyMs).toBeLessThan(deadlineMs + 500);
  // The same chain within a long enough deadline is delivered.
  const ok = await send("/hop/0", 4 * hopDelayMs + 1000);
  expect(ok).toMatchObject({ verdict: "delivered", statusCode: 200, error: null });
});
