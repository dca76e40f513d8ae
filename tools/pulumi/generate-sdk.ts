/**
 * The TypeScript SDK of the Pulumi package (src/pulumi/sdk), generated from its schema
 * (schemas/pulumi-schema.json, `pulumiSchema()`): one class per resource, the provider, one file per
 * function, the input and output types, `index.ts`. What it writes is already formatted as biome
 * formats it (the repository's style: 2 spaces, double quotes, lines of at most 110 characters), and
 * erasable TypeScript (no namespaces, enums or parameter properties; relative imports end in `.ts`).
 */

import { type PackageSpec, pulumiSchema } from "../../src/pulumi/schema.ts";
import { functionFile, providerFile, resourceFile } from "./sdk-classes.ts";
import { HEADER, LINE_WIDTH, quote } from "./sdk-text.ts";
import { enumsModule, reachable, typesModule } from "./sdk-types.ts";

export const SDK_DIR = "src/pulumi/sdk";

// ---------------------------------------------------------------------------
// The package's shared modules

function utilitiesFile(): string {
  return [
    ...HEADER,
    'import type * as pulumi from "@pulumi/pulumi";',
    'import { version } from "./version.ts";',
    "",
    "/** The options every resource of this package starts from: the provider plugin's version. */",
    "export function resourceOptsDefaults(): pulumi.CustomResourceOptions {",
    "  return { version };",
    "}",
    "",
    "/** The options every function call starts from. */",
    "export function invokeOptsDefaults(): pulumi.InvokeOptions {",
    "  return { version };",
    "}",
    "",
    "/** The value of the first of these environment variables that is set and not empty. */",
    "export function getEnv(...names: string[]): string | undefined {",
    "  for (const name of names) {",
    "    const value = process.env[name];",
    "    if (value) return value;",
    "  }",
    "  return undefined;",
    "}",
    "",
  ].join("\n");
}

/** The SDK's files, by path under src/pulumi/sdk, generated from a package schema. */
export function renderSdk(schema: PackageSpec): Map<string, string> {
  const files = new Map<string, string>();
  const resources = Object.keys(schema.resources).map((token) => resourceFile(schema, token));
  const provider = providerFile(schema);
  const functions = Object.keys(schema.functions).map((token) => functionFile(schema, token));
  for (const file of [...resources, provider, ...functions]) files.set(file.path, file.text);
  files.set(
    "types/input.ts",
    typesModule(
      schema,
      reachable(schema, [...Object.values(schema.resources).map((r) => r.inputProperties)]),
      "input",
    ),
  );
  files.set(
    "types/output.ts",
    typesModule(
      schema,
      reachable(schema, [
        ...Object.values(schema.resources).map((r) => r.properties),
        ...Object.values(schema.functions).map((f) => f.outputs.properties),
      ]),
      "output",
    ),
  );
  files.set("types/enums.ts", enumsModule(schema));
  files.set(
    "types/index.ts",
    [
      ...HEADER,
      'export type * as enums from "./enums.ts";',
      'export type * as input from "./input.ts";',
      'export type * as output from "./output.ts";',
      "",
    ].join("\n"),
  );
  files.set("utilities.ts", utilitiesFile());
  files.set("version.ts", [...HEADER, `export const version = ${quote(schema.version)};`, ""].join("\n"));
  const modules = [...resources.map((r) => r.path), provider.path, ...functions.map((f) => f.path)];
  const exports: [string, string][] = [
    ...modules.map((m): [string, string] => [m, `export * from "./${m}";`]),
    ["types/index.ts", 'export type * as types from "./types/index.ts";'],
    ["version.ts", 'export { version } from "./version.ts";'],
  ];
  // In the order biome sorts them: by path without the extension (`contact` before `contact-group`).
  const bare = (path: string) => path.replace(/\.ts$/, "");
  exports.sort(([a], [b]) => (bare(a) < bare(b) ? -1 : bare(a) > bare(b) ? 1 : 0));
  files.set("index.ts", [...HEADER, ...exports.map(([, line]) => line), ""].join("\n"));
  for (const [path, text] of files)
    text.split("\n").forEach((line, i) => {
      if (line.length > LINE_WIDTH && !/^\s*(\/\/|\/?\*)/.test(line))
        throw new Error(`${path}:${i + 1} is longer than ${LINE_WIDTH} characters`);
    });
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** One artifact per SDK file, for tools/generate.ts; each renders the SDK from the package schema. */
export function sdkArtifacts(): { path: string; render(): string }[] {
  return [...renderSdk(pulumiSchema()).keys()].map((file) => ({
    path: `${SDK_DIR}/${file}`,
    render: () => renderSdk(pulumiSchema()).get(file)!,
  }));
}
