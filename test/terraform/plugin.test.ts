import { X509Certificate } from "node:crypto";
import * as grpc from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { selfSignedCertificate } from "../../src/terraform/plugin/certificate.ts";
import { connect, launchProvider, spawnProvider, terraformEnv } from "../helpers/plugin.ts";

describe("terraform-provider-vigil launched as Terraform does", () => {
  let plugin: Awaited<ReturnType<typeof launchProvider>>;
  beforeAll(async () => {
    plugin = await launchProvider();
  });
  afterAll(() => {
    plugin.close();
    plugin.child.kill();
  });

  it("answers the handshake: core 1, protocol 6, gRPC on 127.0.0.1 in the port range, its certificate", () => {
    const { handshake } = plugin;
    expect([handshake.core, handshake.protocol, handshake.network, handshake.transport]).toEqual([
      "1",
      "6",
      "tcp",
      "grpc",
    ]);
    const [host, port] = handshake.address.split(":");
    expect(host).toBe("127.0.0.1");
    expect(Number(port)).toBeGreaterThanOrEqual(10000);
    expect(Number(port)).toBeLessThanOrEqual(25000);
    // go-plugin decodes the certificate with base64.RawStdEncoding: no padding.
    expect(plugin.line).not.toMatch(/=$/);
    const cert = new X509Certificate(handshake.serverCertDer);
    expect(cert.subjectAltName).toContain("DNS:localhost");
    expect(cert.verify(cert.publicKey)).toBe(true);
  });

  it("is healthy for go-plugin's ping", async () => {
    expect(await plugin.health("Check", { service: "plugin" })).toEqual({ status: "SERVING" });
    await expect(plugin.health("Check", { service: "other" })).rejects.toMatchObject({
      code: grpc.status.NOT_FOUND,
    });
  });

  it("keeps the stdio stream open without writing to it", async () => {
    const stream = plugin.streamStdio();
    const received: unknown[] = [];
    stream.on("data", (data) => received.push(data));
    stream.on("error", () => {});
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(received).toEqual([]);
    expect(stream.call?.getPeer()).toBeTruthy();
  });

  it("GetMetadata: plan_destroy, the schema is not optional, every resource type and data source", async () => {
    const response = await plugin.provider("GetMetadata");
    expect(response.server_capabilities).toMatchObject({
      plan_destroy: true,
      get_provider_schema_optional: false,
    });
    expect(response.diagnostics).toEqual([]);
    expect(response.resources.map((r: { type_name: string }) => r.type_name)).toContain("vigil_monitor");
    expect(response.data_sources.map((r: { type_name: string }) => r.type_name)).toContain("vigil_account");
  });

  it("GetProviderSchema: provider block, resource and data source schemas with cty type JSON", async () => {
    const response = await plugin.provider("GetProviderSchema");
    expect(response.diagnostics).toEqual([]);
    const providerAttributes = response.provider.block.attributes;
    expect(providerAttributes.find((a: { name: string }) => a.name === "token")).toMatchObject({
      sensitive: true,
      optional: true,
    });
    expect(Object.keys(response.resource_schemas).sort()).toEqual([
      "vigil_alert_subscription",
      "vigil_contact",
      "vigil_contact_group",
      "vigil_maintenance",
      "vigil_monitor",
      "vigil_report_subscription",
      "vigil_status_page",
      "vigil_status_page_template",
      "vigil_webhook",
    ]);
    const id = response.resource_schemas.vigil_monitor.block.attributes.find(
      (a: { name: string }) => a.name === "id",
    );
    expect(id).toMatchObject({ computed: true });
    expect(JSON.parse(id.type.toString())).toBe("string");
    expect(response.data_source_schemas.vigil_monitor).toBeDefined();
  });

  it("StopProvider answers without an error", async () => {
    expect(await plugin.provider("StopProvider")).toEqual({ Error: "" });
  });

  it("refuses a client without Terraform's certificate", async () => {
    const stranger = connect(
      plugin.handshake.address,
      plugin.handshake.serverCertDer,
      selfSignedCertificate(),
    );
    await expect(stranger.health("Check", { service: "plugin" })).rejects.toMatchObject({
      code: grpc.status.UNAVAILABLE,
    });
    stranger.close();
  });

  it("GRPCController.Shutdown stops the process with exit code 0, and stdout held only the handshake", async () => {
    await plugin.controller("Shutdown");
    expect(await plugin.exited).toBe(0);
    expect(plugin.output.stdout).toBe(`${plugin.line}\n`);
  });
});

describe("terraform-provider-vigil started by something other than Terraform", () => {
  it("refuses to run without the magic cookie (exit 1, says why, nothing on stdout)", async () => {
    const { TF_PLUGIN_MAGIC_COOKIE: _, ...env } = terraformEnv();
    const run = spawnProvider(env);
    expect(await run.exited).toBe(1);
    expect(run.output.stderr).toContain("This binary is a plugin");
    expect(run.output.stderr).toContain("run by terraform");
    expect(run.output.stdout).toBe("");
  });

  it("refuses when protocol 6 is not offered", async () => {
    const run = spawnProvider({ ...terraformEnv(), PLUGIN_PROTOCOL_VERSIONS: "4,5" });
    expect(await run.exited).toBe(1);
    expect(run.output.stderr).toContain("plugin protocol 6 only");
    expect(run.output.stdout).toBe("");
  });
});
