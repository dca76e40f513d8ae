/**
 * The npm package's program launchers (`bin/<name>`, what `npm install` links): each refuses a Node older
 * than the package needs in one sentence (rather than a syntax or module error), then runs its program's
 * bundle (tools/release/bundle.ts).
 *
 * The CLI's launcher keeps a code cache per command. Node's own compile cache (`module.enableCompileCache`,
 * which the providers' launchers turn on) holds the code V8 compiles as a file loads, not the functions it
 * compiles later as they first run: most of what a command runs is compiled again on every start. So the
 * CLI is one CommonJS bundle, which the launcher compiles with `vm.Script` and the cached data of that
 * command; when there was none (or V8 refused it: another Node, other V8 flags), it saves the script's code
 * cache as the process exits, which then holds every function the command ran. The cache lives in the OS
 * temp folder, in a folder of the user's own (mode 0700, refused if anyone else owns it or may write to it),
 * one file per Node version, package build and command; `NODE_DISABLE_COMPILE_CACHE=1` turns it off, as it
 * does Node's. Whatever goes wrong with the cache, the command runs without it. What the bundle leaves to
 * node_modules (`CLI_EXTERNALS` in bundle.ts) loads with Node's compile cache on.
 */

/** The oldest Node the package runs on: node:sqlite (the embedded sandbox) needs no flag from 22.13. */
export const NODE_FLOOR = [22, 13] as const;

function nodeCheck(name: string): string {
  const [major, minor] = NODE_FLOOR;
  return `const [major, minor] = process.versions.node.split(".").map(Number);
if (major < ${major} || (major === ${major} && minor < ${minor})) {
  process.stderr.write(
    \`${name} needs Node.js ${major}.${minor} or later; this is \${process.version}. Install a newer Node, or use the single-file binary of the release.\\n\`,
  );
  process.exit(1);
}`;
}

/** A provider's launcher: Node's compile cache on, then the program's ES module bundle beside it. */
export function moduleLauncherScript(name: string): string {
  return `#!/usr/bin/env -S node --disable-warning=ExperimentalWarning
// ${name}, written by npm run pack: the program is the bundle beside this file.
import module from "node:module";

${nodeCheck(name)}
module.enableCompileCache?.();
await import("./${name}.mjs");
`;
}

/** The CLI's launcher (`bin/<name>.cjs`): the CommonJS bundle `bin/<name>.bundle.cjs`, with its code cache. */
export function cachedLauncherScript(name: string): string {
  return `#!/usr/bin/env -S node --disable-warning=ExperimentalWarning
// ${name}, written by npm run pack: the program is ${name}.bundle.cjs, run with a code cache per command
// (tools/release/launcher.ts in vigil's repository says why and how).
"use strict";
${nodeCheck(name)}
const fs = require("node:fs");
const path = require("node:path");
const vm = require("node:vm");
const { createRequire, enableCompileCache, wrap } = require("node:module");

// For what the bundle takes from node_modules (the watcher's and the sandbox's server, PostgreSQL's client).
enableCompileCache?.();

const file = path.join(__dirname, "${name}.bundle.cjs");
// UTF-8: esbuild escapes what is not ASCII in strings, not in regular expressions (/^⚠ / in the plan's
// warning), which latin1 would turn into other characters.
const source = fs.readFileSync(file, "utf8");
const cache = codeCache(process.argv[2]);
let cached;
if (cache) {
  try {
    cached = fs.readFileSync(cache.file);
  } catch {}
}
const script = new vm.Script(wrap(source), {
  filename: file,
  ...(cached && { cachedData: cached }),
  importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
});
if (cache && (!cached || script.cachedDataRejected)) process.once("exit", () => cache.save(script));
const program = { exports: {} };
script.runInThisContext().call(program.exports, program.exports, createRequire(file), program, file, __dirname);

/** Where this command's code cache is, and how it is saved; undefined when it cannot be kept safely. */
function codeCache(command) {
  if (process.env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  try {
    const dir = path.join(require("node:os").tmpdir(), "vigil-code-cache");
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const info = fs.lstatSync(dir);
    const uid = process.getuid?.();
    // Another user's folder, or one others may write to, could hand this process code: not used.
    if (!info.isDirectory() || (uid !== undefined && info.uid !== uid) || (info.mode & 0o022) !== 0)
      return undefined;
    const bundle = fs.statSync(file);
    const name = /^-{0,2}[a-z][a-z-]{0,31}$/.test(command ?? "") ? command : "default";
    const key = [process.version, process.arch, bundle.size, Math.trunc(bundle.mtimeMs), name].join("-");
    const cacheFile = path.join(dir, key + ".bin");
    return {
      file: cacheFile,
      save(script) {
        try {
          const temporary = cacheFile + "." + process.pid + ".tmp";
          fs.writeFileSync(temporary, script.createCachedData(), { mode: 0o600 });
          fs.renameSync(temporary, cacheFile);
        } catch {}
      },
    };
  } catch {
    return undefined;
  }
}
`;
}
