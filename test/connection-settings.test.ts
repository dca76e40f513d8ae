/**
 * The connection settings as every frontend takes them (kinds/connection.ts): the same endpoints and tokens
 * are refused by the CLI, the Terraform provider and the Pulumi provider, each in its own form, for the
 * same reason in the same words.
 */
import { describe, expect, it } from "vitest";
import { judgedApiSettings } from "../src/cli/connection.ts";
import { CliError } from "../src/cli/errors.ts";
import { endpointRefusal, tokenRefusal } from "../src/kinds/connection.ts";
import { createHandlers as pulumiHandlers } from "../src/pulumi/provider/handlers.ts";
import { encodeMsgpack, type ObjectType } from "../src/terraform/cty.ts";
import { createHandlers as terraformHandlers } from "../src/terraform/provider.ts";
import { vigil, workspace } from "./cli/vigil.ts";
import { badEndpoints, badTokens, goodEndpoints } from "./helpers/connection-cases.ts";

type Settings = { endpoint: string; token: string };
const goodToken = "vgl_token";

/** Each frontend's word on a setting: undefined when it takes both, else the refusal as it says it. */
const frontends: Record<string, (settings: Settings) => Promise<string[]>> = {
  async cli(settings) {
    try {
      judgedApiSettings(settings);
      return [];
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      return [error.message];
    }
  },
  async terraform(settings) {
    const type: ObjectType = { kind: "object", attributes: { endpoint: "string", token: "string" } };
    const config = { msgpack: Buffer.from(encodeMsgpack(settings, type)), json: Buffer.alloc(0) };
    const handlers = terraformHandlers({});
    const validated = await handlers.ValidateProviderConfig({ config });
    const configured = await handlers.ConfigureProvider({
      terraform_version: "1.11.0",
      config,
      client_capabilities: null,
    });
    // Validation and configuration agree.
    expect(validated).toEqual(configured);
    return ((configured as { diagnostics?: { summary: string; detail: string }[] }).diagnostics ?? []).map(
      (d) => `${d.summary}: ${d.detail}`,
    );
  },
  async pulumi(settings) {
    const handlers = pulumiHandlers({});
    const checked = handlers
      .CheckConfig({ news: settings })
      .failures.map((f) => `${f.property}: ${f.reason}`);
    let configured: string[] = [];
    try {
      handlers.Configure({ args: settings });
    } catch (error) {
      configured = [(error as Error).message];
    }
    // A check fails exactly when configuring would.
    expect(checked.length).toBe(configured.length);
    return [...checked, ...configured];
  },
};

describe("every frontend takes the same connection settings", () => {
  it("takes good endpoints", async () => {
    for (const endpoint of goodEndpoints)
      for (const [name, judge] of Object.entries(frontends))
        expect(await judge({ endpoint, token: goodToken }), `${name} ${endpoint}`).toEqual([]);
  });

  it("refuses bad endpoints, each frontend in its form, all for the same reason", async () => {
    for (const endpoint of badEndpoints) {
      const reason = endpointRefusal(endpoint)!;
      const settings = { endpoint, token: goodToken };
      expect(await frontends.cli!(settings), endpoint).toEqual([`--endpoint ${reason}.`]);
      expect(await frontends.terraform!(settings), endpoint).toEqual([
        `Invalid endpoint: The endpoint ${reason}.`,
      ]);
      expect(await frontends.pulumi!(settings), endpoint).toEqual([
        `endpoint: The endpoint ${reason}.`,
        `Invalid endpoint: the endpoint ${reason}.`,
      ]);
    }
  });

  it("refuses bad tokens the same way, never quoting them", async () => {
    for (const token of badTokens) {
      const reason = tokenRefusal(token)!;
      const settings = { endpoint: goodEndpoints[0]!, token };
      expect(await frontends.cli!(settings), token).toEqual([`--token ${reason}.`]);
      expect(await frontends.terraform!(settings), token).toEqual([`Invalid token: The token ${reason}.`]);
      expect(await frontends.pulumi!(settings), token).toEqual([
        `token: The token ${reason}.`,
        `Invalid token: the token ${reason}.`,
      ]);
    }
  });

  it("the CLI says it as an error, not a stack trace (an endpoint without a host once reached the client)", async () => {
    const cwd = await workspace({
      "main.yaml": "contacts:\n  ops: { type: email, address: ops@example.com }\n",
    });
    const run = await vigil(["plan", "--endpoint", "https://", "--token", goodToken], {
      cwd,
      timeoutMs: 60_000,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`Error: --endpoint ${endpointRefusal("https://")}.\n`);
  }, 90_000);
});
