/**
 * Plays the Pulumi engine against pulumi-resource-vigil: launches the provider as its own process, reads the
 * port from its stdout, and talks pulumirpc.ResourceProvider to it with the stubs @pulumi/pulumi ships.
 * `Engine` runs what `pulumi up`, `refresh`, `import` and `destroy` run, resource by resource, with
 * references between resources (unknown during preview), keeping inputs and outputs as the engine's state
 * does. Used by test/pulumi/protocol.test.ts and bench/pulumi.ts.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { createRequire } from "node:module";
import { createInterface } from "node:readline";
import type * as Grpc from "@grpc/grpc-js";
import type * as ProviderPb from "@pulumi/pulumi/proto/provider_pb.js";
import type * as StructPb from "google-protobuf/google/protobuf/struct_pb.js";
import { type Props, unknownValue } from "../../src/pulumi/provider/values.ts";
import { programCommand } from "../helpers/programs.ts";

const require = createRequire(import.meta.url);
const grpc = require("@grpc/grpc-js") as typeof Grpc;
const pb = require("@pulumi/pulumi/proto/provider_pb.js") as typeof ProviderPb;
const { ResourceProviderClient } = require("@pulumi/pulumi/proto/provider_grpc_pb.js") as {
  ResourceProviderClient: new (address: string, credentials: Grpc.ChannelCredentials) => Grpc.Client;
};
const { Struct } = require("google-protobuf/google/protobuf/struct_pb.js") as typeof StructPb;
const { Empty } = require("google-protobuf/google/protobuf/empty_pb.js") as { Empty: new () => unknown };

type Message = { [method: string]: (...args: never[]) => unknown };
const struct = (value: Props) => Struct.fromJavaScript(value as never);
const plain = (value: StructPb.Struct | undefined): Props | undefined =>
  value ? (value.toJavaScript() as Props) : undefined;

export interface DiffAnswer {
  changes: "DIFF_UNKNOWN" | "DIFF_NONE" | "DIFF_SOME";
  diffs: string[];
  replaces: string[];
  stables: string[];
  deleteBeforeReplace: boolean;
  detailedDiff: Record<string, { kind: string; inputDiff: boolean }>;
  hasDetailedDiff: boolean;
}

const diffChanges = ["DIFF_UNKNOWN", "DIFF_NONE", "DIFF_SOME"] as const;
const diffKinds = ["ADD", "ADD_REPLACE", "DELETE", "DELETE_REPLACE", "UPDATE", "UPDATE_REPLACE"];

/** The provider as its own process, and a client of its ResourceProvider service. */
export class ProviderProcess {
  readonly child: ChildProcess;
  readonly port: number;
  /** From spawning the process to its port line. */
  readonly startupMs: number;
  readonly client: Grpc.Client;

  private constructor(child: ChildProcess, port: number, startupMs: number) {
    this.child = child;
    this.port = port;
    this.startupMs = startupMs;
    this.client = new ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  }

  /** Starts the provider as the engine does: its own address first, then the engine's usual flags. */
  static async launch(env: NodeJS.ProcessEnv = {}): Promise<ProviderProcess> {
    const started = performance.now();
    const [node, ...flags] = programCommand("pulumi-resource-vigil");
    const child = spawn(node, [...flags, "127.0.0.1:1", "--logtostderr", "-v=9"], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, VIGIL_ENDPOINT: "", VIGIL_TOKEN: "", ...env },
    });
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const lines = createInterface({ input: child.stdout! });
    const exited = once(child, "exit").then(([code]) => {
      throw new Error(`the provider exited (${code}) before its port line: ${stderr}`);
    });
    const [line] = (await Promise.race([once(lines, "line"), exited])) as [string];
    const startupMs = performance.now() - started;
    if (!/^\d+$/.test(line))
      throw new Error(`the provider's first line is not a port: ${JSON.stringify(line)}`);
    const provider = new ProviderProcess(child, Number(line), startupMs);
    // Nothing but the port line, ever.
    lines.on("line", (more) => {
      provider.extraStdout.push(more);
    });
    return provider;
  }

  /** Lines the provider wrote to stdout after its port line (there must be none). */
  readonly extraStdout: string[] = [];

  /** One unary call with a request message; rejects with the gRPC error. */
  call<T = Message>(method: string, request: unknown): Promise<T> {
    const fn = (this.client as unknown as Record<string, Function>)[method]!;
    return new Promise((resolve, reject) =>
      fn.call(this.client, request, (error: Grpc.ServiceError | null, response: T) =>
        error ? reject(error) : resolve(response),
      ),
    );
  }

  async getPluginInfo(): Promise<string> {
    return (await this.call<{ getVersion(): string }>("getPluginInfo", new Empty())).getVersion();
  }
  async getSchema(): Promise<string> {
    return (
      await this.call<ProviderPb.GetSchemaResponse>("getSchema", new pb.GetSchemaRequest())
    ).getSchema();
  }
  async checkConfig(news: Props) {
    const request = new pb.CheckRequest()
      .setUrn("urn:pulumi:dev::p::pulumi:providers:vigil::default")
      .setNews(struct(news));
    return checkAnswer(await this.call<ProviderPb.CheckResponse>("checkConfig", request));
  }
  async configure(args: Props) {
    const request = new pb.ConfigureRequest()
      .setArgs(struct(args))
      .setAcceptsecrets(true)
      .setAcceptresources(true);
    for (const [k, v] of Object.entries(args))
      if (typeof v === "string") request.getVariablesMap().set(`vigil:config:${k}`, v);
    const response = await this.call<ProviderPb.ConfigureResponse>("configure", request);
    return { acceptSecrets: response.getAcceptsecrets(), supportsPreview: response.getSupportspreview() };
  }
  /** Check with a step's `randomSeed`: 32 random bytes, as the engine makes for each step without a plan. */
  async check(urn: string, olds: Props | undefined, news: Props, seed: Uint8Array = randomBytes(32)) {
    const request = new pb.CheckRequest().setUrn(urn).setNews(struct(news)).setRandomseed(seed);
    if (olds) request.setOlds(struct(olds));
    return checkAnswer(await this.call<ProviderPb.CheckResponse>("check", request));
  }
  async diff(urn: string, id: string, olds: Props, news: Props, oldInputs: Props): Promise<DiffAnswer> {
    const request = new pb.DiffRequest()
      .setUrn(urn)
      .setId(id)
      .setOlds(struct(olds))
      .setNews(struct(news))
      .setOldInputs(struct(oldInputs));
    const r = await this.call<ProviderPb.DiffResponse>("diff", request);
    const detailedDiff: DiffAnswer["detailedDiff"] = {};
    r.getDetaileddiffMap().forEach((v, k) => {
      detailedDiff[k] = { kind: diffKinds[v.getKind()]!, inputDiff: v.getInputdiff() };
    });
    return {
      changes: diffChanges[r.getChanges()]!,
      diffs: r.getDiffsList(),
      replaces: r.getReplacesList(),
      stables: r.getStablesList(),
      deleteBeforeReplace: r.getDeletebeforereplace(),
      detailedDiff,
      hasDetailedDiff: r.getHasdetaileddiff(),
    };
  }
  async create(urn: string, properties: Props, preview: boolean) {
    const request = new pb.CreateRequest().setUrn(urn).setProperties(struct(properties)).setPreview(preview);
    const r = await this.call<ProviderPb.CreateResponse>("create", request);
    return { id: r.getId(), properties: plain(r.getProperties()) ?? {} };
  }
  async read(urn: string, id: string, properties?: Props, inputs?: Props) {
    const request = new pb.ReadRequest().setUrn(urn).setId(id);
    if (properties) request.setProperties(struct(properties));
    if (inputs) request.setInputs(struct(inputs));
    const r = await this.call<ProviderPb.ReadResponse>("read", request);
    return { id: r.getId(), properties: plain(r.getProperties()), inputs: plain(r.getInputs()) };
  }
  async update(urn: string, id: string, olds: Props, news: Props, oldInputs: Props, preview: boolean) {
    const request = new pb.UpdateRequest()
      .setUrn(urn)
      .setId(id)
      .setOlds(struct(olds))
      .setNews(struct(news))
      .setOldInputs(struct(oldInputs))
      .setPreview(preview);
    const r = await this.call<ProviderPb.UpdateResponse>("update", request);
    return plain(r.getProperties()) ?? {};
  }
  async delete(urn: string, id: string, properties: Props) {
    await this.call("delete", new pb.DeleteRequest().setUrn(urn).setId(id).setProperties(struct(properties)));
  }
  async invoke(tok: string, args: Props = {}) {
    const r = await this.call<ProviderPb.InvokeResponse>(
      "invoke",
      new pb.InvokeRequest().setTok(tok).setArgs(struct(args)),
    );
    return plain(r.getReturn()) ?? {};
  }

  async close(): Promise<void> {
    this.client.close();
    // A process ended by a signal keeps exitCode null: signalCode says it is gone (its exit already fired).
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = once(this.child, "exit");
      this.child.kill("SIGTERM");
      await exited;
    }
  }
}

function checkAnswer(r: ProviderPb.CheckResponse) {
  return {
    inputs: plain(r.getInputs()) ?? {},
    failures: r.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
  };
}

// ---------------------------------------------------------------------------
// The engine

/** A resource of a program: its inputs may name other resources' ids through `ref`. */
export interface ResourceDecl {
  name: string;
  type: string;
  inputs: (ref: (name: string) => string) => Props;
}

export interface ResourceState {
  type: string;
  urn: string;
  id: string;
  inputs: Props;
  outputs: Props;
}

export type Step = "create" | "update" | "replace" | "same";

export interface StepRecord {
  name: string;
  step: Step;
  diff?: DiffAnswer;
  /** The outputs the preview answered (unknowns and all). */
  preview?: Props;
  failures?: { property: string; reason: string }[];
}

/** Runs what Pulumi runs: a resource starts once those it references are done, up to `parallel` at once. */
export class Engine {
  readonly provider: ProviderProcess;
  readonly state = new Map<string, ResourceState>();
  readonly parallel: number;

  constructor(provider: ProviderProcess, parallel = 16) {
    this.provider = provider;
    this.parallel = parallel;
  }

  urnOf(type: string, name: string): string {
    return `urn:pulumi:dev::vigil-harness::${type}::${name}`;
  }

  /** `pulumi preview` (preview: true) or `pulumi up`: check, diff, then create, update or replace. */
  async up(program: readonly ResourceDecl[], options: { preview?: boolean } = {}): Promise<StepRecord[]> {
    const preview = options.preview ?? false;
    const done = new Map<string, Promise<void>>();
    const ids = new Map<string, string>();
    const records: StepRecord[] = [];
    const byName = new Map(program.map((r) => [r.name, r]));
    const limit = semaphore(this.parallel);
    const run = (decl: ResourceDecl): Promise<void> => {
      let promise = done.get(decl.name);
      if (promise) return promise;
      const deps = new Set<string>();
      decl.inputs((name) => {
        deps.add(name);
        return "";
      });
      promise = (async () => {
        await Promise.all([...deps].map((d) => run(byName.get(d)!)));
        await limit(async () => {
          // During preview, a resource about to be created (or replaced) has no id yet: unknown.
          const news = decl.inputs((name) => ids.get(name) ?? unknownValue);
          const record = await this.step(decl, news, preview);
          records.push(record);
          const id = this.state.get(decl.name)?.id;
          if (id && !(preview && record.step !== "same" && record.step !== "update")) ids.set(decl.name, id);
        });
      })();
      done.set(decl.name, promise);
      return promise;
    };
    // Steps in flight finish before the up fails, as Pulumi's do: the state holds what they made.
    const failed = (await Promise.allSettled(program.map(run))).find((s) => s.status === "rejected");
    if (failed) throw failed.reason;
    return records;
  }

  private async step(decl: ResourceDecl, news: Props, preview: boolean): Promise<StepRecord> {
    const p = this.provider;
    const old = this.state.get(decl.name);
    const urn = old?.urn ?? this.urnOf(decl.type, decl.name);
    const checked = await p.check(urn, old?.inputs, news);
    if (checked.failures.length > 0)
      throw Object.assign(new Error(`${decl.name}: ${JSON.stringify(checked.failures)}`), {
        failures: checked.failures,
      });
    const inputs = checked.inputs;
    if (!old) {
      const created = await p.create(urn, inputs, preview);
      if (!preview)
        this.state.set(decl.name, {
          type: decl.type,
          urn,
          id: created.id,
          inputs,
          outputs: created.properties,
        });
      return { name: decl.name, step: "create", ...(preview && { preview: created.properties }) };
    }
    const diff = await p.diff(urn, old.id, old.outputs, inputs, old.inputs);
    if (diff.changes !== "DIFF_SOME") return { name: decl.name, step: "same", diff };
    if (diff.replaces.length === 0) {
      const outputs = await p.update(urn, old.id, old.outputs, inputs, old.inputs, preview);
      if (!preview) this.state.set(decl.name, { ...old, inputs, outputs });
      return { name: decl.name, step: "update", diff, ...(preview && { preview: outputs }) };
    }
    if (preview) {
      const created = await p.create(urn, inputs, true);
      return { name: decl.name, step: "replace", diff, preview: created.properties };
    }
    // Replace: the old one first when the provider says both cannot exist at once, else the new one first.
    if (diff.deleteBeforeReplace) await p.delete(urn, old.id, old.outputs);
    const created = await p.create(urn, inputs, false);
    if (!diff.deleteBeforeReplace) await p.delete(urn, old.id, old.outputs);
    this.state.set(decl.name, { ...old, id: created.id, inputs, outputs: created.properties });
    return { name: decl.name, step: "replace", diff };
  }

  /** `pulumi refresh`: every resource read; one that is gone leaves the state. Answers the names that moved. */
  async refresh(): Promise<string[]> {
    const moved: string[] = [];
    const limit = semaphore(this.parallel);
    await Promise.all(
      [...this.state].map(([name, r]) =>
        limit(async () => {
          const read = await this.provider.read(r.urn, r.id, r.outputs, r.inputs);
          if (read.id === "") {
            this.state.delete(name);
            moved.push(name);
            return;
          }
          if (JSON.stringify(read.properties) !== JSON.stringify(r.outputs)) moved.push(name);
          this.state.set(name, { ...r, outputs: read.properties ?? {}, inputs: read.inputs ?? r.inputs });
        }),
      ),
    );
    return moved;
  }

  /** `pulumi import`: read by id alone, check the inputs it answers, diff them against its properties. */
  async import(name: string, type: string, id: string) {
    const urn = this.urnOf(type, name);
    const read = await this.provider.read(urn, id);
    if (read.id === "") throw new Error(`${type} ${id} does not exist`);
    const checked = await this.provider.check(urn, undefined, read.inputs ?? {});
    const diff = await this.provider.diff(urn, id, read.properties ?? {}, checked.inputs, read.inputs ?? {});
    return { read, checked, diff };
  }

  /** `pulumi destroy`: dependents first (the reverse of creation order is enough for these programs). */
  async destroy(program: readonly ResourceDecl[]): Promise<void> {
    const limit = semaphore(this.parallel);
    const levels = new Map<string, number>();
    const level = (decl: ResourceDecl): number => {
      const known = levels.get(decl.name);
      if (known !== undefined) return known;
      let deepest = -1;
      decl.inputs((name) => {
        deepest = Math.max(deepest, level(program.find((r) => r.name === name)!));
        return "";
      });
      levels.set(decl.name, deepest + 1);
      return deepest + 1;
    };
    const byLevel = [...program].sort((a, b) => level(b) - level(a));
    for (const depth of [...new Set(byLevel.map(level))]) {
      await Promise.all(
        byLevel
          .filter((d) => level(d) === depth)
          .map((d) =>
            limit(async () => {
              const r = this.state.get(d.name);
              if (!r) return;
              await this.provider.delete(r.urn, r.id, r.outputs);
              this.state.delete(d.name);
            }),
          ),
      );
    }
  }
}

function semaphore(n: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await task();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}
