/**
 * Launches terraform-provider-vigil the way Terraform does: the magic cookie, PLUGIN_PROTOCOL_VERSIONS, a
 * port range and a fresh client certificate in PLUGIN_CLIENT_CERT; parses the handshake line and connects
 * with gRPC over mutual TLS, trusting only the server certificate the handshake carried.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { type Certificate, selfSignedCertificate } from "../../src/terraform/plugin/certificate.ts";
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from "../../src/terraform/plugin/handshake.ts";
import { LOADER_OPTIONS } from "../../src/terraform/plugin/server.ts";
import { PROTO_DIR, PROTO_FILES } from "../../tools/terraform/proto-descriptor.ts";
import { programCommand } from "./programs.ts";

/** The environment Terraform gives a provider; `clientCert` adds PLUGIN_CLIENT_CERT. */
export function terraformEnv(clientCert?: Certificate): NodeJS.ProcessEnv {
  return {
    ...process.env,
    [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE,
    PLUGIN_PROTOCOL_VERSIONS: "5,6",
    PLUGIN_MIN_PORT: "10000",
    PLUGIN_MAX_PORT: "25000",
    ...(clientCert ? { PLUGIN_CLIENT_CERT: clientCert.certPem } : {}),
  };
}

/**
 * Starts the provider process (`command`: the executable and its arguments; by default the package's
 * program built for this run); stdout and stderr are collected.
 */
export function spawnProvider(
  env: NodeJS.ProcessEnv,
  command: readonly string[] = programCommand("terraform-provider-vigil"),
) {
  const [file, ...args] = command;
  const child = spawn(file!, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  const output = { stdout: "", stderr: "" };
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (output.stdout += chunk));
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (output.stderr += chunk));
  const exited = once(child, "exit").then(([code]) => code as number | null);
  return { child, output, exited };
}

export interface Handshake {
  core: string;
  protocol: string;
  network: string;
  address: string;
  transport: string;
  /** The server certificate, DER, from the unpadded base64 of the line. */
  serverCertDer: Buffer;
}

export function parseHandshake(line: string): Handshake {
  const [core, protocol, network, address, transport, cert] = line.split("|");
  if (!core || !protocol || !network || !address || !transport || cert === undefined) {
    throw new Error(`not a handshake line: ${JSON.stringify(line)}`);
  }
  return { core, protocol, network, address, transport, serverCertDer: Buffer.from(cert, "base64") };
}

async function firstLine(child: ChildProcess, output: { stdout: string }): Promise<string> {
  while (!output.stdout.includes("\n")) {
    const result = await Promise.race([once(child.stdout!, "data").then(() => "data"), once(child, "exit")]);
    if (result !== "data") throw new Error("the provider exited before its handshake");
  }
  return output.stdout.slice(0, output.stdout.indexOf("\n"));
}

const toPem = (der: Buffer) =>
  `-----BEGIN CERTIFICATE-----\n${der
    .toString("base64")
    .match(/.{1,64}/g)!
    .join("\n")}\n-----END CERTIFICATE-----\n`;

type Unary = (request: object, callback: (error: grpc.ServiceError | null, response: any) => void) => void;

/** Promise-returning calls on a grpc-js client. */
function promised(client: grpc.Client) {
  return (method: string, request: object = {}) =>
    new Promise<any>((resolve, reject) =>
      ((client as any)[method] as Unary).call(client, request, (error, response) =>
        error ? reject(error) : resolve(response),
      ),
    );
}

/** Clients of the plugin's four services at `address`, over mutual TLS with `clientCert`. */
export function connect(address: string, serverCertDer: Buffer, clientCert: Certificate) {
  // The client parses the .proto files themselves; the server reads the generated descriptor.
  const definition = protoLoader.loadSync(PROTO_FILES, { ...LOADER_OPTIONS, includeDirs: [PROTO_DIR] });
  const packages = grpc.loadPackageDefinition(definition) as any;
  const credentials = grpc.credentials.createSsl(
    Buffer.from(toPem(serverCertDer)),
    Buffer.from(clientCert.keyPem),
    Buffer.from(clientCert.certPem),
  );
  // Terraform dials 127.0.0.1 and checks the certificate for the name localhost.
  const options = { "grpc.ssl_target_name_override": "localhost", "grpc.default_authority": "localhost" };
  const clients = {
    provider: new packages.tfplugin6.Provider(address, credentials, options) as grpc.Client,
    health: new packages.grpc.health.v1.Health(address, credentials, options) as grpc.Client,
    controller: new packages.plugin.GRPCController(address, credentials, options) as grpc.Client,
    stdio: new packages.plugin.GRPCStdio(address, credentials, options) as grpc.Client,
  };
  return {
    ...clients,
    provider: promised(clients.provider),
    health: promised(clients.health),
    controller: promised(clients.controller),
    /** Opens the stdio stream as go-plugin's client does. */
    streamStdio: () => (clients.stdio as any).StreamStdio({}) as grpc.ClientReadableStream<unknown>,
    close: () => {
      for (const client of Object.values(clients)) client.close();
    },
  };
}

/**
 * Launches the provider as Terraform would (with `env` added: VIGIL_ENDPOINT, ...) and connects to it;
 * `command` runs another build of it (an installed package's bin, a release binary).
 */
export async function launchProvider(env: NodeJS.ProcessEnv = {}, command?: readonly string[]) {
  const clientCert = selfSignedCertificate();
  const process = spawnProvider({ ...terraformEnv(clientCert), ...env }, command);
  const line = await firstLine(process.child, process.output);
  const handshake = parseHandshake(line);
  return {
    ...process,
    clientCert,
    line,
    handshake,
    ...connect(handshake.address, handshake.serverCertDer, clientCert),
  };
}
