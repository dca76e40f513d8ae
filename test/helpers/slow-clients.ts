import { connect, type Socket } from "node:net";

/**
 * Raw-socket clients that hold a server's connection the way a slow or
 * hostile client does: no headers at all, or full headers and a body sent a
 * byte at a time. Used by the servers' limit tests and `bench/slow-clients.ts`.
 */
export interface HeldConnection {
  /** Settles when the server closes the connection: when (ms after it opened) and the bytes it answered ("" for none). */
  readonly closed: Promise<{ afterMs: number; answer: string }>;
  /** Whether the server has closed it yet. */
  isClosed(): boolean;
  /** Closes it from this side. */
  destroy(): void;
}

/** Opens a connection to `url`'s host and port; `start` sends what the connection holds the server with. */
async function open(url: string, start: (socket: Socket) => void): Promise<HeldConnection> {
  const { hostname, port } = new URL(url);
  const socket = connect({ host: hostname.replace(/^\[|\]$/g, ""), port: Number(port) });
  const openedAt = performance.now();
  let answer = "";
  let done = false;
  socket.on("data", (chunk: Buffer) => {
    answer += chunk.toString("latin1");
  });
  // A reset (a refused connection may be reset rather than ended) is a close like any other.
  socket.on("error", () => {});
  const closed = new Promise<{ afterMs: number; answer: string }>((resolve) =>
    socket.once("close", () => {
      done = true;
      resolve({ afterMs: performance.now() - openedAt, answer });
    }),
  );
  await new Promise<void>((resolve) => {
    socket.once("connect", resolve);
    socket.once("close", resolve);
  });
  if (!done) start(socket);
  return { closed, isClosed: () => done, destroy: () => socket.destroy() };
}

/** A connection that sends nothing. */
export function silentConnection(url: string): Promise<HeldConnection> {
  return open(url, () => {});
}

/**
 * A request whose headers arrive whole, declaring a `contentLength`-byte body (200,000 by default) of
 * which one byte is sent every `everyMs`, so the connection is never idle and the body never ends.
 */
export function slowBody(
  url: string,
  request: {
    method?: string;
    path: string;
    headers?: Record<string, string>;
    everyMs: number;
    contentLength?: number;
  },
): Promise<HeldConnection> {
  return open(url, (socket) => {
    const { host } = new URL(url);
    const headers = {
      host,
      "content-type": "application/json",
      "content-length": String(request.contentLength ?? 200_000),
      ...request.headers,
    };
    const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
    socket.write(`${request.method ?? "POST"} ${request.path} HTTP/1.1\r\n${lines.join("")}\r\n{`);
    const drip = setInterval(() => {
      if (socket.writable) socket.write(" ");
    }, request.everyMs);
    socket.once("close", () => clearInterval(drip));
  });
}

/** `held.closed`, or a failure saying what did not happen within `withinMs`. */
export async function cutWithin(held: HeldConnection, withinMs: number, what: string) {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      held.destroy();
      reject(new Error(`${what}: still open after ${withinMs} ms`));
    }, withinMs);
  });
  try {
    return await Promise.race([held.closed, late]);
  } finally {
    clearTimeout(timer);
  }
}
