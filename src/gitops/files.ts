/**
 * Finding and reading the YAML files of a GitOps repo, keeping every node's
 * source position so errors can say file:line:column.
 */
import { readdir, readFile, stat } from "node:fs/promises";
import { join, relative } from "node:path";
import { Alias, type Document, isMap, isScalar, isSeq, LineCounter, type Node, parseDocument } from "yaml";

export interface Position {
  file: string;
  line: number;
  column: number;
}

/** A path into a file's data: map keys and sequence indices. */
export type YamlPath = readonly (string | number)[];

/** Where each node of a file came from: the value's position and, for map members, the key's. */
export interface SourceMap {
  value(path: YamlPath): Position | undefined;
  key(path: YamlPath): Position | undefined;
  /** Whether the file has a node at this path. */
  has(path: YamlPath): boolean;
}

export interface ParsedFile {
  file: string;
  data: unknown;
  positions: SourceMap;
}

export interface FileProblem {
  at: Position;
  /** Where in the file's data, when the problem is in a node (a duplicate key). */
  path?: YamlPath;
  message: string;
}

const yamlFile = /\.ya?ml$/i;

/**
 * Every `*.yaml`/`*.yml` under the given paths (files given by name are taken
 * whatever their extension), in a stable order. Hidden directories (`.github`,
 * `.vigil`) and `node_modules` are skipped.
 */
export async function findConfigFiles(
  paths: readonly string[],
): Promise<{ files: string[]; problems: string[] }> {
  const files = new Set<string>();
  const problems: string[] = [];
  async function walk(dir: string): Promise<void> {
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile() && yamlFile.test(entry.name)) files.add(full);
    }
  }
  for (const path of paths) {
    const info = await stat(path).catch(() => undefined);
    if (!info) problems.push(`${path}: no such file or directory`);
    else if (info.isDirectory()) await walk(path);
    else files.add(path);
  }
  return { files: [...files], problems };
}

const pathKey = (path: YamlPath) => JSON.stringify(path);

/** The file name as shown in messages: relative to the working directory when inside it. */
export function displayName(file: string, cwd = process.cwd()): string {
  const rel = relative(cwd, file);
  return rel.startsWith("..") ? file : rel;
}

/** Parses one file into plain data plus a source map; syntax errors and duplicate keys are problems. */
export async function parseConfigFile(
  file: string,
): Promise<{ parsed?: ParsedFile; problems: FileProblem[] }> {
  const name = displayName(file);
  const text = await readFile(file, "utf8");
  const lineCounter = new LineCounter();
  // Duplicate keys are found below, where the first one's position is known.
  const doc = parseDocument(text, { lineCounter, uniqueKeys: false, prettyErrors: false });
  const at = (offset: number | undefined): Position => {
    const { line, col } = lineCounter.linePos(offset ?? 0);
    return { file: name, line, column: col };
  };
  const problems: FileProblem[] = [...doc.errors, ...doc.warnings].map((e) => ({
    at: at(e.pos[0]),
    // The library's own wording names its API; say what to do instead.
    message:
      e.code === "MULTIPLE_DOCS"
        ? "a vigil file holds one YAML document; move what follows --- into a file of its own"
        : e.message.split("\n")[0]!,
  }));
  if (problems.length > 0) return { problems };

  const values = new Map<string, Position>();
  const keys = new Map<string, Position>();
  const toData = (node: unknown, path: (string | number)[], seen: Set<Node>): unknown => {
    if (node instanceof Alias) {
      const target = node.resolve(doc as Document) as Node | undefined;
      if (!target || seen.has(target)) {
        problems.push({ at: at(node.range?.[0]), message: "an alias that refers to itself or to nothing" });
        return undefined;
      }
      return toData(target, path, new Set([...seen, target]));
    }
    if (node && typeof node === "object" && "range" in node)
      values.set(pathKey(path), at((node as Node).range?.[0]));
    if (isMap(node)) {
      const out: Record<string, unknown> = {};
      for (const pair of node.items) {
        const keyNode = pair.key;
        const key = isScalar(keyNode) ? keyNode.value : undefined;
        if (typeof key !== "string" && typeof key !== "number") {
          problems.push({
            at: at((keyNode as Node | null)?.range?.[0]),
            message: "a key must be a plain name",
          });
          continue;
        }
        const child = [...path, String(key)];
        const keyAt = at((keyNode as Node).range?.[0]);
        const first = keys.get(pathKey(child));
        if (first) {
          problems.push({
            at: keyAt,
            path: child,
            message: `the key "${key}" appears twice in this map (first at line ${first.line}, column ${first.column}); keys must be unique`,
          });
          continue;
        }
        keys.set(pathKey(child), keyAt);
        out[String(key)] = toData(pair.value, child, seen);
        // `key:` with nothing after it: point at the key.
        if (!values.has(pathKey(child))) values.set(pathKey(child), keys.get(pathKey(child))!);
      }
      return out;
    }
    if (isSeq(node)) return node.items.map((item, i) => toData(item, [...path, i], seen));
    if (isScalar(node)) return node.value;
    return node ?? null;
  };
  // A duplicate key (the first one kept) or a bad alias leaves the rest readable: the file's names stay
  // declared, so references to them from other files do not add errors of their own.
  const data = doc.contents === null ? {} : toData(doc.contents, [], new Set());
  const nearest = (map: Map<string, Position>, path: YamlPath): Position | undefined => {
    for (let n = path.length; n >= 0; n--) {
      const found = map.get(pathKey(path.slice(0, n)));
      if (found) return found;
    }
    return undefined;
  };
  return {
    parsed: {
      file: name,
      data,
      positions: {
        value: (path) => nearest(values, path),
        has: (path) => values.has(pathKey(path)),
        key: (path) => keys.get(pathKey(path)) ?? nearest(values, path),
      },
    },
    problems,
  };
}
