import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { expect, it } from "vitest";

/**
 * The sandbox's module shape: no import cycles (type-only imports count: they
 * tie the modules together just the same), and a `routes.ts` is imported only
 * by the module that registers its operations, so domain functions live in
 * model modules other resources can import; and no file grows past 500 lines.
 */

const root = resolve(import.meta.dirname, "../../src/sandbox");

const sources = (readdirSync(root, { recursive: true }) as string[])
  .filter((f) => f.endsWith(".ts"))
  .map((f) => join(root, f));

/** Relative imports and re-exports of each file, resolved to files of the sandbox. */
const edges = new Map<string, string[]>(
  sources.map((file) => {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    const targets = importedFiles
      .map((i) => i.fileName)
      .filter((name) => name.startsWith("."))
      .map((name) => resolve(dirname(file), name))
      .filter((target) => target.startsWith(root));
    return [file, targets];
  }),
);

const name = (file: string) => relative(root, file);

/** Strongly connected components of more than one file (Tarjan), or a file importing itself. */
function cycles(): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || edges.get(v)?.includes(v)) found.push(component.map(name).sort());
  };
  for (const file of sources) if (!index.has(file)) visit(file);
  return found;
}

it("reads the sandbox's imports", () => {
  expect(sources.length).toBeGreaterThan(100);
  expect(edges.get(join(root, "core/state.ts"))).toContain(join(root, "core/background.ts"));
});

it("has no import cycles", () => {
  expect(cycles()).toEqual([]);
});

it("imports a routes.ts only from the module that registers its operations", () => {
  const registrars = new Set(["operations.ts"]);
  const misplaced = [...edges]
    .flatMap(([file, targets]) => targets.filter((t) => t.endsWith("/routes.ts")).map((t) => [file, t]))
    .filter(([file, target]) => {
      const from = name(file!);
      // A resource folder's index.ts gathers the route files of its folder and subfolders.
      const ownIndex = from.endsWith("index.ts") && target!.startsWith(`${dirname(file!)}/`);
      return !registrars.has(from) && !ownIndex;
    })
    .map(([file, target]) => `${name(file!)} -> ${name(target!)}`);
  expect(misplaced).toEqual([]);
});

it("keeps every sandbox file under 500 lines", () => {
  const long = sources
    .map((file) => ({ file: name(file), lines: readFileSync(file, "utf8").split("\n").length }))
    .filter(({ lines }) => lines > 500);
  expect(long).toEqual([]);
});
