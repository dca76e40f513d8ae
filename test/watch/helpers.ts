import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { request } from "undici";
import { programCommand } from "../helpers/programs.ts";

/** A port nothing listens on now (the OS picks it, then it is released). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  await new Promise((done) => server.close(done));
  return port;
}

export interface WatchProcess {
  child: ChildProcessWithoutNullStreams;
  /** Parsed stdout lines (one transition each), in order. */
  lines(): Record<string, any>[];
  stderr(): string;
  /** Resolves with the first transition matching `match` (and when it arrived, in ms since the epoch). */
  waitFor(
    match: (t: Record<string, any>) => boolean,
    timeoutMs?: number,
  ): Promise<{ t: Record<string, any>; at: number }>;
  waitForStderr(text: string, timeoutMs?: number): Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Runs the real `vigil watch` in `cwd`. */
export function runWatch(args: readonly string[], cwd: string, env: Record<string, string>): WatchProcess {
  const [node, ...flags] = programCommand("vigil");
  const child = spawn(node, [...flags, "watch", ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NO_COLOR: "1", ...env },
  });
  const lines: { t: Record<string, any>; at: number }[] = [];
  let partial = "";
  let err = "";
  const listeners = new Set<() => void>();
  child.stdout.setEncoding("utf8").on("data", (d: string) => {
    partial += d;
    let nl = partial.indexOf("\n");
    while (nl >= 0) {
      lines.push({ t: JSON.parse(partial.slice(0, nl)), at: Date.now() });
      partial = partial.slice(nl + 1);
      nl = partial.indexOf("\n");
    }
    for (const l of listeners) l();
  });
  child.stderr.setEncoding("utf8").on("data", (d: string) => {
    err += d;
    for (const l of listeners) l();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once("exit", (code, signal) => done({ code, signal })),
  );
  const until = <T>(check: () => T | undefined, what: string, timeoutMs: number) =>
    new Promise<T>((done, fail) => {
      const test = () => {
        const found = check();
        if (found === undefined) return;
        listeners.delete(test);
        clearTimeout(timer);
        done(found);
      };
      const timer = setTimeout(() => {
        listeners.delete(test);
        fail(
          new Error(
            `timed out waiting for ${what}; stdout: ${JSON.stringify(lines.map((l) => l.t))}; stderr: ${err}`,
          ),
        );
      }, timeoutMs);
      listeners.add(test);
      test();
    });
  return {
    child,
    lines: () => lines.map((l) => l.t),
    stderr: () => err,
    waitFor: (match, timeoutMs = 20_000) =>
      until(() => lines.find((l) => match(l.t)), "a transition", timeoutMs),
    waitForStderr: (text, timeoutMs = 20_000) =>
      until(() => (err.includes(text) ? true : undefined), JSON.stringify(text), timeoutMs).then(() => {}),
    exited,
  };
}

/** `GET /healthz` of the watcher at `url`: its status and body. */
export async function healthz(url: string): Promise<{ status: number; body: Record<string, any> }> {
  const res = await request(`${url}/healthz`);
  return { status: res.statusCode, body: (await res.body.json()) as Record<string, any> };
}

/** Polls `url` until it answers 200. */
export async function waitHealthy(url: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await request(`${url}/healthz`);
      await res.body.dump();
      if (res.statusCode === 200) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`${url}/healthz never answered 200`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Waits until the watcher at `url` has started `count` more delta refreshes (its last-delta metric moves
 * when one has read, before it judges); each start after the first means the one before it was judged and
 * healed. Polls the metric: the watcher's own progress, not a guess of how long it takes.
 */
export async function deltaRefreshes(url: string, count: number, timeoutMs = 30_000): Promise<void> {
  const lastDelta = async () => sample(await scrape(url), "vigil_watch_last_delta_refresh_timestamp_seconds");
  const deadline = Date.now() + timeoutMs;
  let last = await lastDelta();
  for (let seen = 0; seen < count; ) {
    if (Date.now() > deadline) throw new Error(`${url}: ${seen} of ${count} delta refreshes seen in time`);
    await new Promise((r) => setTimeout(r, 50));
    const at = await lastDelta();
    if (at > last) [seen, last] = [seen + 1, at];
  }
}

interface Family {
  name: string;
  type: string;
  metrics: { value: string; labels?: Record<string, string> }[];
}

/** `GET /metrics`, parsed by a Prometheus text-format parser: family name → samples. */
export async function scrape(url: string): Promise<Map<string, Family>> {
  const res = await request(`${url}/metrics`);
  const text = await res.body.text();
  return new Map((parsePrometheusTextFormat(text) as Family[]).map((f) => [f.name, f]));
}

/** The value of one sample: the family's sample whose labels include `labels` (0 when absent). */
export function sample(
  families: Map<string, Family>,
  name: string,
  labels: Record<string, string> = {},
): number {
  const family = families.get(name);
  const found = family?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  return found ? Number(found.value) : 0;
}

/** A local HTTP receiver for --notify: records each body. */
export async function receiver(): Promise<{ url: string; bodies: string[]; close(): Promise<void> }> {
  const bodies: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8").on("data", (d) => {
      body += d;
    });
    req.on("end", () => {
      bodies.push(body);
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    bodies,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

export async function stop(p: WatchProcess, signal: NodeJS.Signals = "SIGTERM") {
  if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill(signal);
  return p.exited;
}
