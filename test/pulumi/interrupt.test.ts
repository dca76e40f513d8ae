/**
 * pulumi-resource-vigil and SIGINT: the engine sends it once it is done with the plugin, and a terminal's
 * Ctrl+C may reach the plugin's process group too. Either way a write in flight ends and is answered, so the
 * engine records it (an object created but never answered would stay in no state), then the provider exits
 * 0, printing nothing: no stack trace (docs/cli.md, "Ctrl+C").
 */
import { once } from "node:events";
import { afterAll, beforeAll, expect, it } from "vitest";
import { resourceToken } from "../../src/pulumi/tokens.ts";
import { type HoldingProxy, holdingProxy } from "../helpers/holding-proxy.ts";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";
import { Engine, ProviderProcess } from "./harness.ts";

let sb: TestSandbox;
let proxy: HoldingProxy;
beforeAll(async () => {
  sb = await startTestSandbox();
  proxy = await holdingProxy(sb.url, (method, path) => method === "POST" && path === "/maintenance");
});
afterAll(async () => {
  await proxy?.release();
  await proxy?.close();
  await sb?.close();
});

it("SIGINT during a create: the create ends and is answered, then the provider exits 0 quietly", {
  timeout: 60_000,
}, async () => {
  const account = await sb.account({ plan: "business" });
  const provider = await ProviderProcess.launch();
  let stderr = "";
  provider.child.stderr!.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = once(provider.child, "exit");
  await provider.configure({ endpoint: proxy.url, token: account.token });
  const engine = new Engine(provider);
  const up = engine.up([
    {
      name: "deploy",
      type: resourceToken("maintenance"),
      inputs: () => ({ name: "Deploy", from: 1798941600, to: 1798945200, repeat: "weekly" }),
    },
  ]);
  await proxy.arrival();
  provider.child.kill("SIGINT");
  await proxy.release();
  const steps = await up;
  expect(steps.map((s) => s.step)).toEqual(["create"]);
  const id = engine.state.get("deploy")?.id;
  expect(id).toBeTruthy();
  expect((await account.get(`/maintenance/${id}`)).status).toBe(200);
  const [code, signal] = await exited;
  expect({ code, signal }).toEqual({ code: 0, signal: null });
  expect(stderr).not.toMatch(/\n\s+at |Error/);
  provider.client.close();
});
