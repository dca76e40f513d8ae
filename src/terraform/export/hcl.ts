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
import { isoSeconds } from "../../api/problem-text.ts";
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
import { isObject, pointer } from "../../engine/pointer.ts";
import { vigilVersion } from "../../shipped.ts";
import { type Attribute, attributeName, providerName, resourceSchema, resourceTypeName } from "../schema.ts";
import { assignments, block, expression, type HclEntry, type HclValue, quoted } from "./hcl-text.ts";

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

/** Resource blocks: members written through the resource type's schema. */
class Resources {
  readonly #addressOf: (object: ExportObject) => string;
  readonly #leftOut: (object: ExportObject, member: string) => boolean;

  constructor(
    addressOf: (object: ExportObject) => string,
    leftOut: (object: ExportObject, member: string) => boolean,
  ) {
    this.#addressOf = addressOf;
    this.#leftOut = leftOut;
  }

  block(object: ExportObject): string {
    const type = resourceTypeName(object.kind.name);
    const attributes = resourceSchema(type).block.attributes;
    const entries = this.entries(object, object.members, attributes, []);
    return block(`resource ${quoted(type)} ${quoted(this.#addressOf(object).split(".")[1]!)}`, entries);
  }

  /** An object's members as entries of the nested attributes they are; nulls are unset, so never written. */
  private entries(
    object: ExportObject,
    members: Record<string, unknown>,
    attributes: Readonly<Record<string, Attribute>>,
    at: (string | number)[],
  ): HclEntry[] {
    const out: HclEntry[] = [];
    for (const [member, value] of Object.entries(members)) {
      if (value === null || value === undefined || (at.length === 0 && this.#leftOut(object, member)))
        continue;
      const name = attributeName(member);
      const attribute = attributes[name];
      if (!attribute)
        throw new Error(
          `${this.#addressOf(object)}: the provider's schema has no attribute ${[...at, member].join(".")}`,
        );
      const path = [...at, member];
      const timestamp = typeof value === "number" && object.timestamps.includes(pointer(path));
      out.push({
        name,
        value: this.value(object, value, attribute, path),
        ...(timestamp && { comment: isoSeconds(value as number) }),
      });
    }
    return out;
  }

  private value(
    object: ExportObject,
    value: unknown,
    attribute: Attribute,
    at: (string | number)[],
  ): HclValue {
    const nested = attribute.nested_type;
    if (nested) {
      const item = (v: unknown, path: (string | number)[]): HclValue => ({
        kind: "object",
        entries: this.entries(object, isObject(v) ? v : {}, nested.attributes, path),
      });
      if (nested.nesting_mode === "single") return item(value, at);
      if (nested.nesting_mode === "map") return this.map(value, (v, key) => item(v, [...at, key]));
      return { kind: "list", items: (value as unknown[]).map((v, i) => item(v, [...at, i])) };
    }
    const type = attribute.type;
    if (Array.isArray(type) && type[0] === "map") return this.map(value, (v) => expression(this.scalar(v)));
    if (Array.isArray(type))
      return expression(`[${(value as unknown[]).map((v) => this.scalar(v)).join(", ")}]`);
    return expression(this.scalar(value));
  }

  /** A map: its keys are data, so always quoted. */
  private map(value: unknown, item: (v: unknown, key: string) => HclValue): HclValue {
    return {
      kind: "object",
      entries: Object.entries(isObject(value) ? value : {}).map(([key, v]) => ({
        name: quoted(key),
        value: item(v, key),
      })),
    };
  }

  private scalar(value: unknown): string {
    if (value instanceof ExportReference) return `${this.#addressOf(value.target)}.id`;
    if (value instanceof ExportVariable) return `var.${value.name}`;
    if (typeof value === "string") return quoted(value);
    if (typeof value === "number" || typeof value === "boolean") return String(value);
    throw new Error(`no HCL literal for ${JSON.stringify(value)}`);
  }
}
