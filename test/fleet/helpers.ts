/**
 * What the fleet's tests and bench share: a fleet of sandbox accounts written as a fleet file, real
 * `vigil worker` processes, each reaching the sandbox through a proxy of its own that logs every request
 * (which worker, which account, when it started and ended), and `vigil fleet` runs.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { createHmac, randomBytes } from "node:crypto";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { programCommand } from "../helpers/programs.ts";

const [node, ...flags] = programCommand("vigil");

export interface LoggedRequest {
  worker: string;
  token: string;
  method: string;
  path: string;
  start: number;
  end: number;
  status: number;
}

/** A proxy to `target` that logs each request as `worker`'s into `log`. */
export async function loggingProxy(
  target: string,
  worker: string,
  log: LoggedRequest[],
): Promise<{ url: string; close(): Promise<void> }> {
  const to = new URL(target);
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const start = Date.now();
    const token = String(req.headers.authorization ?? "").replace(/^Bearer /, "");
    const upstream = httpRequest(
      { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.on("end", () =>
          log.push({
            worker,
            token,
            method: req.method ?? "",
            path: req.url ?? "",
            start,
            end: Date.now(),
            status: answer.statusCode ?? 0,
          }),
        );
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/** `count` http monitors, small: what a fleet account applies. */
export function monitorsYaml(count: number, prefix = "m"): string {
  const lines = ["monitors:"];
  for (let i = 0; i < count; i++)
    lines.push(
      `  ${prefix}${i}:`,
      "    type: http",
      `    url: https://${prefix}${i}.example.com/health`,
      `    name: ${prefix.toUpperCase()} ${i}`,
      "    interval: 60",
      "    locations: { pools: [allworld] }",
    );
  return `${lines.join("\n")}\n`;
}

/** A fleet file and each account's configuration in a fresh directory; tokens come from `TOKEN_<name>`. */
export async function writeFleet(
  accounts: { name: string; monitors: number; config?: string; token?: string; watch?: string }[],
): Promise<{ dir: string; file: string }> {
  const dir = await mkdtemp(join(tmpdir(), "vigil-fleet-test-"));
  const lines = ["accounts:"];
  for (const a of accounts) {
    await mkdir(join(dir, "accounts", a.name), { recursive: true });
    await writeFile(join(dir, "accounts", a.name, "monitors.yaml"), a.config ?? monitorsYaml(a.monitors));
    lines.push(
      `  ${a.name}:`,
      `    token: "\${env:${a.token ?? `TOKEN_${a.name.replaceAll("-", "_")}`}}"`,
      `    paths: [accounts/${a.name}]`,
      ...(a.watch ? [`    watch: ${a.watch}`] : []),
    );
  }
  const file = join(dir, "fleet.yaml");
  await writeFile(file, `${lines.join("\n")}\n`);
  return { dir, file };
}

export interface WorkerProcess {
  child: ChildProcess;
  log(): string;
  exited: Promise<void>;
}

/** A real `vigil worker`; VIGIL_ENDPOINT is its own proxy, so the request log says which worker called. */
export function startWorkerProcess(args: readonly string[], env: Record<string, string>): WorkerProcess {
  const child = spawn(node, [...flags, "worker", ...args], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NO_COLOR: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stdout?.setEncoding("utf8").on("data", (d: string) => (log += d));
  child.stderr?.setEncoding("utf8").on("data", (d: string) => (log += d));
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  return { child, log: () => log, exited };
}

/** Waits until `check` holds, polling. */
export async function until(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

/** Runs `vigil fleet ...`; answers its exit code and output. */
export function runFleetCli(
  args: readonly string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      node,
      [...flags, "fleet", ...args],
      {
        env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NO_COLOR: "1", ...env },
        maxBuffer: 64 * 2 ** 20,
      },
      (error, stdout, stderr) =>
        done({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/**
 * Pairs of writes to one account by two workers that overlap in time: none may exist. A killed worker's
 * request that was still in flight counts too.
 */
export function overlappingWrites(log: readonly LoggedRequest[]): string[] {
  const writes = log.filter((r) => r.method !== "GET" && r.method !== "HEAD");
  const byToken = new Map<string, LoggedRequest[]>();
  for (const w of writes) byToken.set(w.token, [...(byToken.get(w.token) ?? []), w]);
  const found: string[] = [];
  for (const list of byToken.values()) {
    list.sort((a, b) => a.start - b.start);
    let last: LoggedRequest | undefined;
    for (const w of list) {
      if (last && last.worker !== w.worker && w.start < last.end)
        found.push(`${last.worker} ${last.method} ${last.path} and ${w.worker} ${w.method} ${w.path}`);
      if (!last || w.end > last.end) last = w;
    }
  }
  return found;
}

/** A delivery of `event` signed with `secret` by the API's SVC-Signature scheme. */
export function signedDelivery(
  secret: string,
  event = "monitor.updated",
): { headers: Record<string, string>; body: string } {
  const body = JSON.stringify({
    id: `d_${randomBytes(16).toString("hex")}`,
    event,
    occurredAt: Math.floor(Date.now() / 1000),
    data: {},
  });
  const t = Math.floor(Date.now() / 1000);
  const v1 = createHmac("sha256", secret).update(`${t}.`).update(body).digest("hex");
  return {
    headers: { "content-type": "application/json", "svc-signature": `t=${t},v1=${v1}`, "svc-event": event },
    body,
  };
}
