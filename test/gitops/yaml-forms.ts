/**
 * YAML written in every block and flow form the plain reader takes
 * (src/gitops/read-plain.ts), for test/gitops/read-paths.test.ts: random
 * trees of maps, lists and scalars, each written with randomly chosen
 * indentation (a list at its key's column or deeper, compact `- key: v` and
 * `- - x` items with one to three spaces after the dash), flow collections,
 * quoted and plain keys and scalars, and comment and blank lines at any
 * column between entries. What is written is meant to be valid YAML; the
 * composer is the judge of what it reads as.
 */
import fc from "fast-check";
import { type Scalar, stringify } from "yaml";
import { seeded } from "../../src/sandbox/core/faults.ts";

export type Tree = { scalar: unknown } | { seq: Tree[] } | { map: [string, Tree][] };
type Collection = Exclude<Tree, { scalar: unknown }>;

/** Names that are numbers, booleans, nulls or indicators in plain YAML, prototype names, and any short string. */
const names = fc.oneof(
  fc.constantFrom(
    ...["a", "b", "type", "url", "__proto__", "constructor", "toString", "1", "1e3", "0x1F", "-0", ".inf"],
    ...["true", "null", "~", "x y", "-a", ":a", "a:b", "a#b", "é", "日本", "a'b", 'a"b', "", " a", "a "],
  ),
  fc.string({ maxLength: 6 }),
);
const scalars = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.string({ maxLength: 12 }),
  fc.constantFrom(
    ...[
      "~",
      "yes",
      "1_000",
      "-.inf",
      ".NaN",
      "0o17",
      "+1",
      "1.",
      ".5",
      "2001-12-14",
      "https://x.example/a?b=c#d",
    ],
    ...["a: b", "- a", "#a", "a #b", "'q'", '"q"', "@a", "`a", "%a", "!a", "&a", "*a", "|", ">", "? a"],
    ...["[a]", "{a}", ",a", "a\nb", "\\", "\u2028", "\u0085"],
  ),
);
export const trees: fc.Arbitrary<Tree> = fc.letrec<{ tree: Tree; seq: Tree; map: Tree }>((tie) => ({
  tree: fc.oneof({ depthSize: "small" }, fc.record({ scalar: scalars }), tie("seq"), tie("map")),
  seq: fc.record({ seq: fc.array(tie("tree"), { maxLength: 4 }) }),
  // Names may repeat: a duplicate key is the composer's to report.
  map: fc.record({ map: fc.array(fc.tuple(names, tie("tree")), { maxLength: 4 }) }),
})).tree;

const stringTypes: Scalar.Type[] = ["PLAIN", "QUOTE_SINGLE", "QUOTE_DOUBLE"];

/** `tree` as a YAML file, laid out by choices drawn from `seed`. */
export function render(tree: Tree, seed: number): string {
  // The layout's choices, reproducible from fast-check's seed.
  const random = seeded(seed);
  const pick = (n: number) => Math.floor(random() * n);
  const chance = (p: number) => random() < p;
  const pad = (n: number) => " ".repeat(n);
  const lines: string[] = [];

  const scalar = (value: unknown, key: boolean) => {
    // A name as it is, so that `1e3`, `true` or `~` are typed as keys.
    if (key && typeof value === "string" && /^[\w.~-]+$/.test(value) && chance(0.4)) return value;
    // A scalar that is safe in a flow list is safe anywhere, and on one line (`lineWidth: 0` never folds).
    const text = stringify([value], {
      collectionStyle: "flow",
      flowCollectionPadding: false,
      lineWidth: 0,
      defaultStringType: stringTypes[pick(3)]!,
    });
    return text.slice(1, -2);
  };
  const trail = () => (chance(0.15) ? `${pad(1 + pick(2))}# t` : "");
  /** Comment and blank lines before an entry at `column`: the comment at any column. */
  const noise = (column: number) => {
    if (chance(0.1)) lines.push(`${pad(pick(column + 4))}# c`);
    if (chance(0.1)) lines.push(pad(pick(3)));
  };
  const flow = (t: Tree): string => {
    if ("scalar" in t) return scalar(t.scalar, false);
    const inner = chance(0.5) ? " " : "";
    const comma = chance(0.7) ? ", " : ",";
    if ("seq" in t) return `[${inner}${t.seq.map(flow).join(comma)}${inner}]`;
    return `{${inner}${t.map.map(([k, v]) => `${scalar(k, true)}: ${flow(v)}`).join(comma)}${inner}}`;
  };
  const asBlock = (t: Tree): t is Collection =>
    !("scalar" in t) && ("seq" in t ? t.seq.length : t.map.length) > 0 && chance(0.8);

  /** A block collection at `column`; `lead`, when given, begins its first line instead of the indentation. */
  const block = (t: Collection, column: number, lead?: string) => {
    const items: (Tree | [string, Tree])[] = "seq" in t ? t.seq : t.map;
    items.forEach((item, i) => {
      let prefix = lead;
      if (i > 0 || lead === undefined) {
        noise(column);
        prefix = pad(column);
      }
      if ("seq" in t) seqItem(item as Tree, column, prefix!);
      else mapEntry(item as [string, Tree], column, prefix!);
    });
  };
  const mapEntry = ([k, v]: [string, Tree], column: number, prefix: string) => {
    const key = `${scalar(k, true)}${chance(0.1) ? " " : ""}:`;
    if (!asBlock(v)) lines.push(`${prefix}${key}${pad(1 + pick(2))}${flow(v)}${trail()}`);
    else {
      lines.push(`${prefix}${key}${trail()}`);
      // A list may stand at its key's own column.
      block(v, "seq" in v && chance(0.5) ? column : column + 1 + pick(4));
    }
  };
  const seqItem = (v: Tree, column: number, prefix: string) => {
    if (!asBlock(v)) lines.push(`${prefix}-${pad(1 + pick(2))}${flow(v)}${trail()}`);
    else if (chance(0.7)) {
      const spaces = 1 + pick(3);
      block(v, column + 1 + spaces, `${prefix}-${pad(spaces)}`);
    } else {
      lines.push(`${prefix}-${trail()}`);
      block(v, column + 1 + pick(4));
    }
  };

  noise(0);
  const opened = chance(0.3);
  if (asBlock(tree)) {
    if (opened) lines.push(`---${trail()}`);
    block(tree, 0);
  } else lines.push(`${opened ? "--- " : ""}${flow(tree)}${trail()}`);
  noise(0);
  return lines.join(chance(0.2) ? "\r\n" : "\n") + (chance(0.8) ? "\n" : "");
}
