/**
 * Plain YAML files into plain values and spots in one pass over the yaml
 * library's CST (its public `Parser` tokens, and `CST.resolveAsScalar` for
 * the scalars), without composing a `Document`: composing allocated a node,
 * a pair and a range per value, and most of a large configuration's load
 * time went to building and collecting them.
 *
 * "Plain" is the subset configurations are written in: one document of block
 * maps and lists, flow collections on one line, and plain or quoted scalars,
 * with comments, after an optional `---`. Anything else (anchors, aliases,
 * tags, block scalars, directives, `...`, several documents, multi-line flow
 * collections, tabs, an empty file) and anything the composer would report (a
 * syntax error, a duplicate key, a key that is not a name, a value past the
 * limits) makes `readPlain` give up, and `read-document.ts` reads the file
 * and words the problems. So this path never decides what an
 * error says; `test/gitops/read-paths.test.ts` checks that on every input it
 * takes, it gives exactly what the composer's path gives.
 */
import { CST, Document, isScalar, type ScalarTag } from "yaml";
import { limits, mapSpot, memberOf, type SeqSpot, type Spot, userMap, type ValueBudget } from "./source.ts";

/** The schema and options `composeDocument` composes with: plain scalars are typed by the same tags. */
const { schema, options } = new Document(undefined, { uniqueKeys: false });
/** The scalar tags a plain scalar is tested against, in the schema's order (`findScalarTagByTest` in yaml). */
const plainTags = schema.tags.filter((t): t is ScalarTag & { test: RegExp } => !t.collection && !!t.test);

/** Thrown when the file is not plain: one instance, as it is not an error but a change of path. */
const notPlain = new Error("not a plain YAML file");
function giveUp(): never {
  throw notPlain;
}

type Gap = CST.SourceToken;
/**
 * Whether tokens between values are only spaces, line breaks and comments
 * (each after a space or a line break, as YAML wants), and the one
 * `indicator` (`:`, `-` or `,`) when one is asked for; from the token at `from`.
 */
function isGap(
  tokens: readonly Gap[] | undefined,
  indicator: string | null,
  afterSpace: boolean,
  from = 0,
): boolean {
  let found = indicator === null;
  let spaced = afterSpace;
  for (let i = from; i < (tokens?.length ?? 0); i++) {
    const t = tokens![i]!;
    if (t.type === "space" || t.type === "newline") spaced = true;
    else if (t.type === "comment") {
      if (!spaced) return false;
    } else if (t.type === indicator && !found) {
      found = true;
      spaced = false;
    } else return false;
  }
  return found;
}

/** Whether tokens are only spaces and line breaks. */
function isBlank(tokens: readonly Gap[] | undefined): boolean {
  for (const t of tokens ?? []) if (t.type !== "space" && t.type !== "newline") return false;
  return true;
}

const hasNewline = (tokens: readonly Gap[]) => tokens.some((t) => t.type === "newline");

type FlowScalar = CST.FlowScalar;
const isFlowScalar = (t: CST.Token | null | undefined): t is FlowScalar =>
  t?.type === "scalar" || t?.type === "single-quoted-scalar" || t?.type === "double-quoted-scalar";

/** One file's conversion: `spot` is the spot of the value converted last. */
class PlainReader {
  spot: Spot = 0;
  private readonly text: string;
  private readonly budget: ValueBudget;
  constructor(text: string, budget: ValueBudget) {
    this.text = text;
    this.budget = budget;
  }

  value(token: CST.Token, depth: number): unknown {
    // Past a limit, the composer's path refuses the file with its message.
    if (depth > limits.depth || --this.budget.remaining < 0) giveUp();
    switch (token.type) {
      case "scalar":
      case "single-quoted-scalar":
      case "double-quoted-scalar":
        this.spot = token.offset;
        return this.scalar(token, false);
      case "block-map":
        return this.blockMap(token, depth);
      case "block-seq":
        return this.blockSeq(token, depth);
      case "flow-collection":
        return this.flow(token, depth);
      default:
        return giveUp();
    }
  }

  /**
   * The values of the plain scalars read so far that are on one line and
   * followed by nothing but spaces and line breaks, by their text, for keys
   * and for values: such a value depends on its text alone, and most repeat
   * (`type`, `http`, `alertTypes`).
   */
  private readonly seen = { key: new Map<string, unknown>(), value: new Map<string, unknown>() };

  /** A scalar's value: quoted ones are strings, plain ones typed as the composer types them. */
  scalar(token: FlowScalar, atKey: boolean): unknown {
    const seen = atKey ? this.seen.key : this.seen.value;
    const simple = token.type === "scalar" && !token.source.includes("\n") && isBlank(token.end);
    if (simple && seen.has(token.source)) return seen.get(token.source);
    const { value } = CST.resolveAsScalar(token, true, giveUp);
    if (token.type !== "scalar") return value;
    let typed: unknown = value;
    for (const tag of plainTags) {
      if ((tag.default === true || (atKey && tag.default === "key")) && tag.test.test(value)) {
        const resolved = tag.resolve(value, giveUp, options);
        typed = isScalar(resolved) ? resolved.value : resolved;
        break;
      }
    }
    if (simple) seen.set(token.source, typed);
    return typed;
  }

  /** A member's name: a key's value, which must be a string or a number. */
  key(token: CST.Token | null | undefined): string {
    if (!isFlowScalar(token) || token.source.includes("\n") || (token.end && token.end.length > 0)) giveUp();
    const key = this.scalar(token as FlowScalar, true);
    return typeof key === "string" ? key : typeof key === "number" ? String(key) : giveUp();
  }

  blockMap(map: CST.BlockMap, depth: number): unknown {
    const { items } = map;
    const data = userMap();
    const spot = mapSpot(map.offset, items.length);
    let count = 0;
    for (let i = 0; i < items.length; i++) {
      const { start, key, sep, value } = items[i]!;
      if (!isGap(start, null, true)) giveUp();
      // Comments after the last member.
      if (!key && !sep && !value && i === items.length - 1) continue;
      if (!isFlowScalar(key) || !sep || !value || key.indent !== map.indent) giveUp();
      if (!isGap(sep, "map-value-ind", false)) giveUp();
      if (value.type === "block-map" && !hasNewline(sep)) giveUp();
      // The composer's limit on an implicit key's length, measured here to the end of what separates key
      // and value, which is at least as far.
      if (sep[sep.length - 1]!.offset - key.offset > 1024) giveUp();
      const name = this.key(key);
      if (memberOf(spot, name, count) >= 0) giveUp();
      spot.index?.set(name, count);
      spot.names[count] = name;
      spot.keyAt[count] = key.offset;
      data[name] = this.value(value, depth + 1);
      spot.members[count++] = this.spot;
    }
    if (count < items.length) spot.names.length = spot.keyAt.length = spot.members.length = count;
    this.spot = spot;
    return data;
  }

  blockSeq(seq: CST.BlockSequence, depth: number): unknown {
    const { items } = seq;
    const data: unknown[] = new Array(items.length);
    const spot: SeqSpot = { at: seq.offset, items: new Array(items.length) };
    for (let i = 0; i < items.length; i++) {
      const { start, value } = items[i]!;
      if (!value || !isGap(start, "seq-item-ind", true)) giveUp();
      data[i] = this.value(value!, depth + 1);
      spot.items[i] = this.spot;
    }
    this.spot = spot;
    return data;
  }

  /** A flow map or list on one line, with no comments: `{ pools: [westeurope] }`. */
  flow(flow: CST.FlowCollection, depth: number): unknown {
    const { items } = flow;
    const isMap = flow.start.source === "{";
    const end = flow.end[0];
    if (end?.source !== (isMap ? "}" : "]") || !isGap(flow.end, null, false, 1)) giveUp();
    // On one line: then neither a comment nor an indentation rule is inside.
    if (this.text.lastIndexOf("\n", end!.offset) > flow.offset) giveUp();
    const data: Record<string, unknown> | unknown[] = isMap ? userMap() : new Array(items.length);
    const spot = isMap
      ? mapSpot(flow.offset, items.length)
      : { at: flow.offset, items: new Array(items.length) };
    for (let i = 0; i < items.length; i++) {
      const { start, key, sep, value } = items[i]!;
      // Items are separated by one comma, and the first has none.
      if (!value || !isGap(start, i === 0 ? null : "comma", false)) giveUp();
      if (value!.type === "block-map" || value!.type === "block-seq") giveUp();
      if (isMap) {
        if (!key || !isGap(sep, "map-value-ind", false)) giveUp();
        const name = this.key(key);
        const map = spot as ReturnType<typeof mapSpot>;
        if (memberOf(map, name, i) >= 0) giveUp();
        map.index?.set(name, i);
        map.names[i] = name;
        map.keyAt[i] = key!.offset;
        (data as Record<string, unknown>)[name] = this.value(value!, depth + 1);
        map.members[i] = this.spot;
      } else {
        // `[a: 1]` is a list of single-pair maps.
        if (key || sep) giveUp();
        (data as unknown[])[i] = this.value(value!, depth + 1);
        (spot as SeqSpot).items[i] = this.spot;
      }
    }
    this.spot = spot;
    return data;
  }
}

/**
 * A plain file's single document as data and spots (`tokens`: the parser's
 * for `text`), or undefined when the file is not plain, and nothing of
 * `budget` is spent then.
 */
export function readPlain(
  text: string,
  tokens: readonly CST.Token[],
  budget: ValueBudget,
): { data: unknown; spot: Spot } | undefined {
  // Tabs are allowed in few places and wrong in most: the composer says which.
  if (text.includes("\t")) return undefined;
  let doc: CST.Document | undefined;
  for (const token of tokens) {
    if (token.type === "document" && !doc) doc = token;
    else if (token.type !== "comment" && token.type !== "newline" && token.type !== "space") return undefined;
  }
  if (!doc?.value || !isGap(doc.end, null, true)) return undefined;
  // `---` may open the document (yamllint asks for it), with a block collection on the lines after it.
  const marker = doc.start.findIndex((t) => t.type === "doc-start");
  if (!isGap(doc.start, marker < 0 ? null : "doc-start", true)) return undefined;
  const block = doc.value.type === "block-map" || doc.value.type === "block-seq";
  if (marker >= 0 && block && !hasNewline(doc.start.slice(marker))) return undefined;
  const remaining = budget.remaining;
  const reader = new PlainReader(text, budget);
  try {
    const data = reader.value(doc.value, 1);
    return { data, spot: reader.spot };
  } catch (error) {
    if (error !== notPlain) throw error;
    budget.remaining = remaining;
    return undefined;
  }
}
