import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import type { SandboxOptions } from "../../../src/sandbox/index.ts";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  /** Name, value, name, value… as they arrived (`headers` cannot hold a header named `__proto__`). */
  rawHeaders: string[];
  /** The body exactly as it arrived. */
  raw: string;
  body: any;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  /** Answer this much later (the request has arrived and is counted at once). */
  delayMs?: number;
}

/**
 * A real HTTP receiver on 127.0.0.1. Each hook gets its own path; a test says
 * how that path answers (200 by default) and reads what arrived there.
 */
export class Receiver {
  readonly #server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const path = req.url ?? "/";
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        body = raw;
      }
      const got: Received = { path, headers: req.headers, rawHeaders: req.rawHeaders, raw, body };
      (this.#received.get(path) ?? this.#received.set(path, []).get(path)!).push(got);
      const answer = this.#answers.get(path)?.(got) ?? { status: 200 };
      if (answer.delayMs)
        setTimeout(() => res.writeHead(answer.status, answer.headers).end(), answer.delayMs);
      else res.writeHead(answer.status, answer.headers).end();
      for (const wake of this.#waiters.splice(0)) wake();
    });
  });
  readonly #received = new Map<string, Received[]>();
  readonly #answers = new Map<string, (r: Received) => Answer>();
  #waiters: (() => void)[] = [];
  base = "";

  async start(): Promise<this> {
    this.#server.listen(0, "127.0.0.1");
    await once(this.#server, "listening");
    this.base = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  /** A fresh path on this receiver, answering with `answer` (200 when absent). */
  hook(answer?: (r: Received) => Answer): { url: string; path: string } {
    const path = `/hook/${randomUUID()}`;
    if (answer) this.#answers.set(path, answer);
    return { url: `${this.base}${path}`, path };
  }

  answer(path: string, answer: (r: Received) => Answer): void {
    this.#answers.set(path, answer);
  }

  received(path: string): Received[] {
    return this.#received.get(path) ?? [];
  }

  /** Waits until `count` requests reached `path`. */
  async waitFor(path: string, count = 1, timeoutMs = 5000): Promise<Received[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.received(path).length < count) {
      if (Date.now() > deadline) {
        throw new Error(`expected ${count} requests at ${path}, got ${this.received(path).length}`);
      }
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
    return this.received(path);
  }

  close(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}

/** Polls until `check` answers a value (not undefined), or fails after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A sandbox that may deliver over http to loopback (`allowInsecureWebhooks`) and a real receiver for it. */
export async function startWithReceiver(
  options: SandboxOptions = {},
): Promise<{ sb: TestSandbox; rx: Receiver }> {
  const sb = await startTestSandbox({ allowInsecureWebhooks: true, ...options });
  return { sb, rx: await new Receiver().start() };
}

export async function closeWithReceiver(sb: TestSandbox, rx: Receiver): Promise<void> {
  await sb.close();
  await rx.close();
}
