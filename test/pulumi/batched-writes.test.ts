/**
 * Batched writes through pulumi-resource-vigil as the Pulumi engine drives it (its own process, over gRPC):
 * Creates that arrive together share one job and each answers its own resource or its own error; a lone one
 * takes its single route; an update that does not fit the bulk item takes its own; and a provider killed
 * while its job runs leaves objects in no state, which the next `up` refuses as duplicates naming each (never
 * adopting them: another stack may hold them), to be imported.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resourceToken } from "../../src/pulumi/tokens.ts";
import { type Client, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";
import { Engine, ProviderProcess, type ResourceDecl } from "./harness.ts";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(async () => sb?.close());

const unique = () => Math.random().toString(36).slice(2, 10);
const monitorType = resourceToken("monitor");
const contactType = resourceToken("contact");

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

async function launch(account: Client): Promise<ProviderProcess> {
  const provider = await ProviderProcess.launch();
  await provider.configure({ endpoint: sb.url, token: account.token });
  return provider;
}

const monitors = (base: string, n: number, pool = (_i: number) => "allworld"): ResourceDecl[] =>
  Array.from({ length: n }, (_, i) => ({
    name: `m${i}`,
    type: monitorType,
    inputs: () => ({ type: "http", url: `${base}/${i}`, name: `M${i}`, locations: { pools: [pool(i)] } }),
  }));

describe("batched writes through the Pulumi protocol", () => {
  it("Creates arriving together share one job; a failed item fails its own resource, at its property", async () => {
    const account = await sb.account({ plan: "enterprise" });
    const provider = await launch(account);
    try {
      const program = monitors(`https://${unique()}.example.com`, 5, (i) =>
        i === 2 ? "nowhere" : "allworld",
      );
      const engine = new Engine(provider);
      await writes();
      const results = await Promise.allSettled(
        program.map((d) =>
          provider.create(
            engine.urnOf(d.type, d.name),
            d.inputs(() => ""),
            false,
          ),
        ),
      );
      expect(results.map((r) => r.status)).toEqual([
        "fulfilled",
        "fulfilled",
        "rejected",
        "fulfilled",
        "fulfilled",
      ]);
      expect(await writes()).toEqual({ "POST /monitor/bulk": 1 });
      expect(String((results[2] as PromiseRejectedResult).reason.message)).toMatch(
        /Could not create vigil:index:Monitor: .*unknown_pool.*\n {2}locations\.pools\[0\]: unknown; got "nowhere"/,
      );
      const ids = results.flatMap((r) => (r.status === "fulfilled" ? [r.value.id] : []));
      expect(new Set(ids).size).toBe(4);

      // A lone Create takes the single route.
      const lone = monitors(`https://${unique()}.example.com`, 1)[0]!;
      await provider.create(
        engine.urnOf(lone.type, lone.name),
        lone.inputs(() => ""),
        false,
      );
      expect(await writes()).toEqual({ "POST /monitor": 1 });
    } finally {
      await provider.close();
    }
  }, 60_000);

  it("an up and a destroy of many resources take few writes; an update that does not fit takes its own", async () => {
    const account = await sb.account({ plan: "enterprise" });
    const provider = await launch(account);
    try {
      const base = `https://${unique()}.example.com`;
      const contacts = (moved: boolean): ResourceDecl[] =>
        [0, 1, 2].map((i) => ({
          name: `c${i}`,
          type: contactType,
          inputs: () => ({
            type: "email",
            address: `c${i}-${base.slice(8, 16)}${moved && i === 2 ? "-moved" : ""}@example.com`,
            name: moved ? `Renamed ${i}` : `C${i}`,
          }),
        }));
      const engine = new Engine(provider);
      await writes();
      await engine.up([...monitors(base, 12), ...contacts(false)]);
      const up = await writes();
      expect(up["POST /monitor"] ?? 0).toBe(0);
      expect(Object.values(up).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(3);

      // Two renames fit the contact bulk item; a moved address does not (the item is matched by it).
      const steps = await engine.up([...monitors(base, 12), ...contacts(true)]);
      expect(
        steps
          .filter((s) => s.step === "update")
          .map((s) => s.name)
          .sort(),
      ).toEqual(["c0", "c1", "c2"]);
      expect(await writes()).toEqual({ "POST /contact/bulk": 1, "PATCH /contact/{id}": 1 });
      expect(
        (await engine.up([...monitors(base, 12), ...contacts(true)])).every((s) => s.step === "same"),
      ).toBe(true);

      await engine.destroy([...monitors(base, 12), ...contacts(true)]);
      const destroyed = await writes();
      expect(destroyed["DELETE /monitor/{id}"] ?? 0).toBe(0);
      expect((await account.get("/monitor?limit=20")).body.data).toHaveLength(0);
      expect((await account.get("/contact?limit=20")).body.data).toHaveLength(0);
    } finally {
      await provider.close();
    }
  }, 120_000);

  it("a provider killed while its job runs leaves objects the next up refuses, naming each; imported, nothing changes", async () => {
    const account = await sb.account({ plan: "enterprise" });
    const program = monitors(`https://${unique()}.example.com`, 8);
    const killed = await launch(account);
    const engine = new Engine(killed);
    const answers = Promise.allSettled(
      program.slice(0, 6).map((d) =>
        killed.create(
          engine.urnOf(d.type, d.name),
          d.inputs(() => ""),
          false,
        ),
      ),
    );
    // Killed once its job exists: it never hears the answer, and Pulumi's state holds none of these.
    for (let i = 0; (await account.get("/job?limit=1")).body.data.length === 0; i++) {
      if (i > 200) throw new Error("no job was submitted");
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    killed.child.kill("SIGKILL");
    expect((await answers).every((a) => a.status === "rejected")).toBe(true);
    await killed.close();

    const provider = await launch(account);
    try {
      // What the killed provider's job made, once it ends: in the account, in no state.
      const deadline = Date.now() + 60_000;
      while (
        ((await account.get("/job?limit=20")).body.data as { state: string }[]).some((j) =>
          ["queued", "running"].includes(j.state),
        )
      ) {
        if (Date.now() > deadline) throw new Error("the killed provider's job did not end");
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      const made = (await account.get("/monitor?limit=50")).body.data as { id: string; url: string }[];
      expect(made.length).toBeGreaterThan(0);
      const nameOf = (url: string) => `m${url.slice(url.lastIndexOf("/") + 1)}`;

      // The next up creates the others; each of these is refused as a duplicate, naming it, never adopted.
      const again = new Engine(provider);
      const refused = (await again.up(program).catch((e: unknown) => e)) as { code: number; details: string };
      expect(refused.code).toBe(6); // ALREADY_EXISTS
      expect(refused.details).toMatch(
        /409 duplicate_monitor[\s\S]*pulumi import vigil:index:Monitor <name> /,
      );
      expect([...again.state.keys()].sort()).toEqual(
        program
          .map((d) => d.name)
          .filter((name) => !made.some((m) => nameOf(m.url) === name))
          .sort(),
      );
      expect((await account.get("/monitor?limit=50")).body.data).toHaveLength(8);

      // Imported, the stack holds all eight, and the next up changes nothing.
      for (const m of made) {
        const name = nameOf(m.url);
        const { read, checked } = await again.import(name, monitorType, m.id);
        again.state.set(name, {
          type: monitorType,
          urn: again.urnOf(monitorType, name),
          id: m.id,
          inputs: checked.inputs,
          outputs: read.properties ?? {},
        });
      }
      expect((await again.up(program)).every((s) => s.step === "same")).toBe(true);
      await again.destroy(program);
      expect((await account.get("/monitor?limit=50")).body.data).toHaveLength(0);
    } finally {
      await provider.close();
    }
  }, 120_000);
});
