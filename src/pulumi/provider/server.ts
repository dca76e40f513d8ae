/**
 * The gRPC side of pulumi-resource-vigil: pulumirpc.ResourceProvider served with the stubs @pulumi/pulumi
 * ships (google-protobuf messages), each call converted to the plain request of a handler (handlers.ts)
 * and its answer back to a message. Whatever a handler throws becomes a gRPC status; methods vigil has no
 * use for (Construct, Call, Attach, GetMapping, Parameterize, Handshake...) answer UNIMPLEMENTED.
 *
 * grpc-js and the stubs are loaded here, when serving starts, and the handlers (kinds, engine, client) only
 * once the port is announced: Pulumi waits for the port line, so they load while it connects.
 */
import type * as Grpc from "@grpc/grpc-js";
import type * as ProviderPb from "@pulumi/pulumi/proto/provider_pb.js";
import type * as StatusPb from "@pulumi/pulumi/proto/status_pb.js";
import type * as AnyPb from "google-protobuf/google/protobuf/any_pb.js";
import type * as StructPb from "google-protobuf/google/protobuf/struct_pb.js";
import { commonJsExports as exportsOf } from "../../commonjs.ts";
import type { ProviderHandlers } from "./handlers.ts";
import type { Props } from "./values.ts";

/** Pulumi sends whole states in one message; gRPC's 4 MiB default is too small for large ones. */
const MAX_MESSAGE_BYTES = 256 * 1024 * 1024;

export interface ProviderServer {
  port: number;
  /** Starts loading the handlers, once the port is announced; calls wait for them anyway. */
  preload(): void;
  shutdown(): Promise<void>;
}

type Message = { [method: string]: (...args: never[]) => unknown };
type Unary = (call: { request: Message }, callback: (error: unknown, response?: unknown) => void) => void;

export async function serveProvider(
  handlers: ProviderHandlers | (() => Promise<ProviderHandlers>),
  options: { host?: string; log?: (message: string) => void } = {},
): Promise<ProviderServer> {
  const proto = await loadProto();
  const { grpc, ResourceProviderService } = proto;
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));
  let loaded: Promise<ProviderHandlers> | undefined;
  const ready = () => {
    loaded ??= typeof handlers === "function" ? handlers() : Promise.resolve(handlers);
    return loaded;
  };
  const server = new grpc.Server({
    "grpc.max_receive_message_length": MAX_MESSAGE_BYTES,
    "grpc.max_send_message_length": MAX_MESSAGE_BYTES,
  });
  server.addService(ResourceProviderService, implementation(proto, ready, log));
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(
      `${options.host ?? "127.0.0.1"}:0`,
      grpc.ServerCredentials.createInsecure(),
      (error, bound) => (error ? reject(error) : resolve(bound)),
    ),
  );
  return {
    port,
    preload: () => void ready().catch(() => {}),
    shutdown: () =>
      new Promise<void>((resolve) => {
        server.tryShutdown(() => resolve());
      }),
  };
}

/** grpc-js and the stubs @pulumi/pulumi ships, loaded when serving starts. */
async function loadProto() {
  // Literal specifiers, so that the release's bundler finds them.
  const [grpc, { ResourceProviderService }, pb, { PluginInfo }, { Struct }, { Empty }, { Status }, { Any }] =
    await Promise.all([
      exportsOf<typeof Grpc>(import("@grpc/grpc-js")),
      exportsOf<{ ResourceProviderService: Grpc.ServiceDefinition }>(
        import("@pulumi/pulumi/proto/provider_grpc_pb.js"),
      ),
      exportsOf<typeof ProviderPb>(import("@pulumi/pulumi/proto/provider_pb.js")),
      exportsOf<{ PluginInfo: new () => { setVersion(v: string): unknown } }>(
        import("@pulumi/pulumi/proto/plugin_pb.js"),
      ),
      exportsOf<typeof StructPb>(import("google-protobuf/google/protobuf/struct_pb.js")),
      exportsOf<{ Empty: new () => unknown }>(import("google-protobuf/google/protobuf/empty_pb.js")),
      exportsOf<typeof StatusPb>(import("@pulumi/pulumi/proto/status_pb.js")),
      exportsOf<typeof AnyPb>(import("google-protobuf/google/protobuf/any_pb.js")),
    ]);
  return { grpc, ResourceProviderService, pb, PluginInfo, Struct, Empty, Status, Any };
}

type Proto = Awaited<ReturnType<typeof loadProto>>;

/** The service's implementation: each method vigil serves, once the handlers are ready; UNIMPLEMENTED for the rest. */
function implementation(
  proto: Proto,
  ready: () => Promise<ProviderHandlers>,
  log: (message: string) => void,
): Grpc.UntypedServiceImplementation {
  const { grpc, ResourceProviderService } = proto;
  const methods = messageMethods(proto);
  const toStatus = statusOf(proto, log);
  const served: Grpc.UntypedServiceImplementation = {};
  // The service definition names its methods in lower camel case (`getPluginInfo`).
  for (const [name, definition] of Object.entries(ResourceProviderService)) {
    const method = methods[name.charAt(0).toUpperCase() + name.slice(1)];
    if (definition.responseStream) {
      served[name] = ((call: Grpc.ServerWritableStream<unknown, unknown>) =>
        call.emit("error", {
          code: grpc.status.UNIMPLEMENTED,
          details: `vigil does not serve ${name}`,
        })) as never;
      continue;
    }
    const unary: Unary = (call, callback) => {
      if (!method) {
        callback({ code: grpc.status.UNIMPLEMENTED, details: `vigil does not serve ${name}` });
        return;
      }
      ready()
        .then((h) => method(h, call.request))
        .then(
          (response) => callback(null, response),
          (error: unknown) => callback(toStatus(error)),
        );
    };
    served[name] = unary as never;
  }
  return served;
}

/** Messages to plain values and back, as the methods need them. */
function conversions({ pb, Struct }: Proto) {
  /** A Struct field as properties; `undefined` when the message does not carry it. */
  const props = (message: Message, field: string): Props | undefined => {
    const has = message[`has${field}`] as (() => boolean) | undefined;
    if (has && !has.call(message)) return undefined;
    const struct = (message[`get${field}`] as () => StructPb.Struct | undefined).call(message);
    return struct ? (struct.toJavaScript() as Props) : undefined;
  };
  const struct = (value: Props) => Struct.fromJavaScript(value as never);
  const resource = (r: Message) => ({
    urn: r.getUrn!() as string,
    type: ((r.getType as (() => string) | undefined)?.() ?? "") || undefined,
  });
  const failures = (list: { property: string; reason: string }[]) =>
    list.map((f) => new pb.CheckFailure().setProperty(f.property).setReason(f.reason));
  const checkResponse = (result: { inputs: Props; failures: { property: string; reason: string }[] }) =>
    new pb.CheckResponse().setInputs(struct(result.inputs)).setFailuresList(failures(result.failures));
  const diffResponse = (d: ReturnType<ProviderHandlers["Diff"]>) => {
    const response = new pb.DiffResponse()
      .setChanges(pb.DiffResponse.DiffChanges[d.changes])
      .setDiffsList(d.diffs)
      .setReplacesList(d.replaces)
      .setStablesList(d.stables)
      .setDeletebeforereplace(d.deleteBeforeReplace)
      .setHasdetaileddiff(d.hasDetailedDiff);
    const detailed = response.getDetaileddiffMap();
    for (const [path, diff] of Object.entries(d.detailedDiff))
      detailed.set(
        path,
        new pb.PropertyDiff().setKind(pb.PropertyDiff.Kind[diff.kind]).setInputdiff(diff.inputDiff),
      );
    return response;
  };
  return { props, struct, resource, failures, checkResponse, diffResponse };
}

type Method = (h: ProviderHandlers, r: Message) => Promise<unknown> | unknown;

/** The implementation of each method vigil serves: request message → response message. */
function messageMethods(proto: Proto): Record<string, Method> {
  return { ...providerMethods(proto), ...resourceMethods(proto) };
}

/** The provider's own methods: its version, its schema and its configuration. */
function providerMethods(proto: Proto): Record<string, Method> {
  const { pb, PluginInfo } = proto;
  const { props, checkResponse, diffResponse } = conversions(proto);
  return {
    GetPluginInfo: async (h) => {
      const info = new PluginInfo();
      info.setVersion((await h.GetPluginInfo()).version);
      return info;
    },
    GetSchema: async (h, r) =>
      new pb.GetSchemaResponse().setSchema(
        (await h.GetSchema({ version: r.getVersion!() as number })).schema,
      ),
    CheckConfig: (h, r) =>
      checkResponse(
        h.CheckConfig({ urn: r.getUrn!() as string, olds: props(r, "Olds"), news: props(r, "News") ?? {} }),
      ),
    DiffConfig: (h, r) =>
      diffResponse(
        h.DiffConfig({
          olds: props(r, "Olds") ?? {},
          news: props(r, "News") ?? {},
          oldInputs: props(r, "OldInputs"),
        }),
      ),
    Configure: (h, r) => {
      const variables: Record<string, string> = {};
      (r.getVariablesMap!() as { forEach(f: (v: string, k: string) => void): void }).forEach((v, k) => {
        variables[k] = v;
      });
      const answer = h.Configure({ variables, args: props(r, "Args") });
      return new pb.ConfigureResponse()
        .setAcceptsecrets(answer.acceptSecrets)
        .setSupportspreview(answer.supportsPreview)
        .setAcceptresources(answer.acceptResources)
        .setAcceptoutputs(answer.acceptOutputs);
    },
  };
}

/** The resources' methods, the functions' (`Invoke`) and `Cancel`. */
function resourceMethods(proto: Proto): Record<string, Method> {
  const { pb, Empty } = proto;
  const { props, struct, resource, failures, checkResponse, diffResponse } = conversions(proto);
  return {
    Check: async (h, r) =>
      checkResponse(
        await h.Check({
          ...resource(r),
          olds: props(r, "Olds"),
          news: props(r, "News") ?? {},
          randomSeed: r.getRandomseed_asU8!() as Uint8Array,
        }),
      ),
    Diff: (h, r) =>
      diffResponse(
        h.Diff({
          ...resource(r),
          id: r.getId!() as string,
          olds: props(r, "Olds") ?? {},
          news: props(r, "News") ?? {},
          oldInputs: props(r, "OldInputs"),
        }),
      ),
    Create: async (h, r) => {
      const created = await h.Create({
        ...resource(r),
        properties: props(r, "Properties") ?? {},
        preview: r.getPreview!() as boolean,
      });
      return new pb.CreateResponse().setId(created.id).setProperties(struct(created.properties));
    },
    Read: async (h, r) => {
      const read = await h.Read({
        ...resource(r),
        id: r.getId!() as string,
        properties: props(r, "Properties"),
        inputs: props(r, "Inputs"),
      });
      const response = new pb.ReadResponse().setId(read.id);
      if (read.properties) response.setProperties(struct(read.properties));
      if (read.inputs) response.setInputs(struct(read.inputs));
      return response;
    },
    Update: async (h, r) => {
      const updated = await h.Update({
        ...resource(r),
        id: r.getId!() as string,
        olds: props(r, "Olds") ?? {},
        news: props(r, "News") ?? {},
        oldInputs: props(r, "OldInputs"),
        preview: r.getPreview!() as boolean,
      });
      return new pb.UpdateResponse().setProperties(struct(updated.properties));
    },
    Delete: async (h, r) => {
      await h.Delete({ ...resource(r), id: r.getId!() as string, properties: props(r, "Properties") ?? {} });
      return new Empty();
    },
    Invoke: async (h, r) => {
      const answer = await h.Invoke({ tok: r.getTok!() as string, args: props(r, "Args") });
      return new pb.InvokeResponse()
        .setReturn(struct(answer.return))
        .setFailuresList(failures(answer.failures));
    },
    Cancel: (h) => {
      h.Cancel();
      return new Empty();
    },
  };
}

/** A handler's error as a gRPC status; an internal one is logged with its stack. */
function statusOf(proto: Proto, log: (message: string) => void) {
  const { grpc, pb, Any, Status } = proto;
  const { struct } = conversions(proto);
  /**
   * An object created but not finished travels as a status detail, pulumirpc.ErrorResourceInitFailed in
   * `grpc-status-details-bin` (a google.rpc.Status), which is how the engine learns its id and properties.
   */
  const initFailure = (error: unknown): Grpc.Metadata | undefined => {
    const failed = error as Partial<{ id: string; properties: Props; message: string }>;
    if (typeof failed.id !== "string" || !failed.properties) return undefined;
    const detail = new pb.ErrorResourceInitFailed()
      .setId(failed.id)
      .setProperties(struct(failed.properties))
      .setReasonsList([failed.message ?? ""]);
    const any = new Any();
    any.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
    const status = new Status().setCode(grpc.status.UNKNOWN).setMessage(failed.message ?? "");
    status.addDetails(any);
    const metadata = new grpc.Metadata();
    metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
    return metadata;
  };
  return (error: unknown) => {
    const code =
      typeof (error as { code?: unknown }).code === "number" ? (error as { code: number }).code : 13;
    const message = error instanceof Error ? error.message : String(error);
    if (code === 13) log(`vigil provider: ${error instanceof Error ? (error.stack ?? message) : message}`);
    const initFailed = initFailure(error);
    return { code, details: message, message, ...(initFailed && { metadata: initFailed }) };
  };
}
