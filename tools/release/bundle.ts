/**
 * Each program as one file: esbuild bundles the TypeScript sources and every dependency, and `import()`s of
 * bundled modules stay lazy (a module's body runs on its first import), so a program loads no more than it
 * does from the checkout, from a few files instead of hundreds. Three forms (`BundleFormat`): CommonJS for
 * the single executables (an embedded main script is CommonJS, and `require` there loads built-in modules
 * only); CommonJS for the npm package's CLI, which its launcher runs with a code cache of what a command
 * compiled (tools/release/launcher.ts); ES modules split into chunks for the npm package's providers. The
 * npm package's bundles read the files beside them as the sources do (src/shipped.ts).
 */

import { readFile, writeFile } from "node:fs/promises";
import { isBuiltin } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build, type Plugin } from "esbuild";

/**
 * CommonJS has no `import.meta`: src/shipped.ts's is replaced. In a single executable, by its file's URL,
 * which it reads from only while the release is built (a snapshot's modules load then); a binary reads its
 * assets. In the npm package's CLI, by the bundle's own URL: it sits in `bin/`, one level under the
 * package's root as src/shipped.ts is, so the paths it reads from there hold. Any other `import.meta` is left
 * for esbuild to warn about, and a warning fails the build: another file read beside a module, say, would
 * fail only when the program runs.
 */
const shippedUrl = (url: (path: string) => string): Plugin => ({
  name: "shipped-url",
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]shipped\.ts$/ }, async ({ path }) => ({
      contents: (await readFile(path, "utf8")).replaceAll("import.meta.url", url(path)),
      loader: "ts",
    }));
  },
});
const buildFileUrl = (path: string) => JSON.stringify(pathToFileURL(path).href);
const ownFileUrl = () => `require("node:url").pathToFileURL(__filename).href`;

/**
 * In an ES module bundle, Node's built-in modules are taken with `require()`, not `import`: importing one
 * makes its ES module facade, which reads every export, and so loads what the built-in keeps lazy until
 * used (`fs` its streams, `crypto` its Web Crypto): several milliseconds of each start, for nothing.
 */
const builtinsByRequire: Plugin = {
  name: "builtins-by-require",
  setup(build) {
    build.onResolve({ filter: /^[a-z_:/]+$/ }, ({ path, kind }) => {
      if (kind !== "import-statement" || !isBuiltin(path)) return undefined;
      return { path: path.startsWith("node:") ? path : `node:${path}`, namespace: "builtin" };
    });
    build.onLoad({ filter: /.*/, namespace: "builtin" }, ({ path }) => ({
      contents: `module.exports = require(${JSON.stringify(path)});`,
      loader: "js",
    }));
  },
};

/**
 * Dependencies the npm package's CLI takes from its node_modules rather than from its bundle: only commands
 * that rarely start, and run long once started, use them (the watcher's server and metrics, the sandbox's
 * server, a PostgreSQL state). Left out, they cost a start nothing: the launcher reads and compiles the whole
 * bundle on every run (most of fastify's megabyte and a half went into every `vigil validate`). Each is a
 * dependency of the package (test/tools.test.ts), so an install has it.
 */
export const CLI_EXTERNALS = ["fastify", "pg", "prom-client"] as const;

export interface Bundles {
  /** Program name → its bundle. */
  files: Record<string, string>;
  /** Every file the bundles hold, relative to the root: their licences go into the notices. */
  inputs: string[];
}

/**
 * `sea`: a single executable's CommonJS; `npm-cjs`: the npm package's CommonJS, run by its launcher;
 * `esm`: the npm package's ES modules, in chunks.
 */
export type BundleFormat = "sea" | "npm-cjs" | "esm";

/**
 * Bundles `entries` (program name → entry module, relative to `root`) into `outdir/<name>.cjs`
 * (`<name>.bundle.cjs` for `npm-cjs`, beside its launcher; `<name>.mjs` for `esm`).
 */
export async function bundlePrograms(
  root: string,
  entries: Record<string, string>,
  outdir: string,
  bundleFormat: BundleFormat = "sea",
): Promise<Bundles> {
  const format = bundleFormat === "esm" ? "esm" : "cjs";
  const extension = { sea: ".cjs", "npm-cjs": ".bundle.cjs", esm: ".mjs" }[bundleFormat];
  const result = await build({
    absWorkingDir: root,
    entryPoints: entries,
    outdir,
    outExtension: { ".js": extension },
    bundle: true,
    platform: "node",
    format,
    // ES modules can load a lazily imported module from a file of its own, read only when imported: a run
    // reads the code it runs. Chunks sit beside the entries, so src/shipped.ts's relative paths hold.
    ...(format === "esm" && { splitting: true, chunkNames: "[name]-[hash]" }),
    ...(bundleFormat === "npm-cjs" && { external: [...CLI_EXTERNALS] }),
    // The CommonJS dependencies inside an ES module still call require() for Node's built-in modules.
    ...(format === "esm" && {
      banner: {
        js: 'import { createRequire as __createRequire } from "node:module";\nconst require = __createRequire(import.meta.url);',
      },
    }),
    target: "node22",
    // Smaller source to embed and to parse for the functions the code cache does not hold.
    minifyWhitespace: true,
    minifySyntax: true,
    // The licences ship whole in THIRD-PARTY-NOTICES.txt (notices.ts).
    legalComments: "none",
    metafile: true,
    logLevel: "silent",
    plugins: {
      sea: [shippedUrl(buildFileUrl)],
      "npm-cjs": [shippedUrl(ownFileUrl)],
      esm: [builtinsByRequire],
    }[bundleFormat],
  });
  if (result.warnings.length > 0) {
    const said = result.warnings.map(
      (w) => `${w.location ? `${w.location.file}:${w.location.line}: ` : ""}${w.text}`,
    );
    throw new Error(`the release bundle has warnings:\n${said.join("\n")}`);
  }
  const files = Object.fromEntries(
    Object.keys(entries).map((name) => [name, join(outdir, `${name}${extension}`)]),
  );
  // The launcher compiles the bundle as a function's body, where an entry's `#!` line is no JavaScript.
  if (bundleFormat === "npm-cjs")
    for (const file of Object.values(files))
      await writeFile(file, (await readFile(file, "utf8")).replace(/^#!.*\n/, ""));
  return {
    files,
    inputs: Object.keys(result.metafile.inputs),
  };
}
