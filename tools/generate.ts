/**
 * Files generated from the kinds and committed to the repository. `npm run
 * generate` writes them all; a test fails when a committed one is stale.
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { testFileJsonSchema } from "../src/cli/scenarios/format.ts";
import { vigilJsonSchema } from "../src/gitops/json-schema.ts";
import { pulumiSchema } from "../src/pulumi/schema.ts";
import { providerSchema } from "../src/terraform/schema.ts";
import { gitopsDocPages } from "./gitops/docs.ts";
import { SDK_DIR, sdkArtifacts } from "./pulumi/generate-sdk.ts";
import { terraformDocPages } from "./terraform/docs.ts";
import { DESCRIPTOR_PATH, protoDescriptor } from "./terraform/proto-descriptor.ts";

export interface Artifact {
  /** Relative to the repository root. */
  path: string;
  render(): string;
}

/** Pretty JSON with a trailing newline; keys keep the order the generator builds them in, which is fixed. */
export const jsonText = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

export const artifacts: readonly Artifact[] = [
  { path: "schemas/vigil.schema.json", render: () => jsonText(vigilJsonSchema()) },
  { path: "schemas/vigil-test.schema.json", render: () => jsonText(testFileJsonSchema()) },
  { path: "provider.json", render: () => jsonText(providerSchema()) },
  { path: "schemas/pulumi-schema.json", render: () => jsonText(pulumiSchema()) },
  ...sdkArtifacts(),
  { path: DESCRIPTOR_PATH, render: () => jsonText(protoDescriptor()) },
  ...terraformDocPages(),
  ...gitopsDocPages(),
];

export const repositoryRoot = resolve(import.meta.dirname, "..");

export async function generate(root = repositoryRoot): Promise<string[]> {
  // The SDK folder holds generated files only: one for a class or function that is gone must go too.
  await rm(join(root, SDK_DIR), { recursive: true, force: true });
  for (const artifact of artifacts) {
    const file = join(root, artifact.path);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, artifact.render());
  }
  return artifacts.map((a) => a.path);
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  for (const path of await generate()) console.log(`wrote ${path}`);
}
