/**
 * Finding and reading the YAML files of a GitOps repo, keeping every node's
 * source position so errors can say file:line:column.
 *
 * The files come from pull requests, so reading them is bounded whatever they
 * hold (docs/gitops.md, "Limits"): each file's and the whole configuration's
 * size, the number of files, how deep values nest and how many values there
 * are once aliases are expanded. Aliases are never copied: an anchored value
 * is converted once and shared, and its expanded size is counted, so an
 * "alias bomb" is refused at its alias in time proportional to its text.
 */
import { lstat, open, readdir, realpath, stat } from "node:fs/promises";
import { join, relative } from "node:path";
import {
  Alias,
  Composer,
  type CST,
  type Document,
  isMap,
  isScalar,
  isSeq,
  Lexer,
  LineCounter,
  type Node,
  Parser,
} from "yaml";

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
  /** Maps are null-prototype objects: every key, `__proto__` included, is an own, ordinary member. */
  data: unknown;
  positions: SourceMap;
}

export interface FileProblem {
  at: Position;
  /** Where in the file's data, when the problem is in a node (a duplicate key). */
  path?: YamlPath;
  message: string;
}

/** What vigil reads at most; each limit is refused with an error that names it (docs/gitops.md, "Limits"). */
export const limits = {
  /** Bytes of one file. */
  fileBytes: 8 * 2 ** 20,
  /** Bytes of all the files of a configuration. */
  configBytes: 32 * 2 ** 20,
  /** Files in a configuration. */
  files: 10_000,
  /** Directories walked to find them (a link to `/` is followed, but not through the whole disk). */
  directories: 10_000,
  /** Levels of maps and lists inside one another (a monitor's header value is at level 7, the root being 1). */
  depth: 64,
  /** Values (maps, lists and scalars) in a configuration, counting every use of an alias in full. */
  values: 4_000_000,
} as const;

/** A size for a message: `8 MiB`, `3.5 MiB`, `900 KiB`. */
export function formatBytes(bytes: number): string {
  if (bytes >= 2 ** 20) return `${Number((bytes / 2 ** 20).toFixed(1))} MiB`;
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KiB`;
  return `${bytes} bytes`;
}

/**
 * User text inside a message: quoted, shortened, and with every control,
 * format (bidirectional overrides) or unassigned character escaped, so a
 * hostile key or value can neither flood nor rewrite the terminal.
 */
export function quote(text: string, max = 60): string {
  const chars = [...text];
  const shown = chars.length > max ? chars.slice(0, max).join("") : text;
  const escaped = shown.replace(/[\p{C}\p{Zl}\p{Zp}"\\]/gu, (c) => {
    if (c === '"' || c === "\\") return `\\${c}`;
    const named: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };
    const code = c.codePointAt(0)!;
    return named[c] ?? (code < 0x100 ? `\\x${hex(code)}` : `\\u{${code.toString(16)}}`);
  });
  return `"${escaped}${chars.length > max ? "…" : ""}"`;
}

const hex = (n: number) => n.toString(16).padStart(2, "0");

const yamlFile = /\.ya?ml$/i;

export interface FoundFiles {
  /** Absolute or as-given paths, each file once (two links to one file are read once), with their sizes. */
  files: { path: string; size: number }[];
  problems: string[];
}

/**
 * Every `*.yaml`/`*.yml` under the given paths (files given by name are taken
 * whatever their extension), in a stable order. Hidden directories (`.github`,
 * `.vigil`) and `node_modules` are skipped. Symbolic links are followed, to
 * files and to directories; a link that leads back into a directory already
 * walked is skipped (a loop cannot make the walk endless), and a link to
 * nothing or to something other than a file or directory is a problem.
 */
export async function findConfigFiles(paths: readonly string[]): Promise<FoundFiles> {
  const files: FoundFiles["files"] = [];
  const problems: string[] = [];
  /** Real paths of the files taken and of the directories walked. */
  const seenFiles = new Set<string>();
  const seenDirs = new Set<string>();
  let tooMany = false;
  const take = async (path: string, size: number) => {
    const real = await realpath(path);
    if (seenFiles.has(real)) return;
    seenFiles.add(real);
    if (files.length === limits.files) {
      if (!tooMany)
        problems.push(
          `${displayName(path)}: the configuration has more than ${limits.files.toLocaleString("en")} files, the most vigil reads`,
        );
      tooMany = true;
      return;
    }
    files.push({ path, size });
  };
  async function walk(dir: string): Promise<void> {
    const real = await realpath(dir);
    if (seenDirs.has(real) || tooMany) return;
    if (seenDirs.size === limits.directories) {
      problems.push(
        `${displayName(dir)}: the configuration spans more than ${limits.directories.toLocaleString("en")} directories, the most vigil walks`,
      );
      tooMany = true;
      return;
    }
    seenDirs.add(real);
    const entries = await readdir(dir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
      problems.push(`${displayName(dir)}: the directory cannot be read (${error.code ?? error.message})`);
      return [];
    });
    entries.sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isSymbolicLink()) {
        const target = await stat(full).catch(() => undefined);
        if (target?.isDirectory()) await walk(full);
        else if (!yamlFile.test(entry.name)) continue;
        else if (!target) problems.push(`${displayName(full)}: a symbolic link to nothing`);
        else if (!target.isFile())
          problems.push(`${displayName(full)}: a symbolic link to something that is not a file`);
        else await take(full, target.size);
      } else if (entry.isFile() && yamlFile.test(entry.name)) await take(full, (await lstat(full)).size);
    }
  }
  for (const path of paths) {
    const info = await stat(path).catch(() => undefined);
    if (!info) problems.push(`${path}: no such file or directory`);
    else if (info.isDirectory()) await walk(path);
    else if (!info.isFile()) problems.push(`${path}: not a file or a directory`);
    else await take(path, info.size);
  }
  // Too many files or directories: none is read.
  return { files: tooMany ? [] : files, problems };
}

/** The file name as shown in messages: relative to the working directory when inside it. */
export function displayName(file: string, cwd = process.cwd()): string {
  const rel = relative(cwd, file);
  return rel.startsWith("..") ? file : rel;
}

/** How many more values the files still to be read may hold (limits.values for a whole configuration). */
export interface ValueBudget {
  remaining: number;
}

/**
 * Where a node is: an offset into the file's text for a scalar; for a map or
 * a list, its own offset and its members'. An alias's spot shares its target's.
 */
type Spot = number | MapSpot | SeqSpot;
/** Parallel arrays rather than maps: a file has as many of these as it has maps, and most are small. */
interface MapSpot {
  at: number;
  names: string[];
  keyAt: number[];
  members: Spot[];
  /** Name → position in the arrays, for a map too large to search. */
  index?: Map<string, number>;
}
/** The position of a member in the arrays, or -1; `count`: how many members are set so far, while converting. */
const memberOf = (spot: MapSpot, name: string, count = spot.names.length) => {
  if (spot.index) return spot.index.get(name) ?? -1;
  const at = spot.names.indexOf(name);
  return at < count ? at : -1;
};
interface SeqSpot {
  at: number;
  items: Spot[];
}
const offsetOf = (spot: Spot) => (typeof spot === "number" ? spot : spot.at);

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

/** Parses one file into plain data plus a source map; syntax errors and duplicate keys are problems. */
export async function parseConfigFile(
  file: string,
  budget: ValueBudget = { remaining: limits.values },
): Promise<{ parsed?: ParsedFile; problems: FileProblem[] }> {
  const name = displayName(file);
  const whole = (message: string) => ({ problems: [{ at: { file: name, line: 1, column: 1 }, message }] });
  const bytes = await readBounded(file);
  if (typeof bytes === "string") return whole(bytes);
  const notText = nonTextAt(bytes);
  if (notText) {
    const { line, column } = bytePosition(bytes, notText.offset);
    return {
      problems: [
        {
          at: { file: name, line, column },
          message: `not a YAML text file: ${notText.what} (at ${escapedExcerpt(bytes, notText.offset)}); vigil reads UTF-8 text`,
        },
      ],
    };
  }
  const text = bytes.toString("utf8");
  const lineCounter = new LineCounter();
  const at = (offset: number | undefined): Position => {
    const { line, col } = lineCounter.linePos(offset ?? 0);
    return { file: name, line, column: col };
  };

  const composed = compose(text, lineCounter);
  if ("refused" in composed)
    return { problems: [{ at: at(composed.refused.offset), message: composed.refused.message }] };
  const { doc, more } = composed;
  const syntax = [...doc.errors, ...doc.warnings].map((e) => ({
    offset: significantFrom(text, e.pos[0], e.code),
    message: e.message.split("\n")[0]!,
  }));
  if (more !== undefined)
    syntax.push({
      offset: more,
      message: "a vigil file holds one YAML document; move what follows --- into a file of its own",
    });
  if (syntax.length > 0) {
    // Later syntax errors mostly follow from the first (one tab makes every later line misindented).
    const [first] = syntax;
    const rest = syntax.length - 1;
    const after = ` (${rest} more syntax error${rest === 1 ? "" : "s"} after this one, which may follow from it)`;
    return { problems: [{ at: at(first!.offset), message: `${first!.message}${rest > 0 ? after : ""}` }] };
  }

  const problems: FileProblem[] = [];
  /** The last node of each anchor so far, in document order: what an alias there refers to. */
  const anchors = new Map<string, Node>();
  /** Anchored nodes, converted once and shared by their aliases, with their expanded size and height. */
  const converted = new Map<Node, Converted | "converting">();
  interface Converted {
    data: unknown;
    spot: Spot;
    values: number;
    height: number;
  }
  const spend = (values: number, offset: number, what: () => string) => {
    budget.remaining -= values;
    if (budget.remaining < 0) throw new Refusal(offset, what(), [...trail]);
  };
  /** The path of the node being converted. */
  const trail: (string | number)[] = [];
  const tooMany = () =>
    `the configuration holds more than ${limits.values.toLocaleString("en")} values (maps, lists and scalars, counting each use of an alias in full), the most vigil reads`;

  const convert = (node: unknown, depth: number, fallback: number): Converted => {
    if (node instanceof Alias) {
      const offset = node.range?.[0] ?? fallback;
      const target = anchors.get(node.source);
      const done = target && converted.get(target);
      if (!done || done === "converting")
        throw new Refusal(
          offset,
          `the alias *${node.source} refers to ${done ? "itself" : "no anchor before it"}`,
          [...trail],
        );
      if (depth + done.height > limits.depth)
        throw new Refusal(
          offset,
          `the alias *${node.source} nests values deeper than ${limits.depth} levels, the most vigil reads`,
          [...trail],
        );
      spend(
        done.values,
        offset,
        () => `the alias *${node.source} expands to ${done.values.toLocaleString("en")} values: ${tooMany()}`,
      );
      const spot = typeof done.spot === "number" ? offset : { ...done.spot, at: offset };
      return { ...done, spot };
    }
    const offset = (node as Node | null)?.range?.[0] ?? fallback;
    if (depth > limits.depth)
      throw new Refusal(offset, `values nest deeper than ${limits.depth} levels here, the most vigil reads`, [
        ...trail,
      ]);
    spend(1, offset, tooMany);
    const anchor = (node as { anchor?: string } | null)?.anchor;
    if (anchor) {
      anchors.set(anchor, node as Node);
      converted.set(node as Node, "converting");
    }
    let result: Converted;
    if (isMap(node)) {
      const data: Record<string, unknown> = Object.create(null);
      // Arrays of the map's size: grown one member at a time, each would hold room for 17.
      const size = node.items.length;
      const spot: MapSpot = {
        at: offset,
        names: new Array(size),
        keyAt: new Array(size),
        members: new Array(size),
      };
      let count = 0;
      if (size > 8) spot.index = new Map();
      let values = 1;
      let height = 1;
      for (const pair of node.items) {
        const keyNode = pair.key as Node | null;
        const keyAt = keyNode?.range?.[0] ?? offset;
        if (isScalar(keyNode) && keyNode.anchor) {
          anchors.set(keyNode.anchor, keyNode);
          converted.set(keyNode, { data: keyNode.value, spot: keyAt, values: 1, height: 1 });
        }
        const key = isScalar(keyNode) ? keyNode.value : undefined;
        if (typeof key !== "string" && typeof key !== "number") {
          problems.push({ at: at(keyAt), message: "a key must be a plain name" });
          continue;
        }
        const member = String(key);
        const first = memberOf(spot, member, count);
        if (first >= 0) {
          const { line, column } = at(spot.keyAt[first]!);
          problems.push({
            at: at(keyAt),
            message: `the key ${quote(member)} appears twice in this map (first at line ${line}, column ${column}); keys must be unique`,
            path: [...trail, member],
          });
          continue;
        }
        spot.index?.set(member, count);
        spot.names[count] = member;
        spot.keyAt[count] = keyAt;
        // `key:` with nothing after it: its value is null, found at the key.
        trail.push(member);
        const child = pair.value === null ? undefined : convert(pair.value, depth + 1, keyAt);
        trail.pop();
        data[member] = child ? child.data : null;
        spot.members[count++] = child ? child.spot : keyAt;
        values += child?.values ?? 1;
        height = Math.max(height, 1 + (child?.height ?? 1));
      }
      if (count < size) spot.names.length = spot.keyAt.length = spot.members.length = count;
      result = { data, spot, values, height };
    } else if (isSeq(node)) {
      const data: unknown[] = new Array(node.items.length);
      const spot: SeqSpot = { at: offset, items: new Array(node.items.length) };
      let values = 1;
      let height = 1;
      const items = node.items;
      for (let i = 0; i < items.length; i++) {
        trail.push(i);
        const child = convert(items[i], depth + 1, offset);
        trail.pop();
        data[i] = child.data;
        spot.items[i] = child.spot;
        values += child.values;
        height = Math.max(height, 1 + child.height);
      }
      result = { data, spot, values, height };
    } else
      result = { data: isScalar(node) ? node.value : (node ?? null), spot: offset, values: 1, height: 1 };
    if (anchor) converted.set(node as Node, result);
    return result;
  };

  let root: Converted;
  try {
    root =
      doc.contents === null
        ? { data: Object.create(null), spot: 0, values: 0, height: 0 }
        : convert(doc.contents, 1, 0);
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    return {
      problems: [{ at: at(error.offset), message: error.message, ...(error.path && { path: error.path }) }],
    };
  }
  /** The deepest spot along a path, how many steps of it exist, and the last step's key when it is a member. */
  const find = (path: YamlPath): { spot: Spot; found: number; keyAt?: number } => {
    let spot = root.spot;
    let keyAt: number | undefined;
    for (let i = 0; i < path.length; i++) {
      const step = path[i]!;
      let next: Spot | undefined;
      keyAt = undefined;
      if (typeof spot !== "number" && "members" in spot) {
        const n = memberOf(spot, String(step));
        if (n >= 0) [next, keyAt] = [spot.members[n], spot.keyAt[n]];
      } else if (typeof spot !== "number" && typeof step === "number") next = spot.items[step];
      if (next === undefined) return { spot, found: i };
      spot = next;
    }
    return { spot, found: path.length, ...(keyAt !== undefined && { keyAt }) };
  };
  return {
    parsed: {
      file: name,
      data: root.data,
      positions: {
        value: (path) => at(offsetOf(find(path).spot)),
        has: (path) => find(path).found === path.length,
        key: (path) => {
          const found = find(path);
          return at(found.keyAt ?? offsetOf(found.spot));
        },
      },
    },
    problems,
  };
}

/** A file's bytes, or why they are not read: it is not a regular file, or it is larger than limits.fileBytes. */
async function readBounded(file: string): Promise<Buffer | string> {
  const handle = await open(file, "r");
  try {
    const info = await handle.stat();
    if (!info.isFile()) return "not a regular file";
    const tooLarge = (size: number) =>
      `the file holds ${formatBytes(size)}; a vigil file holds at most ${formatBytes(limits.fileBytes)} (split the configuration into several files)`;
    if (info.size > limits.fileBytes) return tooLarge(info.size);
    // A file that grows while it is read is still read only up to the limit.
    // The buffer is the stated size (and one byte to see that the file grew), doubled as it grows.
    let buffer = Buffer.allocUnsafe(info.size + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        const larger = Buffer.allocUnsafe(Math.min(buffer.length * 2, limits.fileBytes + 1));
        buffer.copy(larger, 0, 0, length);
        buffer = larger;
      }
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > limits.fileBytes) return tooLarge(length);
    }
    return buffer.subarray(0, length);
  } finally {
    await handle.close();
  }
}

/**
 * The first byte that cannot be in a YAML text: an invalid UTF-8 sequence, or
 * a control character YAML does not allow (all C0 controls but tab, line
 * feed and carriage return; DEL; C1 controls but NEL).
 */
function nonTextAt(bytes: Uint8Array): { offset: number; what: string } | undefined {
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
    if (b < 0x80) {
      if ((b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d) || b === 0x7f)
        return { offset: i, what: `the control character 0x${hex(b)}` };
      i++;
      continue;
    }
    const n = b >= 0xc2 && b < 0xe0 ? 2 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xf0 && b < 0xf5 ? 4 : 0;
    const second = bytes[i + 1] ?? 0;
    // The second byte's range rules out overlong forms, surrogates and code points past U+10FFFF.
    const low = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
    const high = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
    let valid = n > 0 && second >= low && second <= high;
    for (let k = 2; valid && k < n; k++) valid = ((bytes[i + k] ?? 0) & 0xc0) === 0x80;
    if (!valid) return { offset: i, what: `the byte 0x${hex(b)}, which is not UTF-8` };
    // C1 controls (U+0080 to U+009F) but NEL (U+0085).
    if (b === 0xc2 && second < 0xa0 && second !== 0x85)
      return { offset: i, what: `the control character U+00${hex(second).toUpperCase()}` };
    i += n;
  }
  return undefined;
}

/** 1-based line and column (in characters) of a byte offset; the bytes before it are valid UTF-8. */
function bytePosition(bytes: Buffer, offset: number): { line: number; column: number } {
  const before = bytes.subarray(0, offset).toString("utf8");
  const lineStart = before.lastIndexOf("\n") + 1;
  return { line: before.split("\n").length, column: [...before.slice(lineStart)].length + 1 };
}

/** A few bytes around an offset, printable ASCII as is and every other byte as \xNN: never raw bytes. */
function escapedExcerpt(bytes: Uint8Array, offset: number): string {
  const start = Math.max(0, offset - 8);
  const end = Math.min(bytes.length, offset + 8);
  let out = "";
  for (const b of bytes.subarray(start, end))
    out += b >= 0x20 && b < 0x7f && b !== 0x22 && b !== 0x5c ? String.fromCharCode(b) : `\\x${hex(b)}`;
  return `${start > 0 ? "…" : ""}"${out}"${end < bytes.length ? "…" : ""}`;
}

/**
 * The library reports some errors (a misindented key) at the whitespace or
 * comment lines before the token at fault: move to the token, so the line is
 * the one to fix. A tab used as indentation is itself the fault.
 */
function significantFrom(text: string, offset: number, code: string): number {
  if (code === "TAB_AS_INDENT") return offset;
  let i = offset;
  for (;;) {
    while (i < text.length && (text[i] === " " || text[i] === "\n" || text[i] === "\r")) i++;
    // A comment: at the start of a line or after the whitespace just passed.
    if (i > offset && text[i] === "#" && /[\s]/.test(text[i - 1] ?? "\n")) {
      while (i < text.length && text[i] !== "\n") i++;
      continue;
    }
    return i < text.length ? i : offset;
  }
}

/**
 * The document, composed from the parser's tokens as `parseDocument` does,
 * but with the nesting bounded while the tokens are read: the composer
 * recurses once per level and would overflow the stack on a deep input.
 * `more` is the offset of a second document, if there is one.
 */
function compose(
  text: string,
  lineCounter: LineCounter,
): { doc: Document.Parsed; more?: number } | { refused: { offset: number; message: string } } {
  const parser = new Parser(lineCounter.addNewLine);
  // `Parser.parse` marks the first line's start itself; `next` does not.
  lineCounter.addNewLine(0);
  const tokens: CST.Token[] = [];
  for (const lexeme of new Lexer().lex(text)) {
    for (const token of parser.next(lexeme)) tokens.push(token);
    // The parser's stack holds the document, each open map or list, and a few tokens in between.
    if (parser.stack.length > limits.depth) {
      const open = parser.stack.filter(
        (t) => t.type === "block-map" || t.type === "block-seq" || t.type === "flow-collection",
      );
      if (open.length > limits.depth)
        return {
          refused: {
            offset: parser.offset,
            message: `values nest deeper than ${limits.depth} levels here, the most vigil reads`,
          },
        };
    }
  }
  for (const token of parser.end()) tokens.push(token);
  // Duplicate keys are found while converting, where the first one's position is known.
  const composer = new Composer({ uniqueKeys: false });
  let doc: Document.Parsed | undefined;
  for (const next of composer.compose(tokens, true, text.length)) {
    if (doc) return { doc, more: next.range[0] };
    doc = next;
  }
  return { doc: doc! };
}
