/**
 * `vigil export --format hcl`: the export graph (`engine/export/graph.ts`) as a Terraform configuration for
 * this provider. Each member is written through the resource's schema (attribute names, nested attributes,
 * maps), a reference as an expression (`contact_id = vigil_contact.sre.id`), a credential as a sensitive
 * variable (`var.monitors_api_settings_password`), and each object gets an `import` block, so
 * `terraform plan` shows only imports and no change. The files (`terraform fmt`'s layout, `hcl-text.ts`):
 *
 * - `versions.tf`: `required_providers` and the provider block (endpoint and token from the environment);
 * - the resources, one file per kind (`monitors.tf`) or per tag (`tag-prod.tf`, `untagged.tf`);
 * - `imports.tf`: an `import` block per object, to delete once applied;
 * - `variables.tf`, one `sensitive = true` variable per credential, and `terraform.tfvars.example` naming
 *   them without values.
 */
import { importCredentials } from "../../engine/export/credentials.ts";
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
import { vigilVersion } from "../../shipped.ts";
import { providerName, resourceTypeName } from "../schema.ts";
import { assignments, block, expression, type HclValue, quoted } from "./hcl-text.ts";
import { MemberWalker } from "./members.ts";

/** Terraform's name of an object: its export name (under its parent's, for a child), as an identifier. */
function identifierOf(object: ExportObject): string {
  const words = object.parent ? `${object.parent.name}_${object.name}` : object.name;
  const name = words.replace(/[^A-Za-z0-9_]/g, "_");
  return /^[A-Za-z_]/.test(name) ? name : `_${name}`;
}

export const writeHcl: ExportWriter = (graph, options) => {
  const { leftOut, variables, isLeftOut } = importCredentials(graph);
  const resources = resourceNames(graph);
  const addressOf = (object: ExportObject) =>
    `${resourceTypeName(object.kind.name)}.${resources.get(object)}`;
  const writer = new Resources(addressOf, isLeftOut);

  const groups = new Map<string, string[]>();
  for (const object of graph.objects) {
    const group = fileGroupOf(object, options.layout);
    const blocks = groups.get(group);
    if (blocks) blocks.push(writer.block(object));
    else groups.set(group, [writer.block(object)]);
  }
  const files: Record<string, string> = { "versions.tf": versions() };
  for (const group of [...groups.keys()].sort()) files[`${group}.tf`] = groups.get(group)!.join("\n");
  if (graph.objects.length > 0)
    files["imports.tf"] = [
      "# Each import adopts an existing object on the first apply. Once applied, this file may go.\n",
      ...graph.objects.map((o) =>
        block("import", [
          { name: "to", value: expression(addressOf(o)) },
          { name: "id", value: expression(quoted(o.id)) },
        ]),
      ),
    ].join("\n");
  if (variables.length > 0) {
    files["variables.tf"] = variables
      .map((v) =>
        block(`variable ${quoted(v.name)}`, [
          { name: "description", value: expression(quoted(`${v.member} of ${addressOf(v.object)}`)) },
          { name: "type", value: expression("string") },
          { name: "sensitive", value: expression("true") },
        ]),
      )
      .join("\n");
    files["terraform.tfvars.example"] = [
      "# The credentials variables.tf declares, without their values: copy this file to terraform.tfvars",
      "# (never commit that one) and fill each in, or set TF_VAR_<name> in the environment instead.",
      assignments(variables.map((v) => ({ name: v.name, value: expression('""') }))),
    ].join("\n");
  }
  return {
    files,
    leftOut,
    variables: variables.map((variable) => ({ name: variable.name, variable })),
    addressOf,
  } satisfies WrittenExport;
};

/** Each object's resource name, unique per resource type. */
function resourceNames(graph: ExportGraph): Map<ExportObject, string> {
  const out = new Map<ExportObject, string>();
  for (const kind of graph.kinds) {
    const objects = graph.objects.filter((o) => o.kind === kind);
    for (const [object, name] of spellUniquely(objects, identifierOf, "_")) out.set(object, name);
  }
  return out;
}

function versions(): string {
  const [major, minor] = vigilVersion().split(".");
  return [
    "# Written by vigil export. The provider reads its endpoint and token from VIGIL_ENDPOINT and VIGIL_TOKEN.\n",
    block("terraform", [
      // import blocks came with Terraform 1.5.
      { name: "required_version", value: expression(quoted(">= 1.5")) },
      {
        name: "required_providers",
        block: true,
        value: {
          kind: "object",
          entries: [
            {
              name: providerName,
              value: {
                kind: "object",
                entries: [
                  { name: "source", value: expression(quoted(`${providerName}/${providerName}`)) },
                  { name: "version", value: expression(quoted(`~> ${major}.${minor}`)) },
                ],
              },
            },
          ],
        },
      },
    ]),
    block(`provider ${quoted(providerName)}`, []),
  ].join("\n");
}

/** Resource blocks: members walked through the resource type's schema (`members.ts`), spelled as HCL. */
class Resources {
  readonly #addressOf: (object: ExportObject) => string;
  readonly #members: MemberWalker<HclValue>;

  constructor(
    addressOf: (object: ExportObject) => string,
    leftOut: (object: ExportObject, member: string) => boolean,
  ) {
    this.#addressOf = addressOf;
    this.#members = new MemberWalker<HclValue>(
      {
        name: (attribute) => attribute,
        // A map's keys are data, so always quoted.
        key: quoted,
        object: (entries) => ({ kind: "object", entries }),
        list: (items) => ({ kind: "list", items }),
        scalars: (_, values) => expression(`[${values.map((v) => this.scalar(v)).join(", ")}]`),
        scalar: (_, value) => expression(this.scalar(value)),
      },
      addressOf,
      leftOut,
    );
  }

  block(object: ExportObject): string {
    const type = resourceTypeName(object.kind.name);
    const entries = this.#members.entries(object);
    return block(`resource ${quoted(type)} ${quoted(this.#addressOf(object).split(".")[1]!)}`, entries);
  }

  private scalar(value: unknown): string {
    if (value instanceof ExportReference) return `${this.#addressOf(value.target)}.id`;
    if (value instanceof ExportVariable) return `var.${value.name}`;
    if (typeof value === "string") return quoted(value);
    if (typeof value === "number" || typeof value === "boolean") return String(value);
    throw new Error(`no HCL literal for ${JSON.stringify(value)}`);
  }
}
