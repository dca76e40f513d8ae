/**
 * An HTTP proxy in front of a sandbox that holds the requests a test picks: the test learns when one
 * arrives (the process under test is then waiting on it, a write under way) and decides when it goes on.
 * A test acts at that moment instead of sleeping and hoping the process got there.
 */
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";

export interface HoldingProxy {
  /** The proxy's base URL, to give the process under test as its endpoint. */
  url: string;
  /** Resolves with `METHOD /path` once a held request has arrived (the first not yet taken). */
  arrival(): Promise<string>;
  /**
   * Lets every held request go on to the sandbox, and the later ones through unheld; resolves once the
   * sandbox has answered each held one (what it did is then done, whoever still waits for the answer).
   */
  release(): Promise<void>;
  close(): Promise<void>;
}

/** Holds the requests for which `holds(method, path)` is true, until `release()`. */
export async function holdingProxy(
  target: string,
  holds: (method: string, path: string) => boolean,
): Promise<HoldingProxy> {
  const base = new URL(target);
  const held: (() => Promise<void>)[] = [];
  const arrived: string[] = [];
  const waiting: ((what: string) => void)[] = [];
  let released = false;
  const server = createServer(async (req, res) => {
    // The body is read first: a held request reaches the sandbox whole even if its sender is gone by then.
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const forward = () =>
      new Promise<void>((answered) => {
        const upstream = request(
          { host: base.hostname, port: base.port, method: req.method, path: req.url, headers: req.headers },
          (answer) => {
            // Answered: the sandbox has done the request, whether or not its sender still listens.
            answered();
            if (res.destroyed) return void answer.resume();
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        upstream.on("error", () => {
          res.destroy();
          answered();
        });
        upstream.end(body);
      });
    const path = new URL(req.url ?? "/", base).pathname;
    if (released || !holds(req.method ?? "GET", path)) return void forward();
    held.push(forward);
    const what = `${req.method} ${path}`;
    const waiter = waiting.shift();
    if (waiter) waiter(what);
    else arrived.push(what);
  });
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    arrival: () => {
      const next = arrived.shift();
      return next !== undefined ? Promise.resolve(next) : new Promise((arrive) => waiting.push(arrive));
    },
    release: async () => {
      released = true;
      await Promise.all(held.splice(0).map((forward) => forward()));
    },
    close: () =>
      new Promise((closed) => {
        server.closeAllConnections();
        server.close(() => closed());
      }),
  };
}
