/**
 * Any YAML file into plain values and spots, through the yaml library's own
 * composer: anchors and aliases, tags, block scalars, several documents and
 * every syntax error. `read-plain.ts` reads the plain files most configurations
 * are, faster, and hands any other file to this reader.
 *
 * Aliases are never copied: an anchored value is converted once and shared,
 * and its expanded size is counted, so an "alias bomb" is refused at its
 * alias in time proportional to its text.
 */
import {
  Alias,
  Composer,
  type CST,
  type Document,
  isMap,
  isScalar,
  isSeq,
  type Node,
  type YAMLMap,
  type YAMLSeq,
} from "yaml";
import {
  type FileProblem,
  limits,
  mapSpot,
  memberOf,
  type Position,
  quote,
  type SeqSpot,
  type Spot,
  userMap,
  type ValueBudget,
  type YamlPath,
} from "./source.ts";

/**
 * The document the parser's tokens hold, composed as `parseDocument` does.
 * `more` is the offset of a second document, if there is one.
 */
export function composeDocument(tokens: CST.Token[], text: string): { doc: Document.Parsed; more?: number } {
  // Duplicate keys are found while converting, where the first one's position is known.
  const composer = new Composer({ uniqueKeys: false });
  let doc: Document.Parsed | undefined;
  for (const next of composer.compose(tokens, true, text.length)) {
    if (doc) return { doc, more: next.range[0] };
    doc = next;
  }
  return { doc: doc! };
}

/** Stops a file's conversion: the problem is the file's only one. */
class Refusal extends Error {
  readonly offset: number;
  readonly path: YamlPath | undefined;
  constructor(offset: number, message: string, path?: YamlPath) {
    super(message);
    this.offset = offset;
    this.path = path;
  }
}

/** A converted node: its value, its spot, and its size and height once its aliases are expanded. */
interface Converted {
  data: unknown;
  spot: Spot;
  values: number;
  height: number;
}

/**
 * The document's contents as plain data (maps as `userMap`s) and
 * spots; duplicate keys and keys that are not names are problems, and a value
 * past the limits refuses the whole file.
 */
export function readDocument(
  doc: Document.Parsed,
  budget: ValueBudget,
  at: (offset: number) => Position,
): { data: unknown; spot: Spot; problems: FileProblem[] } | { refused: FileProblem } {
  const conversion = new Conversion(budget, at);
  try {
    const root =
      doc.contents === null
        ? { data: userMap(), spot: 0, values: 0, height: 0 }
        : conversion.convert(doc.contents, 1, 0);
    return { data: root.data, spot: root.spot, problems: conversion.problems };
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    return {
      refused: { at: at(error.offset), message: error.message, ...(error.path && { path: error.path }) },
    };
  }
}

const tooMany = () =>
  `the configuration holds more than ${limits.values.toLocaleString("en")} values (maps, lists and scalars, counting each use of an alias in full), the most vigil reads`;

/** One document's conversion: its anchors, its budget, and the path of the node being converted. */
class Conversion {
  readonly problems: FileProblem[] = [];
  /** The last node of each anchor so far, in document order: what an alias there refers to. */
  private readonly anchors = new Map<string, Node>();
  /** Anchored nodes, converted once and shared by their aliases. */
  private readonly converted = new Map<Node, Converted | "converting">();
  /** The path of the node being converted. */
  private readonly trail: (string | number)[] = [];
  private readonly budget: ValueBudget;
  private readonly at: (offset: number) => Position;

  constructor(budget: ValueBudget, at: (offset: number) => Position) {
    this.budget = budget;
    this.at = at;
  }

  convert(node: unknown, depth: number, fallback: number): Converted {
    if (node instanceof Alias) return this.alias(node, depth, fallback);
    const offset = (node as Node | null)?.range?.[0] ?? fallback;
    if (depth > limits.depth)
      throw new Refusal(offset, `values nest deeper than ${limits.depth} levels here, the most vigil reads`, [
        ...this.trail,
      ]);
    this.spend(1, offset, tooMany);
    const anchor = (node as { anchor?: string } | null)?.anchor;
    if (anchor) {
      this.anchors.set(anchor, node as Node);
      this.converted.set(node as Node, "converting");
    }
    let result: Converted;
    if (isMap(node)) result = this.map(node, offset, depth);
    else if (isSeq(node)) result = this.seq(node, offset, depth);
    else result = { data: isScalar(node) ? node.value : (node ?? null), spot: offset, values: 1, height: 1 };
    if (anchor) this.converted.set(node as Node, result);
    return result;
  }

  private spend(values: number, offset: number, what: () => string): void {
    this.budget.remaining -= values;
    if (this.budget.remaining < 0) throw new Refusal(offset, what(), [...this.trail]);
  }

  /** An alias: its anchor's value, shared, its expanded size spent from the budget. */
  private alias(node: Alias, depth: number, fallback: number): Converted {
    const offset = node.range?.[0] ?? fallback;
    const target = this.anchors.get(node.source);
    const done = target && this.converted.get(target);
    if (!done || done === "converting")
      throw new Refusal(
        offset,
        `the alias *${node.source} refers to ${done ? "itself" : "no anchor before it"}`,
        [...this.trail],
      );
    if (depth + done.height > limits.depth)
      throw new Refusal(
        offset,
        `the alias *${node.source} nests values deeper than ${limits.depth} levels, the most vigil reads`,
        [...this.trail],
      );
    this.spend(
      done.values,
      offset,
      () => `the alias *${node.source} expands to ${done.values.toLocaleString("en")} values: ${tooMany()}`,
    );
    const spot = typeof done.spot === "number" ? offset : { ...done.spot, at: offset };
    return { ...done, spot };
  }

  /** A map: keys that are names, each once; `key:` with nothing after it is null, found at the key. */
  private map(node: YAMLMap, offset: number, depth: number): Converted {
    const { at, trail } = this;
    const data = userMap();
    const size = node.items.length;
    const spot = mapSpot(offset, size);
    let count = 0;
    let values = 1;
    let height = 1;
    for (const pair of node.items) {
      const keyNode = pair.key as Node | null;
      const keyAt = keyNode?.range?.[0] ?? offset;
      if (isScalar(keyNode) && keyNode.anchor) {
        this.anchors.set(keyNode.anchor, keyNode);
        this.converted.set(keyNode, { data: keyNode.value, spot: keyAt, values: 1, height: 1 });
      }
      const key = isScalar(keyNode) ? keyNode.value : undefined;
      if (typeof key !== "string" && typeof key !== "number") {
        this.problems.push({ at: at(keyAt), message: "a key must be a plain name" });
        continue;
      }
      const member = String(key);
      const first = memberOf(spot, member, count);
      if (first >= 0) {
        const { line, column } = at(spot.keyAt[first]!);
        this.problems.push({
          at: at(keyAt),
          message: `the key ${quote(member)} appears twice in this map (first at line ${line}, column ${column}); keys must be unique`,
          path: [...trail, member],
        });
        continue;
      }
      spot.index?.set(member, count);
      spot.names[count] = member;
      spot.keyAt[count] = keyAt;
      trail.push(member);
      const child = pair.value === null ? undefined : this.convert(pair.value, depth + 1, keyAt);
      trail.pop();
      data[member] = child ? child.data : null;
      spot.members[count++] = child ? child.spot : keyAt;
      values += child?.values ?? 1;
      height = Math.max(height, 1 + (child?.height ?? 1));
    }
    if (count < size) spot.names.length = spot.keyAt.length = spot.members.length = count;
    return { data, spot, values, height };
  }

  private seq(node: YAMLSeq, offset: number, depth: number): Converted {
    const data: unknown[] = new Array(node.items.length);
    const spot: SeqSpot = { at: offset, items: new Array(node.items.length) };
    let values = 1;
    let height = 1;
    const items = node.items;
    for (let i = 0; i < items.length; i++) {
      this.trail.push(i);
      const child = this.convert(items[i], depth + 1, offset);
      this.trail.pop();
      data[i] = child.data;
      spot.items[i] = child.spot;
      values += child.values;
      height = Math.max(height, 1 + child.height);
    }
    return { data, spot, values, height };
  }
}
