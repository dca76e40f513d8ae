/**
 * Lists the import cycles among the TypeScript files under a folder (default `src`), type-only imports
 * included: a cycle of types still ties two modules' designs together. Exits 1 when it finds one.
 *   npm exec -- node tools/import-cycles.ts [folder]
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

/** The TypeScript files under a folder, declaration files left out. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

/** A file's relative imports, re-exports and `import()`s, resolved to absolute paths (wherever they lead). */
export function relativeImports(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
  const targets = importedFiles
    .map((i) => i.fileName)
    .filter((name) => name.startsWith("."))
    .map((name) => resolve(dirname(file), name));
  return [...new Set(targets)];
}

/** Each file's relative imports and re-exports, resolved to files under the root. */
export function importGraph(root: string): Map<string, string[]> {
  const files = filesUnder(root).map((f) => resolve(f));
  const known = new Set(files);
  return new Map(files.map((file) => [file, relativeImports(file).filter((target) => known.has(target))]));
}

/** The strongly connected components with more than one file (or a file importing itself): Tarjan's. */
export function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  let next = 0;
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || graph.get(node)?.includes(node)) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  const root = process.argv[2] ?? "src";
  const found = cycles(importGraph(root));
  for (const component of found)
    console.log(
      `cycle of ${component.length}: ${component.map((f) => relative(process.cwd(), f)).join(", ")}`,
    );
  console.log(`${found.length} import cycle(s) under ${root}`);
  process.exitCode = found.length > 0 ? 1 : 0;
}
