/**
 * The CDKTF bindings exported as `vigil/cdktf`, generated from provider.json by @cdktf/provider-generator
 * (the generator `cdktf get` runs; see run-provider-generator.ts), then fitted to how this repository runs
 * TypeScript by a fixed set of rewrites (`fitForTypeStripping`). `npm run generate` writes them right after
 * provider.json; test/cdktf/bindings.test.ts fails when the committed ones are not what provider.json
 * renders to.
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, posix, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

export const repositoryRoot = resolve(import.meta.dirname, "../..");
/** Where the bindings are committed, relative to the repository root. */
export const bindingsDir = "src/cdktf/generated";

const runner = join(import.meta.dirname, "run-provider-generator.ts");

async function readJson(path: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(path, "utf8"));
}

/**
 * The provider constraint the bindings carry into `terraform.required_providers`: the vigil provider of
 * this package's minor version (`~> 0.1` for 0.1.x), as examples/terraform asks for it.
 */
export async function providerConstraint(root = repositoryRoot): Promise<string> {
  const { version } = await readJson(join(root, "package.json"));
  const [major, minor] = String(version).split(".");
  return `vigil/vigil@~> ${major}.${minor}`;
}

async function generatorVersion(): Promise<string> {
  const manifest = await readJson(
    fileURLToPath(import.meta.resolve("@cdktf/provider-generator/package.json")),
  );
  return String(manifest.version);
}

/** Every file under `dir`, by its path relative to `dir` (posix separators), in sorted order. */
export async function readTree(dir: string): Promise<Map<string, string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  const paths = entries
    .filter((e) => e.isFile())
    .map((e) => posix.join(posix.relative(dir, e.parentPath).split("\\").join("/"), e.name))
    .sort();
  const files = new Map<string, string>();
  for (const path of paths) files.set(path, await readFile(join(dir, path), "utf8"));
  return files;
}

/** The HCL rewrite in `fitForTypeStripping` holds only while the schema has no blocks, only nested attributes. */
function assertNoBlocks(value: unknown, path = "provider.json"): void {
  if (typeof value !== "object" || value === null) return;
  for (const [key, member] of Object.entries(value)) {
    if (key === "block_types" && Object.keys(member ?? {}).length > 0) {
      throw new Error(`${path}/block_types: the CDKTF bindings' HCL rewrite assumes nested attributes only`);
    }
    assertNoBlocks(member, `${path}/${key}`);
  }
}

/** The bindings for a provider schema document (provider.json's text), by path under `bindingsDir`. */
export async function renderBindings(schemaText: string, constraint: string): Promise<Map<string, string>> {
  assertNoBlocks(JSON.parse(schemaText));
  const work = await mkdtemp(join(tmpdir(), "vigil-cdktf-"));
  try {
    const schemaFile = join(work, "provider.json");
    const outdir = join(work, "out");
    await writeFile(schemaFile, schemaText);
    await promisify(execFile)(process.execPath, [runner, schemaFile, outdir, constraint], {
      env: { ...process.env, CHECKPOINT_DISABLE: "1" },
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: Error & { stdout?: string; stderr?: string }) => {
      throw new Error(`@cdktf/provider-generator failed: ${error.message}\n${error.stdout}${error.stderr}`);
    });
    const name = constraint.split("@")[0]!.split("/").pop()!;
    const generated = await readTree(join(outdir, "providers", name));
    return fitForTypeStripping(generated, await generatorVersion());
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * The generator writes TypeScript for a compiler (tsc, jsii) with loose settings; this repository runs
 * `.ts` files directly under Node's type stripping and checks them with `erasableSyntaxOnly`,
 * `noImplicitOverride` and `verbatimModuleSyntax`. The rewrites, each deterministic:
 * - only the `.ts` modules are kept: `lazy-index.ts` is CommonJS (`require`, `exports`), and the per-resource
 *   README.md files only point at registry.terraform.io, which does not host vigil (docs/terraform/ does);
 * - the index re-exports every module flat (`export *`, not `export * as monitor`), so `Monitor` is a
 *   top-level export of `vigil/cdktf` (every exported name starts with its type's class name, so none collide);
 * - relative specifiers name the file (`./monitor/index.ts`), as ESM without a bundler needs;
 * - constructor parameter properties (`constructor(protected terraformAttribute: string)`, not erasable)
 *   become plain parameters: the cdktf base classes (ComplexList, ComplexMap) assign the same fields from
 *   the same arguments in their own constructors;
 * - members that override a cdktf base member get `override`: the synthesizers of every resource, data
 *   source and provider, and the provider's `alias` accessors;
 * - an item of a map of objects is referenced by its quoted key, `usage["monitors"].used`: the generator
 *   hands the bare key to cdktf, which writes `usage[monitors].used`, a reference to an undeclared
 *   `monitors` in Terraform;
 * - for HCL synthesis (`cdktf synth --hcl`), nested objects are attributes, not blocks: the generator marks
 *   every object-typed attribute `isBlock: true`, which is right for a `block_types` entry but makes
 *   cdktf write `settings { ... }` for a nested attribute, and Terraform refuses that ("Blocks of type
 *   settings are not expected here"). provider.json declares nested attributes only (`assertNoBlocks`), so
 *   every one becomes `isBlock: false`; a single object also becomes `type: "list"`, the one non-block
 *   kind cdktf's HCL renderer writes as `settings = { ... }` when the value is one object (for "struct" it
 *   has no such rendering).
 */
export function fitForTypeStripping(generated: Map<string, string>, version: string): Map<string, string> {
  const modules = new Map(
    [...generated].filter(([path]) => path.endsWith(".ts") && path !== "lazy-index.ts"),
  );
  const header = `// Generated from provider.json by @cdktf/provider-generator ${version} and tools/cdktf/generate.ts (npm run generate). Do not edit.\n`;
  const fitted = new Map<string, string>();
  for (const [path, original] of modules) {
    let text = original.replace(/^\/\/ generated by cdktf get\n/, "");
    text = text.replace(/^export \* as \w+ from (['"][^'"]+['"]);$/gm, "export * from $1;");
    text = text.replace(
      /(from\s+)(['"])(\.\.?\/[^'"]*)\2/g,
      (_, from: string, quote: string, specifier: string) => {
        const target = posix.normalize(posix.join(posix.dirname(path), specifier));
        const file = [`${target}.ts`, `${target}/index.ts`].find((candidate) => modules.has(candidate));
        if (!file) throw new Error(`${path}: ${specifier} names no generated module`);
        return `${from}${quote}${specifier}${file.slice(target.length)}${quote}`;
      },
    );
    text = text.replace(/constructor\(([^)]*)\)/g, (_, parameters: string) => {
      return `constructor(${parameters.replace(/\b(?:public|protected|private|readonly)\s+/g, "")})`;
    });
    text = text.replace(/\bprotected (synthesize(?:Hcl)?Attributes\(\))/g, "protected override $1");
    text = text.replace(
      /super\(terraformResource, terraformAttribute, false, complexObjectKey\);/g,
      "super(terraformResource, terraformAttribute, false, JSON.stringify(complexObjectKey));",
    );
    text = text.replace(
      /isBlock: true,(\s+)type: "(struct|list|set)",/g,
      (_, space: string, type: string) => {
        return `isBlock: false,${space}type: "${type === "struct" ? "list" : type}",`;
      },
    );
    if (/extends cdktf\.TerraformProvider\b/.test(text)) {
      text = text.replace(/\bpublic (get|set) alias\(/g, "public override $1 alias(");
    }
    fitted.set(path, header + text);
  }
  return fitted;
}

/** What provider.json under `root` renders to now. */
export async function expectedBindings(root = repositoryRoot): Promise<Map<string, string>> {
  return renderBindings(await readFile(join(root, "provider.json"), "utf8"), await providerConstraint(root));
}

/** The paths where two sets of bindings differ, each with how: sorted, empty when they are the same. */
export function differences(expected: Map<string, string>, actual: Map<string, string>): string[] {
  const paths = [...new Set([...expected.keys(), ...actual.keys()])].sort();
  return paths.flatMap((path) => {
    if (!actual.has(path)) return [`${path}: missing`];
    if (!expected.has(path)) return [`${path}: not generated from provider.json`];
    return expected.get(path) === actual.get(path) ? [] : [`${path}: stale`];
  });
}

/** Replaces the bindings under `root` with what its provider.json renders to; returns the paths written. */
export async function writeBindings(root = repositoryRoot): Promise<string[]> {
  const bindings = await expectedBindings(root);
  const dir = join(root, bindingsDir);
  await rm(dir, { recursive: true, force: true });
  for (const [path, text] of bindings) {
    await mkdir(join(dir, posix.dirname(path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return [...bindings.keys()].map((path) => posix.join(bindingsDir, path));
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  for (const path of await writeBindings()) console.log(`wrote ${path}`);
}
