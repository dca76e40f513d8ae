/**
 * The real `vigil watch` on the example configuration, against the embedded sandbox (a metered Business
 * account), at the default read budget: `/healthz` answers "starting" until the first refresh is over, then
 * 200, and the first refresh waits for no budget. The promise is 5 s on an idle machine; the wall-clock
 * bound here is ten times that, from the listener's first answer (this machine is shared), and what does
 * not depend on the machine's load is asserted as such: the order of what the watcher says, and the time
 * its calls waited for pacing (at 6 reads a minute, the first refresh's 10 reads used to wait 90 s).
 */
import { existsSync } from "node:fs";
import { cp } from "node:fs/promises";
import { join, resolve } from "node:path";
import { request } from "undici";
import { afterEach, expect, it } from "vitest";
import { sandboxWorkspace, shown } from "../cli/e2e/helpers.ts";
import { freePort, runWatch, sample, scrape, stop, type WatchProcess } from "./helpers.ts";

const example = resolve(import.meta.dirname, "../../examples/gitops");
/** docs/watch.md's promise. */
const promisedMs = 5000;

let watch: WatchProcess | undefined;
afterEach(async () => {
  if (watch) await stop(watch);
  watch = undefined;
});

it.skipIf(!existsSync(example))(
  "is ready on the example configuration without waiting for the read budget",
  { timeout: 240_000 },
  async () => {
    const w = await sandboxWorkspace({});
    await cp(example, join(w.dir, "gitops"), { recursive: true });
    const apply = await w.run(["apply", "gitops", "--sandbox", "--auto-approve"]);
    expect(apply.code, shown(apply)).toBe(0);

    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const spawnedAt = Date.now();
    watch = runWatch(["gitops", "--sandbox", "--listen", `127.0.0.1:${port}`], w.dir, {});
    const answers: { status: number; body: Record<string, unknown>; at: number }[] = [];
    // Bounded only so that a watcher that never gets ready fails instead of hanging.
    while (Date.now() - spawnedAt < 150_000) {
      try {
        const res = await request(`${url}/healthz`);
        const body = (await res.body.json()) as Record<string, unknown>;
        answers.push({ status: res.statusCode, body, at: Date.now() });
        if (res.statusCode === 200) break;
      } catch {
        // Not listening yet: Node starts, and the configuration, the embedded sandbox and the state are read.
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    const last = answers.at(-1);
    expect(last?.status, watch.stderr()).toBe(200);
    // From the listener's first answer to ready: the start-up this is about (Node's own start is not).
    const startupMs = last!.at - answers[0]!.at;
    expect(startupMs).toBeLessThan(10 * promisedMs);
    // Before that, only "starting", as documented (the refresh's reads may have succeeded already).
    for (const a of answers.slice(0, -1))
      expect(a).toMatchObject({
        status: 503,
        body: { status: "starting", failedRefreshes: 0, detail: "the first refresh has not finished" },
      });

    // The listener came up, then the first refresh ran, then the watcher said it was ready.
    await watch.waitForStderr("Ready (GET /healthz answers 200) after");
    const said = watch.stderr();
    const at = (text: string) => said.indexOf(text);
    expect(at("Listening on")).toBeGreaterThanOrEqual(0);
    expect(at("Read budget: 13.9 reads/hour (10 % of read_per_month 100000)")).toBeGreaterThan(
      at("Listening on"),
    );
    expect(at("Ready (GET /healthz answers 200)")).toBeGreaterThan(at("Read budget"));
    // No call of the first refresh waited for the budget (at 6 reads a minute, its 10 reads would wait 90 s).
    const metrics = await scrape(url);
    expect(sample(metrics, "vigil_watch_api_reads_total")).toBeGreaterThanOrEqual(10);
    expect(sample(metrics, "vigil_watch_api_pacing_wait_seconds_total")).toBeLessThan(promisedMs / 1000);
    console.log(
      `vigil watch examples/gitops: /healthz first answered ${answers[0]!.at - spawnedAt} ms after spawn, 200 ${startupMs} ms later`,
    );
  },
);
