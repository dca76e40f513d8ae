/**
 * The default state of `--sandbox` runs belongs to the configuration it was made for. Every configuration
 * planned from one directory shares that directory's embedded sandbox (one account, `.vigil/sandbox.json`),
 * but each keeps its own state there, keyed by the configuration's directory: the deepest directory holding
 * every path given (a file stands for its directory), relative to the working directory. The working
 * directory's own configuration keeps `.vigil/sandbox-state.json`; another one's is
 * `.vigil/sandbox-states/<its directory, URI-encoded>/state.json`, with its outputs and history beside it.
 * So planning another repository from a checkout never reads the state of the checkout's example, and
 * `vigil destroy webhooks.yaml --sandbox` still acts on the state of the configuration that file is in.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

const statesDirName = "sandbox-states";

/** The directory of the configuration at `paths` (the working directory by default), relative to it: `.`, `examples/gitops`. */
export function configDirOf(paths: readonly string[] = []): string {
  const dirs = (paths.length > 0 ? paths : ["."]).map((p) => {
    const absolute = resolve(p);
    return isFile(absolute) ? dirname(absolute) : absolute;
  });
  const common = dirs.reduce(commonAncestor);
  const rel = relative(process.cwd(), common);
  return rel === "" ? "." : rel.split(sep).join("/");
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function commonAncestor(a: string, b: string): string {
  let common = a;
  while (!within(common, b)) common = dirname(common);
  return common;
}

function within(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** A directory name that stands for the configuration's directory and decodes back to it. */
function encode(configDir: string): string {
  const name = encodeURIComponent(configDir).replaceAll(".", "%2E");
  // Within a file name's 255 bytes; a longer one is named by its digest (and listed as such).
  return name.length <= 200 ? name : `sha256-${createHash("sha256").update(configDir).digest("hex")}`;
}

function decode(name: string): string | undefined {
  if (name.startsWith("sha256-")) return undefined;
  try {
    return decodeURIComponent(name);
  } catch {
    return undefined;
  }
}

/** The default `--sandbox` state of the configuration in `configDir`, under `vigilDir`. */
export function sandboxStateOf(vigilDir: string, configDir: string): string {
  return configDir === "."
    ? `${vigilDir}/sandbox-state.json`
    : `${vigilDir}/${statesDirName}/${encode(configDir)}/state.json`;
}

export interface SandboxState {
  /** The configuration's directory (undefined for one named by its digest). */
  configDir: string | undefined;
  path: string;
}

/** The `--sandbox` states kept under `vigilDir`: the working directory's first, then the others by name. */
export function sandboxStates(vigilDir: string): SandboxState[] {
  const out: SandboxState[] = [];
  const own = sandboxStateOf(vigilDir, ".");
  if (existsSync(own)) out.push({ configDir: ".", path: own });
  let names: string[] = [];
  try {
    names = readdirSync(join(vigilDir, statesDirName)).sort();
  } catch {
    // No other configuration was planned from here.
  }
  for (const name of names) {
    const path = `${vigilDir}/${statesDirName}/${name}/state.json`;
    if (existsSync(path)) out.push({ configDir: decode(name), path });
  }
  return out;
}

/** `examples/gitops (.vigil/sandbox-states/examples%2Fgitops/state.json)`. */
export function describeSandboxState(state: SandboxState): string {
  const which = state.configDir === "." ? "this directory" : (state.configDir ?? "a configuration");
  return `${which} (${state.path})`;
}
