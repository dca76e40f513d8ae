/**
 * The SDK's classes and functions (tools/pulumi/generate-sdk.ts): one class per resource, the provider,
 * one module per function, each calling the Pulumi runtime with the package's tokens.
 */
import { type PackageSpec, replaceOnChangesPaths } from "../../src/pulumi/schema.ts";
import { providerToken } from "../../src/pulumi/tokens.ts";
import { array, call, doc, HEADER, kebab, nameOf, pascal, quote } from "./sdk-text.ts";
import { tsType, uses } from "./sdk-types.ts";

// ---------------------------------------------------------------------------
// Resources

interface ClassFile {
  path: string;
  className: string;
  text: string;
}

function imports(usesInputs: boolean, usesOutputs: boolean, usesEnums: boolean): string[] {
  return [
    'import * as pulumi from "@pulumi/pulumi";',
    ...(usesEnums ? ['import type * as enums from "./types/enums.ts";'] : []),
    ...(usesInputs ? ['import type * as inputs from "./types/input.ts";'] : []),
    ...(usesOutputs ? ['import type * as outputs from "./types/output.ts";'] : []),
    'import * as utilities from "./utilities.ts";',
    "",
  ];
}

export function resourceFile(schema: PackageSpec, token: string): ClassFile {
  const spec = schema.resources[token]!;
  const name = nameOf(token);
  const inputs = Object.entries(spec.inputProperties);
  const outputs = Object.entries(spec.properties);
  const requiredOutputs = new Set(spec.required ?? []);
  const inputUses = uses(
    schema,
    inputs.map(([, p]) => p),
  );
  const outputUses = uses(
    schema,
    outputs.map(([, p]) => p),
  );
  const usesEnums = inputUses.enums || outputUses.enums;

  const lines = [...HEADER, ...imports(inputUses.objects, outputUses.objects, usesEnums)];
  lines.push(...doc(spec.description, ""), `export class ${name} extends pulumi.CustomResource {`);
  lines.push(...staticMembers(name, token));
  for (const [member, property] of outputs) {
    const type = tsType(property, "output", "outputs.", schema);
    lines.push(
      ...doc(property.description, "  "),
      `  declare readonly ${member}: pulumi.Output<${requiredOutputs.has(member) ? type : `${type} | undefined`}>;`,
    );
  }
  lines.push("");
  lines.push(...resourceConstructor(schema, token), "}", "");
  lines.push(...argsInterface(schema, token));
  return { path: `${kebab(name)}.ts`, className: name, text: `${lines.join("\n")}\n` };
}

/** The resource's type token, `get` (read an existing object) and `isInstance`. */
function staticMembers(name: string, token: string): string[] {
  return [
    `  /** @internal */`,
    `  static readonly __pulumiType = ${quote(token)};`,
    "",
    ...doc(`Reads an existing ${name} by its id, without managing it.`, "  "),
    ...call(
      "  ",
      "static get",
      ["name: string", "id: pulumi.Input<pulumi.ID>", "opts?: pulumi.CustomResourceOptions"],
      `: ${name} {`,
    ),
    `    return new ${name}(name, undefined, { ...opts, id });`,
    "  }",
    "",
    ...doc(`Whether obj is a ${name}, even from another copy of the Pulumi SDK.`, "  "),
    `  static override isInstance(obj: unknown): obj is ${name} {`,
    "    if (obj === undefined || obj === null) return false;",
    `    return (obj as { __pulumiType?: unknown }).__pulumiType === ${name}.__pulumiType;`,
    "  }",
    "",
  ];
}

/**
 * The constructor's overloads and body: required inputs checked, secret inputs wrapped, outputs left to the
 * engine, and the options that keep secret outputs secret and replace on the schema's paths.
 */
function resourceConstructor(schema: PackageSpec, token: string): string[] {
  const spec = schema.resources[token]!;
  const name = nameOf(token);
  const argsName = `${name}Args`;
  const inputs = Object.entries(spec.inputProperties);
  const outputs = Object.entries(spec.properties);
  const requiredInputs = spec.requiredInputs ?? [];
  const secrets = outputs.filter(([, p]) => p.secret).map(([n]) => n);
  const replaceOnChanges = replaceOnChangesPaths(schema, token);
  const argsParam = requiredInputs.length > 0 ? `args: ${argsName}` : `args?: ${argsName}`;
  const lines = [
    ...doc(`Creates a ${name} (or adopts one with the import option).`, "  "),
    ...call("  ", "constructor", ["name: string", argsParam, "opts?: pulumi.CustomResourceOptions"], ";"),
    `  /** @internal */`,
    ...call(
      "  ",
      "constructor",
      [
        "name: string",
        "args: undefined",
        "opts: pulumi.CustomResourceOptions & { id: pulumi.Input<pulumi.ID> }",
      ],
      ";",
    ),
    ...call(
      "  ",
      "constructor",
      ["name: string", `args?: ${argsName}`, "opts: pulumi.CustomResourceOptions = {}"],
      " {",
    ),
    "    const resourceInputs: pulumi.Inputs = {};",
    "    if (opts.id) {",
    ...outputs.map(([member]) => `      resourceInputs.${member} = undefined;`),
    "    } else {",
  ];
  for (const member of requiredInputs)
    lines.push(
      `      if (args?.${member} === undefined && !opts.urn) {`,
      `        throw new Error(${quote(`Missing required property '${member}'`)});`,
      "      }",
    );
  for (const [member, property] of inputs) {
    const value = property.secret
      ? `args?.${member} === undefined ? undefined : pulumi.secret(args.${member})`
      : `args?.${member}`;
    lines.push(`      resourceInputs.${member} = ${value};`);
  }
  for (const [member] of outputs)
    if (!spec.inputProperties[member]) lines.push(`      resourceInputs.${member} = undefined;`);
  const merged = secrets.length > 0 || replaceOnChanges.length > 0;
  lines.push(
    "    }",
    `    ${merged ? "let" : "const"} options = pulumi.mergeOptions(utilities.resourceOptsDefaults(), opts);`,
  );
  if (secrets.length > 0)
    lines.push(
      ...array(
        "    ",
        "options = pulumi.mergeOptions(options, { additionalSecretOutputs: ",
        secrets.map(quote),
        " });",
      ),
    );
  if (replaceOnChanges.length > 0)
    lines.push(
      ...array(
        "    ",
        "options = pulumi.mergeOptions(options, { replaceOnChanges: ",
        replaceOnChanges.map(quote),
        " });",
      ),
    );
  lines.push(`    super(${name}.__pulumiType, name, resourceInputs, options);`, "  }");
  return lines;
}

/** The `<Name>Args` interface: each input, optional unless required. */
function argsInterface(schema: PackageSpec, token: string): string[] {
  const spec = schema.resources[token]!;
  const name = nameOf(token);
  const required = new Set(spec.requiredInputs ?? []);
  const lines = [...doc(`The arguments of a ${name}.`, ""), `export interface ${name}Args {`];
  for (const [member, property] of Object.entries(spec.inputProperties)) {
    lines.push(
      ...doc(property.description, "  "),
      `  ${member}${required.has(member) ? "" : "?"}: ${tsType(property, "input", "inputs.", schema)};`,
    );
  }
  lines.push("}");
  return lines;
}

// ---------------------------------------------------------------------------
// The provider

export function providerFile(schema: PackageSpec): ClassFile {
  const pkg = providerToken.slice(providerToken.lastIndexOf(":") + 1);
  const inputs = Object.entries(schema.provider.inputProperties);
  const lines = [...HEADER, ...imports(false, false, false)];
  lines.push(
    ...doc(schema.provider.description, ""),
    "export class Provider extends pulumi.ProviderResource {",
  );
  lines.push(`  /** @internal */`, `  static readonly __pulumiType = ${quote(pkg)};`, "");
  lines.push(
    ...doc("Whether obj is a vigil Provider, even from another copy of the Pulumi SDK.", "  "),
    "  static override isInstance(obj: unknown): obj is Provider {",
    "    if (obj === undefined || obj === null) return false;",
    `    return (obj as { __pulumiType?: unknown }).__pulumiType === ${quote(providerToken)};`,
    "  }",
    "",
  );
  for (const [member, property] of Object.entries(schema.provider.properties))
    lines.push(
      ...doc(property.description, "  "),
      `  declare readonly ${member}: pulumi.Output<${tsType(property, "output", "", schema)} | undefined>;`,
    );
  lines.push(
    "",
    ...doc("Creates a vigil provider; members not given default to their environment variables.", "  "),
    ...call(
      "  ",
      "constructor",
      ["name: string", "args?: ProviderArgs", "opts?: pulumi.ResourceOptions"],
      " {",
    ),
    "    const resourceInputs: pulumi.Inputs = {};",
  );
  for (const [member, property] of inputs) {
    const environment = property.defaultInfo?.environment ?? [];
    const value =
      environment.length > 0
        ? `args?.${member} ?? utilities.getEnv(${environment.map(quote).join(", ")})`
        : `args?.${member}`;
    if (property.secret) {
      lines.push(
        `    const ${member} = ${value};`,
        `    resourceInputs.${member} = ${member} === undefined ? undefined : pulumi.secret(${member});`,
      );
    } else lines.push(`    resourceInputs.${member} = ${value};`);
  }
  const secrets = inputs.filter(([, p]) => p.secret).map(([n]) => quote(n));
  lines.push(
    `    ${secrets.length > 0 ? "let" : "const"} options = pulumi.mergeOptions(utilities.resourceOptsDefaults(), opts);`,
  );
  if (secrets.length > 0)
    lines.push(
      ...array("    ", "options = pulumi.mergeOptions(options, { additionalSecretOutputs: ", secrets, " });"),
    );
  lines.push("    super(Provider.__pulumiType, name, resourceInputs, options);", "  }", "}", "");
  lines.push(...doc("The configuration of a vigil provider.", ""), "export interface ProviderArgs {");
  for (const [member, property] of inputs)
    lines.push(...doc(property.description, "  "), `  ${member}?: ${tsType(property, "input", "", schema)};`);
  lines.push("}");
  return { path: "provider.ts", className: "Provider", text: `${lines.join("\n")}\n` };
}

// ---------------------------------------------------------------------------
// Functions

export function functionFile(schema: PackageSpec, token: string): { path: string; text: string } {
  const spec = schema.functions[token]!;
  const name = nameOf(token);
  const resultName = `${pascal(name)}Result`;
  const outputs = Object.entries(spec.outputs.properties);
  const required = new Set(spec.outputs.required ?? []);
  const used = uses(
    schema,
    outputs.map(([, p]) => p),
  );
  const lines = [...HEADER, ...imports(false, used.objects, used.enums)];
  lines.push(...doc(`What ${name} answers.`, ""), `export interface ${resultName} {`);
  for (const [member, property] of outputs)
    lines.push(
      ...doc(property.description, "  "),
      `  readonly ${member}${required.has(member) ? "" : "?"}: ${tsType(property, "output", "outputs.", schema)};`,
    );
  lines.push("}", "");
  const invoke = (options: string) => [
    `  const options: ${options} = { ...utilities.invokeOptsDefaults(), ...opts };`,
  ];
  lines.push(
    ...doc(spec.description, ""),
    ...call("", `export function ${name}`, ["opts?: pulumi.InvokeOptions"], `: Promise<${resultName}> {`),
    ...invoke("pulumi.InvokeOptions"),
    `  return pulumi.runtime.invoke(${quote(token)}, {}, options);`,
    "}",
    "",
    ...doc(`${spec.description} As an Output.`, ""),
    ...call(
      "",
      `export function ${name}Output`,
      ["opts?: pulumi.InvokeOutputOptions"],
      `: pulumi.Output<${resultName}> {`,
    ),
    ...invoke("pulumi.InvokeOutputOptions"),
    `  return pulumi.runtime.invokeOutput(${quote(token)}, {}, options);`,
    "}",
  );
  return { path: `${kebab(name)}.ts`, text: `${lines.join("\n")}\n` };
}
