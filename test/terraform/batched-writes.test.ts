/**
 * Batched writes through the Terraform provider: ApplyResourceChange calls that arrive together go out as one
 * bulk request, and each answers its own resource: its state, or diagnostics at its own attribute. In process
 * against the sandbox, then through the real terraform CLI when it is on PATH.
 */
import { spawn } from "node:child_process";
import { mkdir, readdir, readFile, readlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { programFile } from "../helpers/programs.ts";
import { type Client, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";
import { described, terraformWorkspace } from "../helpers/terraform.ts";
import { attr, type Core, configuredCore, type Instance } from "../helpers/terraform-core.ts";
import { describeWithTerraform } from "./e2e/describe.ts";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(async () => sb?.close());

const unique = () => Math.random().toString(36).slice(2, 10);

/** The writes since the last look, by route. */
async function writes(): Promise<Record<string, number>> {
  const stats = (await sb.admin.get("/_sandbox/stats")).body as { byRoute: Record<string, number> };
  await sb.admin.delete("/_sandbox/stats");
  return Object.fromEntries(
    Object.entries(stats.byRoute).filter(
      ([route]) => !route.includes("/_sandbox/") && !route.startsWith("GET "),
    ),
  );
}

async function provider(account: Client, env: Record<string, string> = {}): Promise<Core> {
  return configuredCore({ VIGIL_ENDPOINT: sb.url, VIGIL_TOKEN: account.token, ...env });
}

describe("batched writes, in process", () => {
  it("applies arriving together share one job; a failed item is that resource's diagnostic, at its attribute", async () => {
    const account = await sb.account({ plan: "enterprise" });
    const core = await provider(account);
    const base = `https://${unique()}.example.com`;
    const configs = [0, 1, 2, 3].map((i) =>
      core.config("vigil_monitor", {
        type: "http",
        // One host on the service's block list: a refusal no plan can predict, so the item fails in the job.
        url: i === 2 ? `https://${unique()}.blocked.test/` : `${base}/${i}`,
        locations: { pools: ["allworld"] },
      }),
    );
    const plans = await Promise.all(configs.map((c) => core.plan("vigil_monitor", null, c)));
    await writes();
    const applied = await Promise.allSettled(
      configs.map((c, i) => core.apply("vigil_monitor", null, plans[i]!, c)),
    );
    expect(applied.map((a) => a.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled"]);
    expect(await writes()).toEqual({ "POST /monitor/bulk": 1 });
    const message = String((applied[2] as PromiseRejectedResult).reason.message);
    expect(message).toMatch(/Could not create vigil_monitor/);
    expect(message).toMatch(/url_blacklisted.*"attribute_name":"url"/);
    expect(message).not.toMatch(/items/);
    for (const a of applied)
      if (a.status === "fulfilled") expect(String(attr(a.value!, "url"))).toMatch(new RegExp(`^${base}/`));

    // The same through the baseline (batching switched off): one write per resource.
    const off = await provider(account, { VIGIL_BATCH_WRITES: "off" });
    const more = [4, 5].map((i) =>
      off.config("vigil_monitor", { type: "http", url: `${base}/${i}`, locations: { pools: ["allworld"] } }),
    );
    const offPlans = await Promise.all(more.map((c) => off.plan("vigil_monitor", null, c)));
    await writes();
    await Promise.all(more.map((c, i) => off.apply("vigil_monitor", null, offPlans[i]!, c)));
    expect(await writes()).toEqual({ "POST /monitor": 2 });
  }, 60_000);

  it("a lone apply takes the single route; what a killed run's batch made is refused as a duplicate naming it, never adopted", async () => {
    const account = await sb.account({ plan: "enterprise" });
    const core = await provider(account);
    const base = `https://${unique()}.example.com`;
    const configs = [0, 1, 2, 3, 4].map((i) =>
      core.config("vigil_monitor", { type: "http", url: `${base}/${i}`, locations: { pools: ["allworld"] } }),
    );
    await writes();
    const lone = (await core.apply(
      "vigil_monitor",
      null,
      await core.plan("vigil_monitor", null, configs[0]!),
      configs[0]!,
    ))!;
    expect(await writes()).toEqual({ "POST /monitor": 1 });

    // A run killed during its job: the job made three monitors, and Terraform's state holds none of them.
    const killed = await account.post(
      "/monitor/bulk",
      {
        items: [1, 2, 3].map((i) => ({
          type: "http",
          url: `${base}/${i}`,
          locations: { pools: ["allworld"] },
        })),
      },
      { headers: { "idempotency-key": `killed-${unique()}` } },
    );
    expect(killed.status).toBe(202);
    for (let i = 0; (await account.get(`/job/${killed.body.jobId}`)).body.state !== "succeeded"; i++) {
      if (i > 100) throw new Error("the job did not finish");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const made = new Map(
      ((await account.get("/monitor?limit=20")).body.data as { id: string; url: string }[]).map((m) => [
        m.url,
        m.id,
      ]),
    );
    // The next run is a new provider process, whose wave holds four. The three objects exist, exactly as
    // described, yet no key of this run made them (another state may hold them): each is refused, naming the
    // object to import; the fourth is created.
    const next = await provider(account);
    const plans = await Promise.all(configs.slice(1).map((c) => next.plan("vigil_monitor", null, c)));
    const applied = await Promise.allSettled(
      configs.slice(1).map((c, i) => next.apply("vigil_monitor", null, plans[i]!, c)),
    );
    expect(applied.map((a) => a.status)).toEqual(["rejected", "rejected", "rejected", "fulfilled"]);
    for (const i of [1, 2, 3]) {
      const message = String((applied[i - 1] as PromiseRejectedResult).reason.message);
      const id = made.get(`${base}/${i}`)!;
      expect(message).toContain("duplicate_monitor");
      expect(message).toContain(`terraform import <address> ${id}`);
      // Imported, the resource plans no change.
      const imported = await next.import("vigil_monitor", id);
      expect((await next.plan("vigil_monitor", imported, configs[i]!)).action).toBe("no-op");
    }
    const listed = ((await account.get("/monitor?limit=20")).body.data as { id: string }[]).map((m) => m.id);
    expect(listed).toHaveLength(5);
    const created = (applied[3] as PromiseFulfilledResult<Instance | null>).value!;
    const ours: unknown[] = [attr(lone, "id"), attr(created, "id")];
    for (const id of ours) expect(listed).toContain(id);
  }, 60_000);

  it("updates that fit share one job; one that does not takes its own PATCH", async () => {
    const account = await sb.account({ plan: "enterprise" });
    const core = await provider(account);
    const members = [0, 1, 2].map((i) => ({
      type: "email",
      address: `c${i}-${unique()}@example.com`,
      name: `C${i}`,
    }));
    const created = await Promise.all(
      members.map(async (m) => {
        const config = core.config("vigil_contact", m);
        return (await core.apply(
          "vigil_contact",
          null,
          await core.plan("vigil_contact", null, config),
          config,
        ))!;
      }),
    );
    const next = [
      { ...members[0]!, name: "Renamed 0" },
      { ...members[1]!, name: "Renamed 1" },
      { ...members[2]!, address: `moved-${unique()}@example.com` },
    ].map((m) => core.config("vigil_contact", m));
    const plans = await Promise.all(next.map((c, i) => core.plan("vigil_contact", created[i]!, c)));
    expect(plans.map((p) => p.action)).toEqual(["update", "update", "update"]);
    await writes();
    const updated = await Promise.all(
      next.map((c, i) => core.apply("vigil_contact", created[i]!, plans[i]!, c)),
    );
    expect(await writes()).toEqual({ "POST /contact/bulk": 1, "PATCH /contact/{id}": 1 });
    expect(updated.map((u) => attr(u!, "name"))).toEqual(["Renamed 0", "Renamed 1", "C2"]);
    for (const [i, u] of updated.entries())
      expect((await core.plan("vigil_contact", u, next[i]!)).action).toBe("no-op");
  }, 60_000);
});

describeWithTerraform("batched writes, real terraform", () => {
  it("an apply where one monitor fails keeps the others in the state; the next apply, fixed, converges", async () => {
    const account = await sb.account({ plan: "enterprise" });
    const ws = await terraformWorkspace({ env: { VIGIL_ENDPOINT: sb.url, VIGIL_TOKEN: account.token } });
    try {
      const dir = join(ws.root, "config");
      await mkdir(dir);
      const base = `https://${unique()}.example.com`;
      const fixedHost = `${unique()}.example.com`;
      // The host of m[3]: one on the service's block list fails its item in the job, which no plan can predict.
      const config = (bad: string) => `terraform {
  required_providers {
    vigil = { source = "vigil/vigil" }
  }
}
provider "vigil" {}
resource "vigil_monitor" "m" {
  count     = 6
  type      = "http"
  url       = count.index == 3 ? "https://${bad}/" : "${base}/\${count.index}"
  locations = { pools = ["allworld"] }
}
`;
      await writeFile(join(dir, "main.tf"), config(`${unique()}.blocked.test`));
      await ws.ok(dir, "init", "-input=false");
      await writes();
      const failed = await ws.run(dir, "apply", "-auto-approve", "-input=false");
      expect(failed.code, described(failed)).toBe(1);
      expect(failed.stderr).toMatch(/vigil_monitor\.m\[3\]/);
      // The item's own problem, as the single route would have answered it (its pointer moved off the item).
      expect(failed.stderr).toMatch(/url_blacklisted/);
      expect(failed.stderr).not.toMatch(/items\//);
      // One job for the wave (Terraform sends up to 10 at once), not one write per monitor.
      expect((await writes())["POST /monitor/bulk"]).toBe(1);
      const state = (await ws.ok(dir, "state", "list")).stdout.trim().split("\n").sort();
      expect(state).toEqual([0, 1, 2, 4, 5].map((i) => `vigil_monitor.m[${i}]`));

      await writeFile(join(dir, "main.tf"), config(fixedHost));
      await ws.ok(dir, "apply", "-auto-approve", "-input=false");
      const plan = await ws.run(dir, "plan", "-detailed-exitcode", "-input=false");
      expect(plan.code, described(plan)).toBe(0);
      expect((await account.get("/monitor?limit=20")).body.data).toHaveLength(6);

      // A lone change takes the single route.
      await writeFile(
        join(dir, "main.tf"),
        config(fixedHost).replace(
          'type      = "http"',
          'type      = "http"\n  name      = count.index == 0 ? "Renamed" : null',
        ),
      );
      await writes();
      await ws.ok(dir, "apply", "-auto-approve", "-input=false");
      expect(await writes()).toEqual({ "PATCH /monitor/{id}": 1 });
      await ws.ok(dir, "destroy", "-auto-approve", "-input=false");
      expect((await account.get("/monitor?limit=20")).body.data).toHaveLength(0);
    } finally {
      await ws.remove();
    }
  }, 240_000);

  it("a provider killed during its job: the next apply refuses what the job made, naming each; imported, the plan is empty", async () => {
    const account = await sb.account({ plan: "enterprise" });
    const ws = await terraformWorkspace({ env: { VIGIL_ENDPOINT: sb.url, VIGIL_TOKEN: account.token } });
    try {
      const dir = join(ws.root, "config");
      await mkdir(dir);
      const base = `https://${unique()}.example.com`;
      await writeFile(
        join(dir, "main.tf"),
        `terraform {
  required_providers {
    vigil = { source = "vigil/vigil" }
  }
}
provider "vigil" {}
resource "vigil_monitor" "m" {
  count     = 8
  type      = "http"
  url       = "${base}/\${count.index}"
  locations = { pools = ["allworld"] }
}
`,
      );
      await ws.ok(dir, "init", "-input=false");
      const apply = spawn("terraform", ["apply", "-auto-approve", "-input=false"], {
        cwd: dir,
        env: ws.env,
        stdio: "ignore",
      });
      const exited = new Promise((resolve) => apply.on("close", resolve));
      // A busy machine starts terraform and its provider slowly: the bound is generous.
      const deadline = Date.now() + 120_000;
      while ((await account.get("/job?limit=1")).body.data.length === 0) {
        if (Date.now() > deadline) throw new Error("no job was submitted");
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      // The provider this apply started (found by its working folder, which is this test's own), killed.
      const pid = await providerOf(dir);
      process.kill(pid, "SIGKILL");
      await exited;
      // What the killed run's jobs made, once they end: in the account, in no state.
      const running = async () =>
        ((await account.get("/job?limit=20")).body.data as { state: string }[]).some((j) =>
          ["queued", "running"].includes(j.state),
        );
      while (await running()) {
        if (Date.now() > deadline) throw new Error("the killed run's jobs did not end");
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const addressOf = (m: { url: string }) => `vigil_monitor.m[${m.url.slice(base.length + 1)}]`;
      const kept = (await ws.run(dir, "state", "list")).stdout;
      const orphans = (
        (await account.get("/monitor?limit=20")).body.data as { id: string; url: string }[]
      ).filter((m) => !kept.includes(addressOf(m)));
      expect(orphans.length).toBeGreaterThan(0);

      // The next apply creates what is missing; what the killed run made is refused, each naming its object.
      const again = await ws.run(dir, "apply", "-auto-approve", "-input=false");
      expect(again.code, described(again)).toBe(1);
      const out = again.stderr.replace(/\s*│\s*/g, " ");
      expect(out).toContain("duplicate_monitor");
      for (const m of orphans) expect(out).toContain(`terraform import <address> ${m.id}`);
      expect((await account.get("/monitor?limit=20")).body.data).toHaveLength(8);

      // Imported (import blocks: one apply), the configuration manages all eight, and plans no change.
      const imports = orphans.map((m) => `import {\n  to = ${addressOf(m)}\n  id = "${m.id}"\n}\n`);
      await writeFile(join(dir, "imports.tf"), imports.join(""));
      await ws.ok(dir, "apply", "-auto-approve", "-input=false");
      const plan = await ws.run(dir, "plan", "-detailed-exitcode", "-input=false");
      expect(plan.code, described(plan)).toBe(0);
      await ws.ok(dir, "destroy", "-auto-approve", "-input=false");
      expect((await account.get("/monitor?limit=20")).body.data).toHaveLength(0);
    } finally {
      await ws.remove();
    }
  }, 360_000);
});

/** The pid of the vigil provider process working in `dir`. */
async function providerOf(dir: string): Promise<number> {
  const provider = programFile("terraform-provider-vigil");
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = await readFile(`/proc/${entry}/cmdline`, "utf8");
      if (cmdline.includes(provider) && (await readlink(`/proc/${entry}/cwd`)) === dir) return Number(entry);
    } catch {
      // The process ended while we looked.
    }
  }
  throw new Error(`no vigil provider runs in ${dir}`);
}
