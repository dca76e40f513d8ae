/**
 * Files vigil reads at run time besides its modules (package.json, the Pulumi package schema, the Terraform
 * protocol's descriptor), named from the package's root. The checkout and the npm package hold them beside
 * the sources, at the same relative places; a single-executable binary has no package folder, so it carries
 * them as assets under the same names (`tools/release/`).
 */
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import sea from "node:sea";

/** What the release build embeds: every name this module is asked for. */
export const SHIPPED_FILES = [
  "package.json",
  "schemas/pulumi-schema.json",
  "src/terraform/plugin/proto/descriptor.json",
] as const;

type ShippedFile = (typeof SHIPPED_FILES)[number];

// Resolved only off a binary: a bundle has no import.meta.url.
const onDisk = (path: ShippedFile) => new URL(`../${path}`, import.meta.url);

export function readShippedSync(path: ShippedFile): string {
  return sea.isSea() ? sea.getAsset(path, "utf8") : readFileSync(onDisk(path), "utf8");
}

export async function readShipped(path: ShippedFile): Promise<string> {
  return sea.isSea() ? sea.getAsset(path, "utf8") : readFile(onDisk(path), "utf8");
}

let manifest: { version: string } | undefined;

/** package.json's version: the version of every vigil program. */
export function vigilVersion(): string {
  manifest ??= JSON.parse(readShippedSync("package.json")) as { version: string };
  return manifest.version;
}
