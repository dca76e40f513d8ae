import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

/**
 * Same key while the first request is still in flight: 409, reason
 * `in_flight`, with `Retry-After`. A raw socket holds the first request open
 * by sending its headers and only part of its body.
 */
let sb: TestSandbox;
let acct: Client & { accountId: string };
beforeAll(async () => {
  sb = await startTestSandbox();
  acct = await sb.account();
});
afterAll(() => sb.close());

/** Opens a connection and sends the headers plus `part` of `body`; the rest is the caller's to send. */
async function startPartial(
  key: string,
  body: string,
  part: number,
): Promise<{ socket: Socket; rest: string; response: Promise<string> }> {
  const { hostname, port } = new URL(sb.url);
  const socket = connect({ host: hostname, port: Number(port) });
  await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  let received = "";
  socket.on("data", (chunk) => {
    received += chunk.toString();
  });
  const response = new Promise<string>((resolve) => {
    const check = () => {
      const end = received.indexOf("\r\n\r\n");
      if (end < 0) return;
      const length = Number(/content-length: (\d+)/i.exec(received.slice(0, end))?.[1] ?? 0);
      if (Buffer.byteLength(received.slice(end + 4)) >= length) resolve(received);
    };
    socket.on("data", check);
    socket.on("close", () => resolve(received));
  });
  socket.write(
    `PATCH /account HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer ${acct.token}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Idempotency-Key: ${key}\r\n\r\n${body.slice(0, part)}`,
  );
  // Let the server read the headers and claim the key.
  await new Promise((r) => setTimeout(r, 50));
  return { socket, rest: body.slice(part), response };
}

describe("in_flight", () => {
  it("answers 409 in_flight with Retry-After while the first request is arriving, then replays it", async () => {
    const body = JSON.stringify({ name: "Slow writer" });
    const first = await startPartial("slow-1", body, 5);
    const second = await acct.patch(
      "/account",
      { name: "Slow writer" },
      { headers: { "idempotency-key": "slow-1" } },
    );
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ code: "idempotency_key_conflict", status: 409 });
    expect(second.body.errors).toEqual([{ reason: "in_flight" }]);
    expect(second.headers["retry-after"]).toBe("1");
    // Another key is not held up.
    expect(
      (await acct.patch("/account", { language: "fr" }, { headers: { "idempotency-key": "other" } })).status,
    ).toBe(200);

    first.socket.write(first.rest);
    const raw = await first.response;
    first.socket.destroy();
    expect(raw).toMatch(/^HTTP\/1\.1 200 /);
    expect(raw).toContain('"name":"Slow writer"');

    const third = await acct.patch(
      "/account",
      { name: "Slow writer" },
      { headers: { "idempotency-key": "slow-1" } },
    );
    expect(third.status).toBe(200);
    expect(third.headers["idempotency-replayed"]).toBe("true");
    expect(raw.endsWith(third.text)).toBe(true);
  });

  it("an in-flight conflict holds even when the second body differs", async () => {
    const first = await startPartial("slow-2", JSON.stringify({ name: "A" }), 3);
    const second = await acct.patch("/account", { name: "B" }, { headers: { "idempotency-key": "slow-2" } });
    expect(second.status).toBe(409);
    expect(second.body.errors).toEqual([{ reason: "in_flight" }]);
    first.socket.write(first.rest);
    expect(await first.response).toMatch(/^HTTP\/1\.1 200 /);
    first.socket.destroy();
  });

  it("frees the key when the client abandons the request mid-body", async () => {
    const first = await startPartial("abandoned", JSON.stringify({ name: "Never arrives" }), 4);
    first.socket.destroy();
    await new Promise((r) => setTimeout(r, 100));
    const retry = await acct.patch(
      "/account",
      { name: "Retried" },
      { headers: { "idempotency-key": "abandoned" } },
    );
    expect(retry.status).toBe(200);
    expect(retry.body.name).toBe("Retried");
    expect(retry.headers["idempotency-replayed"]).toBeUndefined();
  });
});
