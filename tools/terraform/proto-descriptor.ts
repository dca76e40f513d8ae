/**
 * The plugin's .proto files as protobufjs JSON, which proto-loader's `fromJSON` takes at start-up instead of
 * parsing the .proto text (one of the larger costs of a start-up that Terraform pays many times per run).
 * Generated (tools/generate.ts) so it never drifts from the .proto files, which stay the source. A tool, not
 * part of the package: protobufjs, which reads the .proto text, is a development dependency only.
 */
import { join } from "node:path";
import protobuf from "protobufjs";

export const PROTO_DIR = join(import.meta.dirname, "../../src/terraform/plugin/proto");
export const PROTO_FILES = ["tfplugin6.proto", "go-plugin.proto", "health.proto"];
export const DESCRIPTOR_PATH = "src/terraform/plugin/proto/descriptor.json";

export function protoDescriptor(): unknown {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => join(PROTO_DIR, target);
  root.loadSync(PROTO_FILES, { keepCase: true });
  return root.toJSON();
}
