/**
 * A webhook created without `secret` gets one the service generates and shows once: the provider returns it
 * as the secret output `generatedSecret` and keeps it through reads and updates.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHandlers, type ProviderHandlers } from "../../src/pulumi/provider/handlers.ts";
import { isSecret, type Props, secret } from "../../src/pulumi/provider/values.ts";
import { resourceToken } from "../../src/pulumi/tokens.ts";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

let sb: TestSandbox;
let p: ProviderHandlers;
beforeAll(async () => {
  sb = await startTestSandbox();
  const account = await sb.account({ plan: "enterprise" });
  p = createHandlers({});
  p.Configure({ args: { endpoint: sb.url, token: secret(account.token) } });
});
afterAll(async () => sb?.close());

const urn = (name: string) => `urn:pulumi:dev::proj::${resourceToken("webhook")}::${name}`;
const webhook = (path: string, members: Props = {}): Props => ({
  url: `https://hooks.example.com/${path}`,
  events: ["monitor.down"],
  scope: { all: true },
  ...members,
});

function generated(properties: Props): unknown {
  const value = properties.generatedSecret;
  expect(isSecret(value), "generatedSecret is a secret output").toBe(true);
  return (value as { value: unknown }).value;
}

describe("Webhook generatedSecret", () => {
  it("is the secret the create answered, a secret output kept through read and update", async () => {
    const name = urn("generated");
    const inputs = (await p.Check({ urn: name, news: webhook("pulumi-generated") })).inputs;
    const preview = await p.Create({ urn: name, properties: inputs, preview: true });
    expect(preview.properties.generatedSecret).toBeDefined();
    const created = await p.Create({ urn: name, properties: inputs });
    const value = generated(created.properties);
    expect(value).toMatch(/^whsec_/);
    const read = await p.Read({ urn: name, id: created.id, properties: created.properties, inputs });
    expect(generated(read!.properties!)).toBe(value);
    const renamed = await p.Check({
      urn: name,
      olds: inputs,
      news: webhook("pulumi-generated", { name: "Renamed" }),
    });
    const updated = await p.Update({
      urn: name,
      id: created.id,
      olds: created.properties,
      news: renamed.inputs,
      oldInputs: inputs,
    });
    expect(generated(updated.properties!)).toBe(value);
  });

  it("is absent when the program sets the secret", async () => {
    const name = urn("own");
    const inputs = (
      await p.Check({
        urn: name,
        news: webhook("pulumi-own", { secret: "own-secret-0123456789" }),
      })
    ).inputs;
    // Check hands the secret back as a secret, though the program passed it plainly.
    expect(isSecret(inputs.secret)).toBe(true);
    const created = await p.Create({ urn: name, properties: inputs });
    expect(created.properties.generatedSecret).toBeUndefined();
  });
});
