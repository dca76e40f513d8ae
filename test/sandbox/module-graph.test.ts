import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { expect, it } from "vitest";
import { kinds } from "../../src/kinds/index.ts";
import { cycles, importGraph } from "../../tools/import-cycles.ts";

/**
 * The sandbox's module shape: no import cycles (type-only imports count: they
 * tie the modules together just the same), and a `routes.ts` is imported only
 * by the module that registers its operations, so domain functions live in
 * model modules other resources can import, and it exports nothing but operations; a kind's standard
 * routes come from `crudOperations`; and no file grows past 500 lines.
 */

const root = resolve(import.meta.dirname, "../../src/sandbox");
const edges = importGraph(root);
const sources = [...edges.keys()];
const name = (file: string) => relative(root, file);

it("reads the sandbox's imports", () => {
  expect(sources.length).toBeGreaterThan(100);
  expect(edges.get(join(root, "core/state.ts"))).toContain(join(root, "core/background.ts"));
});

it("has no import cycles", () => {
  expect(cycles(edges).map((c) => c.map(name))).toEqual([]);
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

it("exports nothing but operations from a routes.ts: domain functions live in modules others may import", () => {
  const exported = sources
    .filter((file) => file.endsWith("/routes.ts"))
    .flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/^export (?:const|function|class|type|interface) (\w+)/gm)]
        .map((m) => m[1]!)
        .filter((n) => !/(Operations|Routes)$/.test(n))
        .map((n) => `${name(file)}: ${n}`),
    );
  expect(sources.filter((file) => file.endsWith("/routes.ts")).length).toBeGreaterThan(8);
  expect(exported).toEqual([]);
});

it("spells no kind's item path: a kind's get, update and delete come from crudOperations", () => {
  // Every kind's `paths.item` is a template the sandbox serves; only the kind itself may name it.
  const spelled = sources.flatMap((file) => {
    const text = readFileSync(file, "utf8");
    return kinds
      .filter((k) => text.includes(`"${k.paths.item}"`))
      .map((k) => `${name(file)}: ${k.paths.item}`);
  });
  expect(spelled).toEqual([]);
});

it("keeps every sandbox file under 500 lines", () => {
  const long = sources
    .map((file) => ({ file: name(file), lines: readFileSync(file, "utf8").split("\n").length }))
    .filter(({ lines }) => lines > 500);
  expect(long).toEqual([]);
});
