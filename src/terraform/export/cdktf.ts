/**
 * `vigil export --format cdktf`: the export graph (`engine/export/graph.ts`) as a CDK for Terraform stack in
 * TypeScript, over this package's generated bindings (`vigil/cdktf`, from provider.json). Each member is
 * written through the resource's Terraform schema as the bindings spell it (`cron_schedule` →
 * `cronSchedule`; a map's keys as they are), a reference as an expression (`contactId: sreEmail.id`), a
 * credential as a sensitive `TerraformVariable`, and each resource gets `importFrom(id)`, so the synthesized
 * JSON plans only imports. The files:
 *
 * - `main.ts`: the stack, one module in dependency order, a section per kind; `node main.ts` (Node 22.18 and
 *   later strip its types) or `cdktf synth` writes `cdktf.out/stacks/vigil-account/cdk.tf.json`;
 * - `cdktf.json`, `package.json` (cdktf, constructs, vigil) and `tsconfig.json` (`tsc --noEmit`).
 *
 * CDKTF is deprecated (docs/cdktf.md): the same graph as HCL is `--format hcl`.
 */
import { type ImportCredentials, importCredentials } from "../../engine/export/credentials.ts";
import {
  type ExportGraph,
  type ExportObject,
  ExportReference,
  ExportVariable,
  type ExportWriter,
  fileGroupOf,
  type WrittenExport,
} from "../../engine/export/graph.ts";
import {
  camelCase,
  expression,
  render,
  stringLiteral,
  type TsValue,
  tsProjectFiles,
  uniqueIdentifiers,
} from "../../engine/export/ts-text.ts";
import { attributeName, resourceTypeName } from "../schema.ts";
import { MemberWalker } from "./members.ts";

/** The stack's name: its JSON is `cdktf.out/stacks/vigil-account/cdk.tf.json`. */
export const stackName = "vigil-account";

/** `vigil_status_page` → `StatusPage`: the bindings' class of a resource type. */
const className = (type: string) =>
  camelCase(type.replace(/^vigil_/, "")).replace(/^./, (c) => c.toUpperCase());

/** `cron_schedule` → `cronSchedule`: the bindings' property of an attribute. */
const propertyName = (attribute: string) =>
  attribute.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

export const writeCdktf: ExportWriter = (graph) => {
  const stack = new StackWriter(graph);
  return {
    files: {
      "main.ts": stack.mainTs(),
      "cdktf.json": cdktfJson(),
      ...tsProjectFiles({
        name: stackName,
        main: "main.ts",
        scripts: { synth: "node main.ts", typecheck: "tsc --noEmit" },
        dependencies: {
          cdktf: { from: "dependencies", fallback: "~0.21.0" },
          constructs: { from: "dependencies", fallback: "^10.0.0" },
        },
        types: ["node"],
      }),
    },
    leftOut: stack.credentials.leftOut,
    variables: stack.credentials.variables.map((variable) => ({ name: variable.name, variable })),
    addressOf: (object) => stack.addressOf(object),
  } satisfies WrittenExport;
};

/** The stack's source: names for every resource and variable, and each resource's config through the schema. */
class StackWriter {
  readonly graph: ExportGraph;
  readonly credentials: ImportCredentials;
  /** Terraform's resource names, which are the constructs' ids. */
  readonly #resourceNames = new Map<ExportObject, string>();
  /** The TypeScript constants holding each resource and variable. */
  readonly #consts: Map<ExportObject, string>;
  readonly #variableConsts: Map<ExportVariable, string>;
  /** Each resource's config, walked through its Terraform schema. */
  readonly #members: MemberWalker<TsValue>;

  constructor(graph: ExportGraph) {
    this.graph = graph;
    this.credentials = importCredentials(graph);
    const { variables } = this.credentials;
    const taken = new Set([
      "App",
      "LocalBackend",
      "TerraformStack",
      "TerraformVariable",
      "Construct",
      "vigil",
      "app",
    ]);
    this.#variableConsts = uniqueIdentifiers(
      variables,
      (v) => camelCase(v.name),
      () => "Variable",
      taken,
    );
    // Construct ids share one namespace in the stack with the variables, the provider and the backend: a name
    // taken already gets its type (`api_team_contact_group`).
    const ids = new Set(["vigil", "backend", ...variables.map((v) => v.name)]);
    for (const object of graph.objects) {
      const base = (object.parent ? `${object.parent.name}_${object.name}` : object.name)
        .replace(/[^A-Za-z0-9_]/g, "_")
        .replace(/^(?![A-Za-z_])/, "_");
      const typed = `${base}_${attributeName(object.kind.name)}`;
      let name = ids.has(base) ? typed : base;
      for (let n = 2; ids.has(name); n++) name = `${typed}_${n}`;
      ids.add(name);
      this.#resourceNames.set(object, name);
    }
    this.#consts = uniqueIdentifiers(
      graph.objects,
      (o) => camelCase(this.#resourceNames.get(o)!),
      (o) => className(resourceTypeName(o.kind.name)),
      taken,
    );
    this.#members = new MemberWalker<TsValue>(
      {
        name: propertyName,
        // A map's keys are data: written as they are.
        key: (key) => key,
        object: (entries) => ({ kind: "object", entries }),
        list: (items) => ({ kind: "array", items }),
        scalars: (object, values) => ({ kind: "array", items: values.map((v) => this.scalar(object, v)) }),
        scalar: (object, value) => this.scalar(object, value),
      },
      (object) => this.addressOf(object),
      this.credentials.isLeftOut,
    );
  }

  addressOf(object: ExportObject): string {
    return `${resourceTypeName(object.kind.name)}.${this.#resourceNames.get(object)}`;
  }

  mainTs(): string {
    const body = [...this.variableLines(), ...this.resourceLines()];
    return [
      "// Written by vigil export: every object of the account as a CDK for Terraform stack, each adopted by its",
      "// importFrom on the first apply (once applied, those lines may go). `node main.ts` synthesizes it to",
      `// cdktf.out/stacks/${stackName}/cdk.tf.json. The provider reads VIGIL_ENDPOINT and VIGIL_TOKEN.`,
      "// CDKTF is deprecated: `vigil export --format hcl` writes the same configuration as plain Terraform.",
      'import { join } from "node:path";',
      'import { App, LocalBackend, TerraformStack, TerraformVariable } from "cdktf";',
      'import type { Construct } from "constructs";',
      'import * as vigil from "vigil/cdktf";',
      "",
      "class AccountStack extends TerraformStack {",
      "  constructor(scope: Construct, id: string) {",
      "    super(scope, id);",
      '    new LocalBackend(this, { path: "terraform.tfstate" });',
      '    new vigil.VigilProvider(this, "vigil");',
      ...body.map((line) => (line === "" ? "" : `    ${line.replaceAll("\n", "\n    ")}`)),
      "  }",
      "}",
      "",
      "// Beside this file, unless the cdktf CLI (which sets CDKTF_OUTDIR) runs the app.",
      'const app = new App({ outdir: process.env.CDKTF_OUTDIR ?? join(import.meta.dirname, "cdktf.out") });',
      `new AccountStack(app, ${stringLiteral(stackName)});`,
      "app.synth();",
      "",
    ].join("\n");
  }

  private variableLines(): string[] {
    return this.credentials.variables.flatMap((v) => [
      "",
      `const ${this.#variableConsts.get(v)} = new TerraformVariable(this, ${stringLiteral(v.name)}, {`,
      '  type: "string",',
      "  sensitive: true,",
      `  description: ${stringLiteral(`${v.member} of ${this.addressOf(v.object)}`)},`,
      "});",
    ]);
  }

  private resourceLines(): string[] {
    const lines: string[] = [];
    let section: string | undefined;
    for (const object of this.graph.objects) {
      const group = fileGroupOf(object, "kind");
      if (group !== section) lines.push("", `// --- ${group} ---`);
      section = group;
      const type = resourceTypeName(object.kind.name);
      const config = render({ kind: "object", entries: this.#members.entries(object) });
      const name = this.#consts.get(object)!;
      const id = stringLiteral(this.#resourceNames.get(object)!);
      lines.push(
        "",
        `const ${name} = new vigil.${className(type)}(this, ${id}, ${config});`,
        `${name}.importFrom(${stringLiteral(object.id)});`,
      );
    }
    return lines;
  }

  private scalar(object: ExportObject, value: unknown): TsValue {
    if (value instanceof ExportReference) return expression(`${this.#consts.get(value.target)}.id`);
    if (value instanceof ExportVariable) return expression(`${this.#variableConsts.get(value)}.stringValue`);
    // The JSON cdktf writes is Terraform's JSON syntax, where `${` and `%{` start templates: doubled, literal.
    if (typeof value === "string") return expression(stringLiteral(value.replace(/([$%])\{/g, "$1$1{")));
    if (typeof value === "number" || typeof value === "boolean") return expression(String(value));
    throw new Error(`${this.addressOf(object)}: no TypeScript literal for ${JSON.stringify(value)}`);
  }
}

function cdktfJson(): string {
  const config = {
    language: "typescript",
    app: "node main.ts",
    output: "cdktf.out",
    terraformProviders: [],
    terraformModules: [],
    sendCrashReports: "false",
    context: {},
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}
