/**
 * Runs @cdktf/provider-generator (the generator `cdktf get` runs) on a provider schema file and saves
 * its TypeScript output under a directory, untouched: `node run-provider-generator.ts SCHEMA OUTDIR
 * CONSTRAINT`. tools/cdktf/generate.ts runs it as a child process because loading the generator has side
 * effects we keep out of our own process: @cdktf/commons spawns `terraform version` at import, logs what
 * that prints, and reports a failure as telemetry unless CHECKPOINT_DISABLE is set.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type * as Commons from "@cdktf/commons";
import type * as ProviderGenerator from "@cdktf/provider-generator/lib/get/generator/provider-generator.js";
import type * as Codemaker from "codemaker";

const [schemaFile, outdir, constraint] = process.argv.slice(2);
if (!schemaFile || !outdir || !constraint) {
  throw new Error("usage: run-provider-generator.ts SCHEMA_FILE OUTDIR CONSTRAINT (e.g. vigil/vigil@~> 0.1)");
}

// The package's main module loads jsii-pacmak (for the other languages), which is not installed: take the
// TypeScript generator and its own copies of commons and codemaker from inside the package.
const requireFromGenerator = createRequire(import.meta.resolve("@cdktf/provider-generator/package.json"));
const { TerraformProviderGenerator } = requireFromGenerator(
  "./lib/get/generator/provider-generator.js",
) as typeof ProviderGenerator;
const { ConstructsMakerProviderTarget, Language, TerraformProviderConstraint } = requireFromGenerator(
  "@cdktf/commons",
) as typeof Commons;
const { CodeMaker } = requireFromGenerator("codemaker") as typeof Codemaker;

const code = new CodeMaker();
const generator = new TerraformProviderGenerator(code, JSON.parse(readFileSync(schemaFile, "utf8")));
// The constraint `cdktf get` would read from cdktf.json: it names the provider's source and version range.
generator.generate(
  new ConstructsMakerProviderTarget(new TerraformProviderConstraint(constraint), Language.TYPESCRIPT),
);
await generator.save(outdir);
