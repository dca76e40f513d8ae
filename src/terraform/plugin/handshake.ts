/**
 * The go-plugin handshake, plugin side. Terraform starts the provider with:
 * - `TF_PLUGIN_MAGIC_COOKIE`: proof that a plugin client started us, not a person at a shell;
 * - `PLUGIN_PROTOCOL_VERSIONS`: the application protocol versions it speaks (comma-separated);
 * - `PLUGIN_MIN_PORT`, `PLUGIN_MAX_PORT`: the range to listen in;
 * - `PLUGIN_CLIENT_CERT`: its own certificate (PEM) when it wants automatic mutual TLS.
 * The plugin answers with one stdout line, `CORE|APP|NETWORK|ADDRESS|PROTOCOL|CERT`, and then serves.
 */

export const MAGIC_COOKIE_KEY = "TF_PLUGIN_MAGIC_COOKIE";
export const MAGIC_COOKIE_VALUE = "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2";
/** go-plugin's own protocol version (the first field of the handshake line). */
export const CORE_PROTOCOL_VERSION = 1;
/** tfplugin6: the only provider protocol this provider speaks. */
export const PROVIDER_PROTOCOL_VERSION = 6;

export class HandshakeError extends Error {
  override name = "HandshakeError";
}

export interface Handshake {
  /** The client's certificate (PEM) when it asked for automatic mutual TLS. */
  clientCertPem?: string;
  /** Ports to try, inclusive; both 0 means "any free port". */
  minPort: number;
  maxPort: number;
}

function port(env: NodeJS.ProcessEnv, name: string): number {
  const text = env[name];
  if (text === undefined || text === "") return 0;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0 || value > 65535) {
    throw new HandshakeError(`${name} must be a port number, got ${JSON.stringify(text)}`);
  }
  return value;
}

/** Reads what Terraform put in the environment; throws a HandshakeError naming what is wrong. */
export function readHandshake(env: NodeJS.ProcessEnv): Handshake {
  if (env[MAGIC_COOKIE_KEY] !== MAGIC_COOKIE_VALUE) {
    throw new HandshakeError(
      "This binary is a plugin. It is not meant to be executed directly: it is run by terraform, " +
        "which loads the vigil provider when a configuration uses it.",
    );
  }
  const offered = (env.PLUGIN_PROTOCOL_VERSIONS ?? "").split(",").map((v) => v.trim());
  if (!offered.includes(String(PROVIDER_PROTOCOL_VERSION))) {
    throw new HandshakeError(
      `This provider speaks plugin protocol ${PROVIDER_PROTOCOL_VERSION} only, and terraform offered ` +
        `${JSON.stringify(env.PLUGIN_PROTOCOL_VERSIONS ?? "")} (PLUGIN_PROTOCOL_VERSIONS). ` +
        "Protocol 6 needs terraform 1.0 or later.",
    );
  }
  const minPort = port(env, "PLUGIN_MIN_PORT");
  const maxPort = port(env, "PLUGIN_MAX_PORT");
  if (minPort > maxPort) {
    throw new HandshakeError(`PLUGIN_MIN_PORT (${minPort}) is greater than PLUGIN_MAX_PORT (${maxPort})`);
  }
  const clientCertPem = env.PLUGIN_CLIENT_CERT;
  return clientCertPem ? { clientCertPem, minPort, maxPort } : { minPort, maxPort };
}

/**
 * The line that tells Terraform where we listen. The certificate is the server's DER in base64 without
 * padding (go-plugin decodes it with RawStdEncoding), empty without mutual TLS.
 */
export function handshakeLine(port: number, serverCertDer?: Buffer): string {
  const cert = serverCertDer ? serverCertDer.toString("base64").replace(/=+$/, "") : "";
  return [CORE_PROTOCOL_VERSION, PROVIDER_PROTOCOL_VERSION, "tcp", `127.0.0.1:${port}`, "grpc", cert].join(
    "|",
  );
}

/** The ports to try, in order: from a random one in the range, wrapping round, so parallel plugins rarely collide. */
export function candidatePorts({ minPort, maxPort }: Handshake): number[] {
  if (minPort === 0 && maxPort === 0) return [0];
  const count = maxPort - minPort + 1;
  const start = Math.floor(Math.random() * count);
  return Array.from({ length: count }, (_, i) => minPort + ((start + i) % count));
}
