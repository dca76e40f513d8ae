/**
 * The loader's two readers of a YAML file must agree (src/gitops/read-plain.ts):
 * on every input the plain reader takes, it gives exactly what the composer's
 * reader gives (data, the position of every key and value, values counted),
 * the composer finds no problem in it, and on every input it gives up on, it
 * spends none of the value budget. The inputs are the example configurations,
 * the fixtures, the hostile corpus, YAML that `yaml.stringify` writes for
 * arbitrary values, and all of those mutated with YAML's significant
 * characters.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { inspect, isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Document, LineCounter, type Scalar, visit } from "yaml";
import { loaderConfig } from "../../bench/loader-config.ts";
import { parseTokens } from "../../src/gitops/files.ts";
import { composeDocument, readDocument } from "../../src/gitops/read-document.ts";
import { readPlain } from "../../src/gitops/read-plain.ts";
import { limits } from "../../src/gitops/source.ts";
import { hostileCases } from "./hostile/cases.ts";
import { render, trees } from "./yaml-forms.ts";

/** Reads `text` both ways; whether the plain reader took it. */
function compareReaders(text: string): boolean {
  const budget = { remaining: limits.values };
  const plain = readPlain(text, budget);
  const tokens = parseTokens(text, new LineCounter());
  // Nesting past the limit is refused before the composer's reader runs; the plain one gives up on it.
  if (!Array.isArray(tokens)) expect(plain).toBeUndefined();
  if (!plain || !Array.isArray(tokens)) {
    expect(budget.remaining).toBe(limits.values);
    return false;
  }
  const { doc, more } = composeDocument(tokens, text);
  expect(more).toBeUndefined();
  expect([...doc.errors, ...doc.warnings].map((e) => e.message)).toEqual([]);
  const composed = { remaining: limits.values };
  const read = readDocument(doc, composed, (offset) => ({ file: "f.yaml", line: 1, column: offset + 1 }));
  if ("refused" in read)
    throw new Error(`the composer's reader refused what the plain one took: ${read.refused.message}`);
  expect(read.problems).toEqual([]);
  // node's comparison, not vitest's: a member named `constructor` would make vitest compare it as the type.
  const same = (a: unknown, b: unknown) =>
    expect(isDeepStrictEqual(a, b), `${inspect(a, { depth: 20 })}\n≠\n${inspect(b, { depth: 20 })}`).toBe(
      true,
    );
  same(plain.data, read.data);
  same(plain.spot, read.spot);
  expect(budget.remaining).toBe(composed.remaining);
  return true;
}

function yamlFiles(dir: string): string[] {
  return (
    readdirSync(dir, { withFileTypes: true, recursive: true })
      // The loader skips hidden directories (`.github`) too.
      .filter((e) => e.isFile() && /\.ya?ml$/.test(e.name) && !/[/\\]\./.test(e.parentPath))
      .map((e) => join(e.parentPath, e.name))
  );
}

const root = join(import.meta.dirname, "../..");
const examples = [...yamlFiles(join(root, "examples")), ...yamlFiles(join(root, "test/gitops/fixtures"))];
const corpus = [
  ...examples.map((f) => readFileSync(f, "utf8")),
  ...hostileCases.flatMap((c) =>
    Object.values(c.files).flatMap((f) => (typeof f === "string" && f.length < 100_000 ? [f] : [])),
  ),
];

describe("the plain reader and the composer's reader", () => {
  it("agree on the example configurations, which the plain reader reads", () => {
    expect(examples.length).toBeGreaterThan(5);
    for (const file of examples) {
      const text = readFileSync(file, "utf8");
      expect(compareReaders(text), file).toBe(true);
      // Written on Windows.
      expect(compareReaders(text.replaceAll("\n", "\r\n")), file).toBe(true);
    }
  });

  it("agree on the loader bench's configuration, which the plain reader reads", () => {
    for (const [name, text] of loaderConfig(500, 2)) expect(compareReaders(text), name).toBe(true);
  });

  it("agree on a document opened with ---, and leave a block map on the --- line to the composer", () => {
    const text = readFileSync(examples[0]!, "utf8");
    expect(compareReaders(`---\n${text}`)).toBe(true);
    expect(compareReaders(`--- # monitoring\n\n${text}`)).toBe(true);
    expect(compareReaders("--- { monitors: {} }\n")).toBe(true);
    // "Block collection cannot start on same line with directives-end marker": the composer says so.
    expect(compareReaders("--- monitors: {}\n")).toBe(false);
  });

  it("agree on the layouts of lists and maps YAML allows, which the plain reader reads", () => {
    const forms = [
      // A list at its key's own column, in a compact map, then the map going on.
      "a:\n- x\n- y\nb: 1\n",
      "- a:\n  - x\n  b: 1\n- c\n",
      // Compact items with several spaces after the dash, and lists in lists.
      "-   a: 1\n    b: 2\n- - x\n  -  - y\n     - z\n",
      "-\n  a: 1\n-  # why\n   - x\n",
      // Comments and blank lines at any column between entries, spaces before the colon.
      "a:\n  b: 1\n# at 0\n\n      # deeper\n  c : 2 # after\nd: 3",
      // Flow collections, JSON-like keys, quoted scalars with escapes, a root that is a scalar or a flow list.
      "{\"a\":1, b: [ ], c: {d: \"\\u00e9\\n\", 'e''f': -.inf}}\n",
      "--- [a, {b: c}] # why\n",
      "just a string # why\n",
      "a: 1\r\nb:\r\n- 2\r\n",
    ];
    for (const text of forms) expect(compareReaders(text), text).toBe(true);
  });

  it("leave the forms outside the plain subset to the composer", () => {
    const others = [
      "a: &x 1\nb: *x\n",
      "a: !!str 1\n",
      "? a\n: 1\n",
      "a: |\n  text\n",
      "a: one\n  two\n",
      "a:\nb: 1\n",
      "- \n- x\n",
      "[a, ]\n",
      "%YAML 1.2\n---\na: 1\n",
      "a: 1\n...\n",
      "a: 1\n---\nb: 2\n",
      "\ufeffa: 1\n",
      "  a: 1\n",
      "a: 1\rb: 2\n",
      "",
      "# only a comment\n",
    ];
    for (const text of others) expect(compareReaders(text), text).toBe(false);
  });

  it("agree on every block and flow layout of random trees, and the plain reader reads most of them", () => {
    let plain = 0;
    fc.assert(
      fc.property(trees, fc.integer(), (tree, seed) => {
        if (compareReaders(render(tree, seed))) plain++;
      }),
      { numRuns: 2000 },
    );
    // It gives up on null, boolean and duplicate keys, and on multi-line scalars; on little else.
    expect(plain).toBeGreaterThan(1600);
  });

  it("agree on the hostile corpus", () => {
    for (const text of corpus) compareReaders(text);
  });

  it("agree on what yaml.stringify writes for arbitrary values, with its layout options and comments", () => {
    const styles: (Scalar.Type | null)[] = [null, "PLAIN", "QUOTE_SINGLE", "QUOTE_DOUBLE"];
    let plain = 0;
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 5 }),
        fc.record({
          flowCollectionPadding: fc.boolean(),
          collectionStyle: fc.constantFrom("any", "block", "flow"),
          indent: fc.integer({ min: 1, max: 4 }),
          indentSeq: fc.boolean(),
          defaultKeyType: fc.constantFrom(...styles),
          defaultStringType: fc.constantFrom(...styles.slice(1)),
        }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }),
        (value, options, commented) => {
          // Comments before and after some of the values, as a person would write them.
          const doc = new Document(value);
          let n = 0;
          visit(doc, {
            Node(_, node) {
              if (commented[n++ % commented.length]) node.commentBefore = " why";
              else if (commented[n % commented.length]) node.comment = " note";
            },
          });
          if (compareReaders(doc.toString({ ...(options as object), lineWidth: 0 }))) plain++;
        },
      ),
      { numRuns: 600 },
    );
    // Most of them are plain: the comparison is not vacuous.
    expect(plain).toBeGreaterThan(300);
  });

  it("agree on the corpus mutated with YAML's significant characters", () => {
    const snippets = [
      "\t",
      " ",
      "  ",
      "\n",
      "\n  ",
      ":",
      ": ",
      "-",
      "- ",
      "#",
      " #",
      "'",
      '"',
      "\\",
      "{",
      "}",
      "[",
      "]",
      ",",
      "&a ",
      "*a",
      "!!str ",
      "? ",
      "|",
      ">",
      "---\n",
      "...\n",
      "~",
      "null",
      "true",
      "0x1F",
      "1e3",
      ".inf",
      "<<: ",
      "__proto__",
      "\u00a0",
      "%YAML 1.2\n",
    ];
    let plain = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...corpus.filter((t) => t.length < 20_000)),
        fc.array(
          fc.tuple(
            fc.double({ min: 0, max: 1, noNaN: true }),
            fc.integer({ min: 0, max: 3 }),
            fc.constantFrom(...snippets),
          ),
          { minLength: 1, maxLength: 4 },
        ),
        (source, edits) => {
          let text = source;
          for (const [where, removed, inserted] of edits) {
            const at = Math.floor(where * text.length);
            text = text.slice(0, at) + inserted + text.slice(at + removed);
          }
          if (compareReaders(text)) plain++;
        },
      ),
      { numRuns: 3000 },
    );
    expect(plain).toBeGreaterThan(100);
  });
});
