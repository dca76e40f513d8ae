#!/usr/bin/env -S node --disable-warning=ExperimentalWarning
/**
 * terraform-provider-vigil: Terraform starts this as a go-plugin process, many times per run, so it does
 * the handshake first and loads the provider (kinds, engine, client) only once the handshake line is out.
 */
import module from "node:module";
import { HandshakeError } from "./plugin/handshake.ts";
import { serveProvider } from "./plugin/server.ts";

// Node keeps compiled code of grpc-js and the provider between the many short runs (in the OS temp dir).
module.enableCompileCache?.();

// stdout carries the handshake line and nothing else: Terraform would take anything more for protocol.
console.log = console.info = console.debug = console.error;

// Terraform forwards Ctrl-C to the whole process group and then calls StopProvider; the provider must not
// die on the signal itself, or Terraform loses the state of calls in flight.
process.on("SIGINT", () => {});

// The tfplugin6 handlers load after the handshake. No top-level await: the single-executable binary runs
// this file bundled as CommonJS.
serveProvider(async () => (await import("./provider.ts")).createHandlers(), {
  onShutdown: () => process.exit(0),
}).catch((error: unknown) => {
  process.stderr.write(`${error instanceof HandshakeError ? error.message : String(error)}\n`);
  process.exit(1);
});
