/**
 * Two stacks declaring the same objects against one account, through the Pulumi protocol (each its own
 * provider process, as two `pulumi up` runs are). Their URNs are the same too (two backends, one project
 * and stack name): each step's write is keyed by the nonce its Check made from that step's `randomSeed`, so
 * the second stack never gets the first one's objects, and deleting in one leaves the other's.
 */
import type { ServiceError } from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resourceToken } from "../../src/pulumi/tokens.ts";
import { type Client, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";
import { Engine, ProviderProcess, type ResourceDecl } from "./harness.ts";

let sb: TestSandbox;
let account: Client;
const providers: ProviderProcess[] = [];
beforeAll(async () => {
  sb = await startTestSandbox();
  account = await sb.account({ plan: "business" });
});
afterAll(async () => {
  await Promise.all(providers.map((p) => p.close()));
  await sb?.close();
});

async function launch(): Promise<ProviderProcess> {
  const provider = await ProviderProcess.launch();
  providers.push(provider);
  await provider.configure({ endpoint: sb.url, token: account.token });
  return provider;
}

const unique = () => Math.random().toString(36).slice(2, 10);
const maintenanceType = resourceToken("maintenance");
const monitorType = resourceToken("monitor");
const windowOf = (name: string): ResourceDecl => ({
  name: "deploy",
  type: maintenanceType,
  inputs: () => ({ name, from: 1798941600, to: 1798945200, repeat: "weekly" }),
});
const monitorOf = (url: string): ResourceDecl => ({
  name: "shop",
  type: monitorType,
  inputs: () => ({ type: "http", url, locations: { pools: ["allworld"] } }),
});
const status = async (path: string) => (await account.get(path)).status;
const named = async (name: string) =>
  ((await account.get("/maintenance?limit=100")).body.data as { id: string; name: string }[])
    .filter((w) => w.name === name)
    .map((w) => w.id);

describe("two stacks declaring the same objects", () => {
  it("never share one: the second window is its own, the monitor a clear duplicate; a destroy leaves the other's", async () => {
    const window = windowOf(`Weekly deploy ${unique()}`);
    const monitor = monitorOf(`https://${unique()}.example.com/health`);
    const first = new Engine(await launch());
    await first.up([window, monitor]);
    const theirs = { window: first.state.get("deploy")!.id, monitor: first.state.get("shop")!.id };

    const second = new Engine(await launch());
    expect(second.urnOf(maintenanceType, "deploy")).toBe(first.urnOf(maintenanceType, "deploy"));
    await second.up([window]);
    const ours = second.state.get("deploy")!.id;
    expect(ours).not.toBe(theirs.window);
    expect((await named(String(window.inputs(() => "").name))).sort()).toEqual([theirs.window, ours].sort());
    const refused = (await second.up([window, monitor]).catch((e: unknown) => e)) as ServiceError;
    expect(refused.code).toBe(6); // ALREADY_EXISTS
    expect(refused.details).toContain("409 duplicate_monitor");
    expect(refused.details).toContain(`The object already exists as ${theirs.monitor}`);
    expect(second.state.has("shop")).toBe(false);

    await second.destroy([window, monitor]);
    expect(await status(`/maintenance/${ours}`)).toBe(404);
    expect(await status(`/maintenance/${theirs.window}`)).toBe(200);
    expect(await status(`/monitor/${theirs.monitor}`)).toBe(200);
    expect(await first.refresh()).toEqual([]);
    expect((await first.up([window, monitor])).every((s) => s.step === "same")).toBe(true);
    await first.destroy([window, monitor]);
  }, 120_000);

  it("a step's write is its seed's: the same step sent again replays (one object); another step writes its own", async () => {
    const window = windowOf(`Seeded ${unique()}`);
    const news = window.inputs(() => "");
    const pair = [await launch(), await launch()];
    const urn = new Engine(pair[0]!).urnOf(maintenanceType, "deploy");
    // A step whose seed an update plan fixed (`pulumi up --plan`), run by a process killed after its create,
    // then by the next one: the same write.
    const seed = new Uint8Array(32).fill(42);
    const created = [];
    for (const provider of pair) {
      const checked = await provider.check(urn, undefined, news, seed);
      expect(checked.failures).toEqual([]);
      expect(Object.keys(checked.inputs)).toContain("__vigilWrite");
      created.push(await provider.create(urn, checked.inputs, false));
    }
    expect(created[1]!.id).toBe(created[0]!.id);
    expect(created[0]!.properties).not.toHaveProperty("__vigilWrite");
    // Another step (another seed) of the same inputs is another write: a window of its own.
    const other = await pair[0]!.check(urn, undefined, news);
    const third = await pair[0]!.create(urn, other.inputs, false);
    expect(third.id).not.toBe(created[0]!.id);
    expect((await named(String(news.name))).sort()).toEqual([created[0]!.id, third.id].sort());
  }, 120_000);
});
