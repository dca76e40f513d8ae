/** pulumi-resource-vigil as the Pulumi engine meets it: the port line on stdout, then GetPluginInfo over gRPC. */
import type { ChildProcess } from "node:child_process";
import { createRequire } from "node:module";

/** The first line of the child's stdout; rejects with its stderr when it exits before one. */
export function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolveLine, reject) => {
    let out = "";
    let err = "";
    child.stderr!.on("data", (chunk) => (err += chunk));
    child.stdout!.on("data", (chunk) => {
      out += chunk;
      if (out.includes("\n")) resolveLine(out.split("\n")[0]!);
    });
    child.on("exit", (code) => reject(new Error(`exited ${code} before its port: ${err}`)));
  });
}

/** GetPluginInfo over gRPC with the stubs @pulumi/pulumi ships, as the engine calls it. */
export async function pluginInfo(port: number): Promise<string> {
  const require = createRequire(import.meta.url);
  const grpc = require("@grpc/grpc-js") as typeof import("@grpc/grpc-js");
  const { ResourceProviderClient } = require("@pulumi/pulumi/proto/provider_grpc_pb.js");
  const { Empty } = require("google-protobuf/google/protobuf/empty_pb.js");
  const client = new ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  try {
    return await new Promise((done, fail) =>
      client.getPluginInfo(new Empty(), (error: Error | null, reply: { getVersion(): string }) =>
        error ? fail(error) : done(reply.getVersion()),
      ),
    );
  } finally {
    client.close();
  }
}
