#!/usr/bin/env -S node --disable-warning=ExperimentalWarning
/**
 * pulumi-resource-vigil: the Pulumi engine starts this, reads the port of its gRPC server from the first
 * line of stdout, and talks pulumirpc.ResourceProvider to it.
 */
import module from "node:module";
import { serveProvider } from "./server.ts";

// Node keeps compiled code of grpc-js and the provider between runs (in the OS temp dir).
module.enableCompileCache?.();

// stdout carries the port line and nothing else: the engine would take anything more for protocol.
console.log = console.info = console.debug = console.error;

// argv holds the engine's address (the first argument that is not a flag) and its logging and tracing flags
// (`--logtostderr`, `-v=9`, `--tracing <endpoint>`). The address serves providers that call back into the
// engine (logging, Construct); vigil calls nothing back, so argv is left unread and no flag is refused.

// The handlers load once the port line is out. No top-level await: the single-executable binary runs this
// file bundled as CommonJS.
serveProvider(async () => (await import("./handlers.ts")).createHandlers()).then(
  (server) => {
    process.stdout.write(`${server.port}\n`);
    server.preload();
    // The engine ends a provider with a signal once it is done with it; a terminal's Ctrl+C may reach the
    // whole process group too. Either way the calls in flight end first, so that Pulumi records the writes
    // they made, then the provider exits 0, quietly; a second signal exits at once.
    let stopping = false;
    for (const signal of ["SIGINT", "SIGTERM"] as const)
      process.on(signal, () => {
        if (stopping) process.exit(0);
        stopping = true;
        void server.shutdown().finally(() => process.exit(0));
      });
  },
  (error: unknown) => {
    process.stderr.write(
      `pulumi-resource-vigil: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  },
);
