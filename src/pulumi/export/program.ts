/**
 * `vigil export --format pulumi`: the export graph (`engine/export/graph.ts`) as a Pulumi TypeScript program
 * for this package's SDK (`vigil/pulumi`). Each object is a resource adopted by `{ import: "<id>" }`, its
 * inputs the members a program would write (the SDK's property names are the API's member names), a
 * reference an expression (`contactId: sreEmail.id`), a credential `config.requireSecret("...")`. The files:
 *
 * - `index.ts`: the program, one module in dependency order (a `const` is declared before what reads it), a
 *   section per kind;
 * - `Pulumi.yaml`: the project, with the provider plugin from the installed package (as examples/pulumi);
 * - `package.json`: `@pulumi/pulumi` and `vigil`, whose SDK and provider the program uses;
 * - `tsconfig.json`: for `tsc --noEmit`, which checks the program against the SDK's types.
 */
import { isoSeconds } from "../../api/problem-text.ts";
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
import { spellUniquely } from "../../engine/export/names.ts";
import {
  camelCase,
  expression,
  render,
  stringLiteral,
  type TsEntry,
  type TsValue,
  tsProjectFiles,
  uniqueIdentifiers,
} from "../../engine/export/ts-text.ts";
import { isObject, pointer } from "../../engine/pointer.ts";
import { resourceClassNames } from "../tokens.ts";

/** The project's name: Pulumi namespaces the config keys with it (`vigil-account:monitorsApiSettingsPassword`). */
export const projectName = "vigil-account";

export const writePulumi: ExportWriter = (graph) => {
  const program = new ProgramWriter(graph);
  return {
    files: {
      "index.ts": program.indexTs(),
      "Pulumi.yaml": pulumiYaml(),
      ...tsProjectFiles({
        name: projectName,
        main: "index.ts",
        scripts: { typecheck: "tsc --noEmit" },
        dependencies: { "@pulumi/pulumi": { from: "peerDependencies", fallback: "^3.0.0" } },
        types: [],
      }),
    },
    leftOut: program.credentials.leftOut,
    variables: program.credentials.variables.map((variable) => ({
      name: program.configKey(variable),
      variable,
    })),
    addressOf: (object) => program.addressOf(object),
  } satisfies WrittenExport;
};

/** The program's source: a logical name and a constant for every resource, a config key for every secret. */
class ProgramWriter {
  readonly graph: ExportGraph;
  readonly credentials: ImportCredentials;
  readonly #configKeys: Map<ExportVariable, string>;
  /** Pulumi's names, unique per resource type (children under their parent's name). */
  readonly #logicalNames = new Map<ExportObject, string>();
  readonly #consts: Map<ExportObject, string>;

  constructor(graph: ExportGraph) {
    this.graph = graph;
    this.credentials = importCredentials(graph);
    // Config keys (each the constant holding it) first: resources never take their names.
    const taken = new Set(["pulumi", "vigil", "config"]);
    this.#configKeys = uniqueIdentifiers(
      this.credentials.variables,
      (v) => camelCase(v.name),
      () => "Secret",
      taken,
    );
    for (const kind of graph.kinds) {
      const objects = graph.objects.filter((o) => o.kind === kind);
      const spell = (o: ExportObject) => (o.parent ? `${o.parent.name}-${o.name}` : o.name);
      for (const [object, name] of spellUniquely(objects, spell, "-")) this.#logicalNames.set(object, name);
    }
    this.#consts = uniqueIdentifiers(
      graph.objects,
      (o) => camelCase(this.#logicalNames.get(o)!),
      (o) => resourceClassNames[o.kind.name]!,
      taken,
    );
  }

  configKey(variable: ExportVariable): string {
    return this.#configKeys.get(variable)!;
  }

  addressOf(object: ExportObject): string {
    return `${resourceClassNames[object.kind.name]} ${this.#logicalNames.get(object)}`;
  }

  indexTs(): string {
    const lines = [
      "// Written by vigil export: every object of the account, each adopted by its import on the first `pulumi up`.",
      "// The provider reads its endpoint and token from the stack's config (vigil:endpoint, vigil:token) or from",
      "// VIGIL_ENDPOINT and VIGIL_TOKEN. Once imported, the `import` options may go.",
    ];
    const secrets = this.credentials.variables;
    if (secrets.length > 0) lines.push('import * as pulumi from "@pulumi/pulumi";');
    lines.push('import * as vigil from "vigil/pulumi";');
    if (secrets.length > 0)
      lines.push(
        "",
        "// Credentials are stack secrets: `pulumi config set --secret <key>` for each before the first `pulumi up`.",
        "const config = new pulumi.Config();",
        ...secrets.map(
          (v) => `const ${this.configKey(v)} = config.requireSecret(${stringLiteral(this.configKey(v))});`,
        ),
      );
    // A resource is held in a constant only when another one reads it: the module exports nothing, since a
    // Pulumi program's exports are its stack's outputs.
    const referenced = new Set(this.graph.edges.map((e) => e.to));
    let section: string | undefined;
    for (const object of this.graph.objects) {
      const group = fileGroupOf(object, "kind");
      if (group !== section) lines.push("", `// --- ${group} ---`);
      section = group;
      const args = render({ kind: "object", entries: this.entries(object, object.members, []) });
      const held = referenced.has(object) ? `const ${this.#consts.get(object)} = ` : "";
      lines.push(
        "",
        `${held}new vigil.${resourceClassNames[object.kind.name]}(`,
        `  ${stringLiteral(this.#logicalNames.get(object)!)},`,
        `  ${args.replaceAll("\n", "\n  ")},`,
        `  { import: ${stringLiteral(object.id)} },`,
        ");",
      );
    }
    return `${lines.join("\n")}\n`;
  }

  /** Members as inputs; nulls are unset and a member holding an unknowable credential is left out. */
  private entries(
    object: ExportObject,
    members: Record<string, unknown>,
    at: (string | number)[],
  ): TsEntry[] {
    const out: TsEntry[] = [];
    for (const [name, v] of Object.entries(members)) {
      if (v === null || v === undefined || (at.length === 0 && this.credentials.isLeftOut(object, name)))
        continue;
      const path = [...at, name];
      const timestamp = typeof v === "number" && object.timestamps.includes(pointer(path));
      out.push({
        name,
        value: this.value(object, v, path),
        ...(timestamp && { comment: isoSeconds(v as number) }),
      });
    }
    return out;
  }

  private value(object: ExportObject, value: unknown, at: (string | number)[]): TsValue {
    if (value instanceof ExportReference) return expression(`${this.#consts.get(value.target)}.id`);
    if (value instanceof ExportVariable) return expression(this.configKey(value));
    if (Array.isArray(value))
      return { kind: "array", items: value.map((v, i) => this.value(object, v, [...at, i])) };
    if (isObject(value)) return { kind: "object", entries: this.entries(object, value, at) };
    // A double-quoted string: `${` is plain text in it.
    if (typeof value === "string") return expression(stringLiteral(value));
    if (typeof value === "number" || typeof value === "boolean") return expression(String(value));
    throw new Error(`${this.addressOf(object)}: no TypeScript literal for ${JSON.stringify(value)}`);
  }
}

function pulumiYaml(): string {
  return [
    `name: ${projectName}`,
    "description: The monitoring account, as vigil export wrote it.",
    "runtime:",
    "  name: nodejs",
    "  options:",
    "    # Node 22.18 and later run index.ts by stripping its types: no ts-node, no build.",
    "    typescript: false",
    "plugins:",
    "  providers:",
    "    # The provider ships in the vigil npm package, so it is always the version package.json installs.",
    "    - name: vigil",
    "      path: ./node_modules/vigil/bin",
    "",
  ].join("\n");
}
