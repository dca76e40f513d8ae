/**
 * Plain YAML files into plain values and spots in one pass over the yaml
 * library's lexemes (its public `Lexer`, `CST.tokenType` to classify them and
 * `CST.resolveAsScalar` for scalar values), without the library's `Parser`
 * or composer: building the parser's token tree and then a `Document` (a
 * node, a pair and a range per value) was most of a large configuration's
 * load time.
 *
 * "Plain" is the subset configurations are written in: one document of block
 * maps and lists (`- key: v` compact maps, `key:` followed by `- item` at the
 * key's own column, `- - x`), flow collections on one line, and plain or
 * quoted scalars on one line, with comments, after an optional `---`.
 * Anything else (anchors, aliases, tags, `?` keys, block or multi-line
 * scalars, directives, `...`, several documents, tabs, a byte order mark, a
 * root that is not at column 0, an empty file or value) and anything the
 * composer would report (a syntax error, misindentation, a duplicate key, a
 * key that is not a name, a value past the limits) makes `readPlain` give up,
 * and `read-document.ts` reads the file and words the problems. So this path
 * never decides what an error says; `test/gitops/read-paths.test.ts` checks
 * that on every input it takes, it gives exactly what the composer's path
 * gives.
 */
import { CST, Document, isScalar, Lexer, type ScalarTag } from "yaml";
import { limits, type MapSpot, type Spot, userMap, type ValueBudget } from "./source.ts";

/** The schema and options `composeDocument` composes with: plain scalars are typed by the same tags. */
const { schema, options } = new Document(undefined, { uniqueKeys: false });
/** The scalar tags a plain scalar is tested against, in the schema's order (`findScalarTagByTest` in yaml). */
const plainTags = schema.tags.filter((t): t is ScalarTag & { test: RegExp } => !t.collection && !!t.test);

/**
 * Thrown when the file is not plain: one value, as it is not an error but a change of path. Not an Error:
 * the release's vigil binary holds this module in its startup snapshot, and Node 22's snapshot builder
 * aborts on an Error object.
 */
const notPlain = Symbol("not a plain YAML file");
function giveUp(): never {
  throw notPlain;
}

type ScalarType = "scalar" | "single-quoted-scalar" | "double-quoted-scalar";
const isScalarType = (type: string): type is ScalarType =>
  type === "scalar" || type === "single-quoted-scalar" || type === "double-quoted-scalar";

/**
 * Where a map's or a list's members are gathered while it is read, one per
 * depth (a member's own members are one deeper): the result is then copied
 * at its exact size, as arrays grown one member at a time would each hold
 * room for 17.
 */
interface Scratch {
  names: string[];
  keyAt: number[];
  spots: Spot[];
  values: unknown[];
}

/** Past this many members a map's spot has an index (`mapSpot`), and duplicates are found through it. */
const indexedFrom = 9;

/** One file's conversion: `spot` is the spot of the value converted last. */
class PlainReader {
  spot: Spot = 0;
  private readonly lexemes: Generator<string, void>;
  private readonly budget: ValueBudget;
  private readonly scratch: Scratch[] = [];
  /** The current token: its type (`scalar` for a plain scalar, `end` past the last), text and offset. */
  private type = "";
  private source = "";
  private offset = 0;
  /** Where the next token starts, where the current line starts, and how many documents have started. */
  private next = 0;
  private lineStart = 0;
  private documents = 0;

  constructor(text: string, budget: ValueBudget) {
    this.lexemes = new Lexer().lex(text);
    this.budget = budget;
    this.advance();
  }

  /** Whether the current token is of this type (a method: `advance` changes it). */
  private is(type: string): boolean {
    return this.type === type;
  }

  private get column(): number {
    return this.offset - this.lineStart;
  }

  private advance(): void {
    for (;;) {
      const lexeme = this.lexemes.next();
      this.offset = this.next;
      if (lexeme.done) {
        this.type = "end";
        return;
      }
      let source = lexeme.value;
      let type: string | null;
      // The lexer's markers take no room in the text.
      if (source === CST.DOCUMENT) {
        if (++this.documents > 1) giveUp();
        continue;
      }
      if (source === CST.SCALAR) {
        // The plain scalar's text follows its marker; an empty one is some syntax error.
        source = this.lexemes.next().value || giveUp();
        type = "scalar";
      } else type = source === "" ? null : CST.tokenType(source);
      this.type = type ?? giveUp();
      this.source = source;
      this.next = this.offset + source.length;
      if (type === "newline") this.lineStart = this.next;
      return;
    }
  }

  /** Past spaces and comment lines, to the first token of a line with content, or the end; at a line's start. */
  private skipBlank(): void {
    for (;;) {
      if (this.is("space")) this.advance();
      if (this.is("comment")) this.advance();
      if (!this.is("newline")) return;
      this.advance();
    }
  }

  /** Past what ends a line after a value (spaces, a comment after a space, the line break), then past blank lines. */
  private endLine(spaced: boolean): void {
    if (this.is("space")) {
      this.advance();
      spaced = true;
    }
    if (this.is("comment")) {
      if (!spaced) giveUp();
      this.advance();
    }
    if (this.is("newline")) this.advance();
    else if (!this.is("end")) giveUp();
    this.skipBlank();
  }

  private skipSpace(): boolean {
    if (!this.is("space")) return false;
    this.advance();
    return true;
  }

  private scratchAt(depth: number): Scratch {
    this.scratch[depth] ??= { names: [], keyAt: [], spots: [], values: [] };
    return this.scratch[depth];
  }

  /** Counts a value at `depth`: past a limit, the composer's path refuses the file with its message. */
  private count(depth: number): void {
    if (depth > limits.depth || --this.budget.remaining < 0) giveUp();
  }

  /** The whole document. */
  read(): unknown {
    this.skipBlank();
    if (this.is("doc-start")) {
      this.advance();
      const spaced = this.skipSpace();
      // A value on the `---` line: a scalar or a flow collection (a block collection there is an error).
      if (!this.is("comment") && !this.is("newline") && !this.is("end")) {
        const data = this.block(this.column, 1, true);
        if (!this.is("end")) giveUp();
        return data;
      }
      this.endLine(spaced);
    }
    if (this.is("end") || this.column !== 0) giveUp();
    const data = this.block(0, 1, false);
    if (!this.is("end")) giveUp();
    return data;
  }

  /**
   * The node whose first token is the current one, at `column`; `inline`
   * when it follows a key on the key's line, where neither a list nor a map
   * may start. After it, the current token is the first of the next line
   * with content.
   */
  private block(column: number, depth: number, inline: boolean): unknown {
    const { type, source, offset } = this;
    if (type === "seq-item-ind" && !inline) return this.blockSeq(column, depth);
    if (type === "flow-map-start" || type === "flow-seq-start") {
      const data = this.flow(depth);
      this.endLine(false);
      return data;
    }
    if (!isScalarType(type)) giveUp();
    this.advance();
    const spaced = this.skipSpace();
    if (this.is("map-value-ind"))
      return inline ? giveUp() : this.blockMap(column, depth, type, source, offset);
    this.count(depth);
    const data = this.scalar(type, source, offset, false);
    this.spot = offset;
    this.endLine(spaced);
    return data;
  }

  /** A block map whose first key has been read (the current token is its `:`); its keys are at `column`. */
  private blockMap(column: number, depth: number, type: ScalarType, source: string, offset: number): unknown {
    this.count(depth);
    const data = userMap();
    const at = offset;
    const { names, keyAt, spots } = this.scratchAt(depth);
    let index: Map<string, number> | undefined;
    let count = 0;
    for (;;) {
      // The composer's limit on an implicit key's length, with a margin.
      if (this.offset - offset > 1000) giveUp();
      const name = this.key(type, source, offset);
      index = this.addName(names, count, name, index);
      keyAt[count] = offset;
      this.advance();
      const spaced = this.skipSpace();
      let value: unknown;
      if (this.is("comment") || this.is("newline") || this.is("end")) {
        this.endLine(spaced);
        const next = this.is("end") ? -1 : this.column;
        // `key:` then its value on the lines below: more indented, or a list at the key's own column.
        if (next > column || (next === column && this.is("seq-item-ind")))
          value = this.block(next, depth + 1, false);
        // A key with no value is null; left to the composer.
        else giveUp();
      } else value = this.block(this.column, depth + 1, true);
      data[name] = value;
      spots[count++] = this.spot;
      if (this.is("end") || this.column < column) break;
      if (this.column > column || !isScalarType(this.type)) giveUp();
      ({ type, source, offset } = this);
      this.advance();
      this.skipSpace();
      if (!this.is("map-value-ind")) giveUp();
    }
    this.spot = this.mapSpot(at, depth, count, index);
    return data;
  }

  /** A block list whose first `-` is the current token, at `column`. */
  private blockSeq(column: number, depth: number): unknown {
    this.count(depth);
    const at = this.offset;
    const { spots, values } = this.scratchAt(depth);
    let count = 0;
    for (;;) {
      this.advance();
      const spaced = this.skipSpace();
      if (this.is("comment") || this.is("newline") || this.is("end")) {
        this.endLine(spaced);
        const next = this.is("end") ? -1 : this.column;
        // An empty item is null; left to the composer.
        if (next <= column) giveUp();
        values[count] = this.block(next, depth + 1, false);
      } else values[count] = this.block(this.column, depth + 1, false);
      spots[count++] = this.spot;
      if (this.is("end") || this.column < column) break;
      if (this.column > column) giveUp();
      // At the list's column but not an item: the list has ended, and its parent map goes on.
      if (!this.is("seq-item-ind")) break;
    }
    this.spot = { at, items: spots.slice(0, count) };
    return values.slice(0, count);
  }

  /** A flow map or list on one line, with no comments (`{ pools: [westeurope] }`); after it, what follows on the line. */
  private flow(depth: number): unknown {
    this.count(depth);
    const at = this.offset;
    const isMap = this.is("flow-map-start");
    const close = isMap ? "flow-map-end" : "flow-seq-end";
    const data = isMap ? userMap() : undefined;
    const { names, keyAt, spots, values } = this.scratchAt(depth);
    let index: Map<string, number> | undefined;
    let count = 0;
    this.advance();
    this.skipSpace();
    if (!this.is(close))
      for (;;) {
        if (data) {
          const { type, source, offset } = this;
          if (!isScalarType(type)) giveUp();
          this.advance();
          this.skipSpace();
          if (!this.is("map-value-ind") || this.offset - offset > 1000) giveUp();
          const name = this.key(type, source, offset);
          index = this.addName(names, count, name, index);
          keyAt[count] = offset;
          this.advance();
          this.skipSpace();
          data[name] = this.flowValue(depth + 1);
        } else values[count] = this.flowValue(depth + 1);
        spots[count++] = this.spot;
        this.skipSpace();
        if (this.is(close)) break;
        if (!this.is("comma")) giveUp();
        this.advance();
        this.skipSpace();
        // A trailing comma: left to the composer.
        if (this.is(close)) giveUp();
      }
    this.advance();
    if (data) {
      this.spot = this.mapSpot(at, depth, count, index);
      return data;
    }
    this.spot = { at, items: spots.slice(0, count) };
    return values.slice(0, count);
  }

  private flowValue(depth: number): unknown {
    const { type, source, offset } = this;
    if (type === "flow-map-start" || type === "flow-seq-start") return this.flow(depth);
    if (!isScalarType(type)) giveUp();
    this.count(depth);
    const data = this.scalar(type, source, offset, false);
    this.spot = offset;
    this.advance();
    return data;
  }

  /** Records a map's member name at `count`, giving up on a duplicate; the map's index once it has one. */
  private addName(
    names: string[],
    count: number,
    name: string,
    index: Map<string, number> | undefined,
  ): Map<string, number> | undefined {
    if (index) {
      if (index.has(name)) giveUp();
      index.set(name, count);
    } else {
      for (let i = 0; i < count; i++) if (names[i] === name) giveUp();
      if (count + 1 === indexedFrom) {
        index = new Map();
        for (let i = 0; i < count; i++) index.set(names[i]!, i);
        index.set(name, count);
      }
    }
    names[count] = name;
    return index;
  }

  /** A map's spot, as `mapSpot` makes it for `count` members, from the members gathered at `depth`. */
  private mapSpot(at: number, depth: number, count: number, index: Map<string, number> | undefined): MapSpot {
    const { names, keyAt, spots } = this.scratch[depth]!;
    const spot: MapSpot = {
      at,
      names: names.slice(0, count),
      keyAt: keyAt.slice(0, count),
      members: spots.slice(0, count),
    };
    if (index) spot.index = index;
    return spot;
  }

  /**
   * The values of the scalars read so far, by their text, for keys and for
   * values: a one-line scalar's value depends on its text alone, and most
   * repeat (`type`, `http`, `alertTypes`).
   */
  private readonly seen = { key: new Map<string, unknown>(), value: new Map<string, unknown>() };

  /** A scalar's value: quoted ones are strings, plain ones typed as the composer types them. */
  private scalar(type: ScalarType, source: string, offset: number, atKey: boolean): unknown {
    const seen = atKey ? this.seen.key : this.seen.value;
    const known = seen.get(source);
    if (known !== undefined) return known;
    if (source.includes("\n") || source.includes("\r")) giveUp();
    const { value } = CST.resolveAsScalar({ type, offset, indent: 0, source }, true, giveUp)!;
    let typed: unknown = value;
    if (type === "scalar")
      for (const tag of plainTags) {
        if ((tag.default === true || (atKey && tag.default === "key")) && tag.test.test(value)) {
          const resolved = tag.resolve(value, giveUp, options);
          typed = isScalar(resolved) ? resolved.value : resolved;
          break;
        }
      }
    seen.set(source, typed);
    return typed;
  }

  /** A member's name: a key's value, which must be a string or a number. */
  private key(type: ScalarType, source: string, offset: number): string {
    const key = this.scalar(type, source, offset, true);
    return typeof key === "string" ? key : typeof key === "number" ? String(key) : giveUp();
  }
}

/**
 * A plain file's single document as data and spots, or undefined when the
 * file is not plain, and nothing of `budget` is spent then.
 */
export function readPlain(text: string, budget: ValueBudget): { data: unknown; spot: Spot } | undefined {
  // Tabs are allowed in few places and wrong in most, and a lone carriage return is no line break: the composer says.
  if (text.includes("\t") || (text.includes("\r") && /\r(?!\n)/.test(text))) return undefined;
  const remaining = budget.remaining;
  try {
    const reader = new PlainReader(text, budget);
    const data = reader.read();
    return { data, spot: reader.spot };
  } catch (error) {
    if (error !== notPlain) throw error;
    budget.remaining = remaining;
    return undefined;
  }
}
