/**
 * The formats `vigil export --format` writes, each a writer over the export graph (`engine/export/graph.ts`)
 * in the module of the frontend it serves, loaded only when asked for.
 */
import type { ExportLayout, ExportWriter, WriterOptions } from "../engine/export/graph.ts";

export interface ExportFormat {
  load(): Promise<ExportWriter<WriterOptions & { schemaRef?: string }>>;
  /** Files of this format's configurations: an export refuses to mix with them unless `--force`. */
  configFile: RegExp;
  /** Names this format's writer gives files: what `--force` may remove of an earlier export. */
  written: RegExp;
  /** The layouts `--split-by` may ask for: a program is one module, since a constant is declared before it is read. */
  layouts: readonly ExportLayout[];
  /** Whether its addresses are the vigil state's (the GitOps format's), so the state's names are worth saying. */
  keepsStateAddresses: boolean;
  /** Said before the list of variables the configuration reads credentials from. */
  variablesIntro: string;
  /** What to run next, said last. */
  nextStep(objects: number, out: string): string;
}

export const exportFormats = {
  yaml: {
    load: async () => (await import("../gitops/export.ts")).writeYaml,
    configFile: /\.ya?ml$/i,
    written: /^[a-z0-9-]+\.yaml$/,
    layouts: ["kind", "tag"],
    keepsStateAddresses: true,
    variablesIntro: `Credentials are written as \${env:...} placeholders; set these variables before planning:`,
    nextStep: (n, out) =>
      `Next: vigil plan ${out} shows ${n} imports and no other change; vigil apply adopts them.`,
  },
  hcl: {
    load: async () => (await import("../terraform/export/hcl.ts")).writeHcl,
    configFile: /\.(tf|tf\.json|tfvars|tfvars\.json)$|^terraform\.tfvars\.example$/,
    written: /^([a-z0-9-]+\.tf|terraform\.tfvars\.example)$/,
    layouts: ["kind", "tag"],
    keepsStateAddresses: false,
    variablesIntro:
      "Credentials are sensitive variables (variables.tf); set each as TF_VAR_<name> or in terraform.tfvars (terraform.tfvars.example names them):",
    nextStep: (n, out) =>
      `Next: terraform -chdir=${out} init, then plan: it shows ${n} to import, 0 to add, 0 to change, 0 to destroy.`,
  },
  pulumi: {
    load: async () => (await import("../pulumi/export/program.ts")).writePulumi,
    configFile: /^(index\.ts|Pulumi(\.[^/]+)?\.yaml|package\.json|tsconfig\.json)$/,
    written: /^(index\.ts|Pulumi\.yaml|package\.json|tsconfig\.json)$/,
    layouts: ["kind"],
    keepsStateAddresses: false,
    variablesIntro:
      "Credentials are stack secrets the program reads with config.requireSecret; set each with pulumi config set --secret <key>:",
    nextStep: (n, out) =>
      `Next: cd ${out} && npm install && pulumi stack init && pulumi preview: it shows ${n} to import and no other change.`,
  },
  cdktf: {
    load: async () => (await import("../terraform/export/cdktf.ts")).writeCdktf,
    configFile: /^(main\.ts|cdktf\.json|package\.json|tsconfig\.json)$/,
    written: /^(main\.ts|cdktf\.json|package\.json|tsconfig\.json)$/,
    layouts: ["kind"],
    keepsStateAddresses: false,
    variablesIntro:
      "Credentials are sensitive TerraformVariables; set each as TF_VAR_<name> before terraform plan:",
    nextStep: (n, out) =>
      `Next: cd ${out} && npm install && node main.ts (or cdktf synth), then terraform -chdir=cdktf.out/stacks/vigil-account init and plan: ${n} to import, 0 to add, 0 to change, 0 to destroy.`,
  },
} satisfies Record<string, ExportFormat>;

export const formatNames = Object.keys(exportFormats);
