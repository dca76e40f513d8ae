/**
 * Each program as one file: esbuild bundles the TypeScript sources and every dependency, and `import()`s of
 * bundled modules stay lazy (a module's body runs on its first import), so a program loads no more than it
 * does from the checkout, from a few files instead of hundreds. CommonJS for the single executables (an
 * embedded main script is CommonJS, and `require` there loads built-in modules only); ES modules for the npm
 * package's bin files, split into chunks, which read the files beside them as the sources do
 * (src/shipped.ts).
 */

import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build, type Plugin } from "esbuild";

/**
 * CommonJS has no `import.meta`: src/shipped.ts's is replaced by its file's URL, which it reads from only
 * while the release is built (a snapshot's modules load then); a binary reads its assets. Any other
 * `import.meta` is left for esbuild to warn about, and a warning fails the build: another file read beside a
 * module, say, would fail only when the binary runs.
 */
const shippedUrl: Plugin = {
  name: "shipped-url",
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]shipped\.ts$/ }, async ({ path }) => ({
      contents: (await readFile(path, "utf8")).replaceAll(
        "import.meta.url",
        JSON.stringify(pathToFileURL(path).href),
      ),
      loader: "ts",
    }));
  },
};

export interface Bundles {
  /** Program name → its bundle. */
  files: Record<string, string>;
  /** Every file the bundles hold, relative to the root: their licences go into the notices. */
  inputs: string[];
}

/** Bundles `entries` (program name → entry module, relative to `root`) into `outdir/<name>.cjs` (or `.mjs`). */
export async function bundlePrograms(
  root: string,
  entries: Record<string, string>,
  outdir: string,
  format: "cjs" | "esm" = "cjs",
): Promise<Bundles> {
  const extension = format === "cjs" ? ".cjs" : ".mjs";
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
    plugins: format === "cjs" ? [shippedUrl] : [],
  });
  if (result.warnings.length > 0) {
    const said = result.warnings.map(
      (w) => `${w.location ? `${w.location.file}:${w.location.line}: ` : ""}${w.text}`,
    );
    throw new Error(`the release bundle has warnings:\n${said.join("\n")}`);
  }
  return {
    files: Object.fromEntries(
      Object.keys(entries).map((name) => [name, join(outdir, `${name}${extension}`)]),
    ),
    inputs: Object.keys(result.metafile.inputs),
  };
}
