/**
 * Start-up time of terraform-provider-vigil: from spawning the process to its handshake line, launched as
 * Terraform launches it (magic cookie, protocol versions, port range, a client certificate for mutual TLS).
 * Terraform starts the provider many times per run; the budget is 300 ms. Measured three times: main.ts on
 * this Node, the wrapper of `npm run build:terraform -- --from-source` (a sh script that execs the pinned
 * Node), and the release's single executable (`npm run release`, built when stale).
 *
 *   node bench/terraform-startup.ts [runs=20]
 */

import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { selfSignedCertificate } from "../src/terraform/plugin/certificate.ts";
import { spawnProvider, terraformEnv } from "../test/helpers/plugin.ts";
import { unzipOne } from "../tools/release/archives.ts";
import { buildRelease } from "../tools/release/build.ts";
import { mirrorOfSource } from "../tools/terraform/build.ts";

const runs = Number(process.argv[2] ?? 20);
const env = terraformEnv(selfSignedCertificate());

/** Milliseconds from spawn to the handshake line, `runs` times, sorted. */
async function startupTimes(command?: readonly string[]): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const run = spawnProvider(env, command);
    const elapsed = await new Promise<number>((resolve, reject) => {
      run.child.stdout!.on("data", () => {
        if (run.output.stdout.includes("\n")) resolve(performance.now() - started);
      });
      run.child.on("exit", (code) =>
        reject(new Error(`exited with ${code} before the handshake: ${run.output.stderr}`)),
      );
    });
    times.push(elapsed);
    run.child.kill();
    await run.exited;
  }
  return times.sort((a, b) => a - b);
}

function report(label: string, times: number[]) {
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  const ms = (t: number) => `${t.toFixed(0)} ms`;
  console.log(
    `terraform-provider-vigil start-up to handshake, ${label}, ${runs} runs: median ${ms(at(0.5))}, ` +
      `p90 ${ms(at(0.9))}, min ${ms(times[0]!)}, max ${ms(times.at(-1)!)}`,
  );
}

report("node src/terraform/main.ts", await startupTimes());

const out = await mkdtemp(join(tmpdir(), "vigil-startup-"));
try {
  const { file } = await mirrorOfSource(join(out, "mirror"));
  report("the source mirror's wrapper", await startupTimes([file]));
  const release = await buildRelease();
  const { name, data } = unzipOne(await readFile(join(release.dir, release.names.terraformZip)));
  await writeFile(join(out, name), data, { mode: 0o755 });
  report("the release binary", await startupTimes([join(out, name)]));
} finally {
  await rm(out, { recursive: true, force: true });
}
