/**
 * The plugin's gRPC server: the go-plugin handshake, automatic mutual TLS, go-plugin's own services and
 * tfplugin6.Provider dispatched to a `ProviderHandlers` object.
 *
 * grpc-js and proto-loader are imported here lazily (about half of the start-up time is loading them), and
 * the handlers may be given as a loader that starts only once the handshake line is out: Terraform waits for
 * that line, so everything the provider itself needs loads while Terraform connects.
 */
import type * as Grpc from "@grpc/grpc-js";
import type * as ProtoLoader from "@grpc/proto-loader";
import { commonJsExports } from "../../commonjs.ts";
import { readShipped } from "../../shipped.ts";
import { selfSignedCertificate } from "./certificate.ts";
import { candidatePorts, type Handshake, handshakeLine, readHandshake } from "./handshake.ts";
import { errorDiagnostic, PROVIDER_RPCS, type ProviderHandlers, type ProviderRpc } from "./protocol.ts";

/** How proto-loader shapes messages; protocol.ts types them accordingly. */
export const LOADER_OPTIONS = {
  keepCase: true,
  longs: Number,
  enums: String,
  bytes: Buffer,
  defaults: true,
  oneofs: true,
};

/** Terraform sends whole states and schemas in one message; gRPC's 4 MiB default is too small for large ones. */
const MAX_MESSAGE_BYTES = 256 * 1024 * 1024;
/** How long Shutdown waits for calls in flight before it cuts them. */
const SHUTDOWN_GRACE_MS = 2000;

export interface ServeOptions {
  /** Default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Where the handshake line goes; default stdout. Nothing else is ever written there. */
  writeHandshake?: (line: string) => void;
  /** Diagnostics of the plugin itself; default stderr, which go-plugin copies into Terraform's log. */
  log?: (message: string) => void;
  /** Called once the server has stopped after GRPCController.Shutdown (main.ts exits the process). */
  onShutdown?: () => void;
}

export interface PluginServer {
  port: number;
  /** The handshake line as written. */
  handshake: string;
  /** The server certificate (DER) when mutual TLS is on. */
  serverCertDer?: Buffer;
  /** Stops the server; resolves once it has. */
  shutdown(): Promise<void>;
}

export type HandlersSource = ProviderHandlers | (() => Promise<ProviderHandlers>);

/**
 * Does the handshake and serves until GRPCController.Shutdown. Throws a HandshakeError (before writing
 * anything) when the environment is not one Terraform sets up.
 */
export async function serveProvider(
  handlers: HandlersSource,
  options: ServeOptions = {},
): Promise<PluginServer> {
  const handshake = readHandshake(options.env ?? process.env);
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));

  const [grpc, protoLoader, descriptor] = await Promise.all([
    commonJsExports<typeof Grpc>(import("@grpc/grpc-js")),
    commonJsExports<typeof ProtoLoader>(import("@grpc/proto-loader")),
    // The .proto files as JSON (tools/terraform/proto-descriptor.ts): cheaper to read than the .proto text.
    readShipped("src/terraform/plugin/proto/descriptor.json"),
  ]);
  const definition = protoLoader.fromJSON(JSON.parse(descriptor), LOADER_OPTIONS);
  // proto-loader's definition maps each fully qualified service name to what addService takes.
  const service = (name: string) => definition[name] as Grpc.ServiceDefinition;

  const server = new grpc.Server({
    "grpc.max_receive_message_length": MAX_MESSAGE_BYTES,
    "grpc.max_send_message_length": MAX_MESSAGE_BYTES,
  });

  let loaded: Promise<ProviderHandlers> | undefined;
  const provider = () => {
    loaded ??= typeof handlers === "function" ? handlers() : Promise.resolve(handlers);
    return loaded;
  };
  server.addService(service("tfplugin6.Provider"), providerService(provider, log));

  server.addService(service("grpc.health.v1.Health"), {
    Check(call: Grpc.ServerUnaryCall<{ service: string }, unknown>, callback: Grpc.sendUnaryData<unknown>) {
      // go-plugin pings the service "plugin"; "" asks about the server as a whole.
      if (call.request.service === "" || call.request.service === "plugin") {
        callback(null, { status: "SERVING" });
      } else {
        callback({ code: grpc.status.NOT_FOUND, details: `unknown service ${call.request.service}` });
      }
    },
  });

  // go-plugin's client opens this stream once and reads it until the plugin exits. Our stdout is only the
  // handshake and our logs go to stderr, so nothing is ever sent on it; it just stays open.
  const stdioStreams = new Set<Grpc.ServerWritableStream<unknown, unknown>>();
  server.addService(service("plugin.GRPCStdio"), {
    StreamStdio(call: Grpc.ServerWritableStream<unknown, unknown>) {
      stdioStreams.add(call);
      call.on("cancelled", () => stdioStreams.delete(call));
    },
  });

  let stopping: Promise<void> | undefined;
  const shutdown = () => {
    stopping ??= new Promise<void>((resolve) => {
      for (const call of stdioStreams) call.end();
      stdioStreams.clear();
      const force = setTimeout(() => server.forceShutdown(), SHUTDOWN_GRACE_MS);
      server.tryShutdown(() => {
        clearTimeout(force);
        resolve();
      });
    });
    return stopping;
  };
  server.addService(service("plugin.GRPCController"), {
    Shutdown(_call: unknown, callback: Grpc.sendUnaryData<unknown>) {
      callback(null, {});
      // After the answer is on its way: the graceful shutdown lets it finish.
      setImmediate(() => void shutdown().then(() => options.onShutdown?.()));
    },
  });

  const certificate = handshake.clientCertPem ? selfSignedCertificate() : undefined;
  const credentials =
    certificate && handshake.clientCertPem
      ? grpc.ServerCredentials.createSsl(
          Buffer.from(handshake.clientCertPem),
          [{ private_key: Buffer.from(certificate.keyPem), cert_chain: Buffer.from(certificate.certPem) }],
          // Only the Terraform process that started us (the holder of that certificate's key) may call.
          true,
        )
      : grpc.ServerCredentials.createInsecure();

  const port = await bind(server, credentials, handshake);
  const line = handshakeLine(port, certificate?.der);
  (options.writeHandshake ?? ((l: string) => process.stdout.write(`${l}\n`)))(line);
  // Warm the handlers up while Terraform connects; a failure surfaces as diagnostics on the first call.
  provider().catch(() => {});

  return {
    port,
    handshake: line,
    ...(certificate ? { serverCertDer: certificate.der } : {}),
    shutdown,
  };
}

async function bind(server: Grpc.Server, credentials: Grpc.ServerCredentials, handshake: Handshake) {
  let lastError: Error | undefined;
  for (const candidate of candidatePorts(handshake)) {
    try {
      return await new Promise<number>((resolve, reject) =>
        server.bindAsync(`127.0.0.1:${candidate}`, credentials, (error, port) =>
          error ? reject(error) : resolve(port),
        ),
      );
    } catch (error) {
      lastError = error as Error;
    }
  }
  throw new Error(
    `could not listen on 127.0.0.1 (ports ${handshake.minPort}-${handshake.maxPort}): ${lastError?.message}`,
  );
}

/** tfplugin6.Provider: every RPC calls the handler of the same name; a throw becomes a diagnostic. */
function providerService(provider: () => Promise<ProviderHandlers>, log: (message: string) => void) {
  const service: Record<string, Grpc.handleUnaryCall<unknown, unknown>> = {};
  for (const rpc of PROVIDER_RPCS) {
    service[rpc] = (call, callback) => {
      provider()
        .then((handlers) => (handlers[rpc] as (request: unknown) => unknown)(call.request))
        .then(
          (response) => callback(null, response),
          (error: unknown) => {
            log(`${rpc} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
            callback(null, failure(rpc, error));
          },
        );
    };
  }
  return service;
}

function failure(rpc: ProviderRpc, error: unknown) {
  if (rpc === "StopProvider") return { Error: error instanceof Error ? error.message : String(error) };
  return { diagnostics: [errorDiagnostic(error)] };
}
