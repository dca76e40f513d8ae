/**
 * Reading the YAML files of a GitOps repo (found by find-files.ts), keeping
 * every node's source position so errors can say file:line:column.
 *
 * The files come from pull requests, so reading them is bounded whatever they
 * hold (docs/gitops.md, "Limits"): each file's and the whole configuration's
 * size, the number of files, how deep values nest and how many values there
 * are once aliases are expanded (read-document.ts). A file's text is read
 * by read-plain.ts when it is plain YAML, or else parsed here and read by
 * read-document.ts.
 */
import { constants } from "node:fs";
import { open } from "node:fs/promises";
import { type CST, Lexer, LineCounter, Parser } from "yaml";
import { displayName, type FileIdentity } from "./find-files.ts";
import { composeDocument, readDocument } from "./read-document.ts";
import { readPlain } from "./read-plain.ts";
import {
  type FileProblem,
  formatBytes,
  hex,
  limits,
  type ParsedFile,
  type Position,
  sourceMap,
  type ValueBudget,
} from "./source.ts";

export { displayName, type FileIdentity, type FoundFiles, findConfigFiles } from "./find-files.ts";
export {
  type FileProblem,
  formatBytes,
  limits,
  type ParsedFile,
  type Position,
  quote,
  type SourceMap,
  type ValueBudget,
  type YamlPath,
} from "./source.ts";

/**
 * Parses one file into plain data plus a source map; syntax errors and
 * duplicate keys are problems. A plain file (most are) is read straight from
 * the lexer's tokens; any other, and any file with a problem, through the
 * parser and composer, which word every problem (read-plain.ts).
 */
export async function parseConfigFile(
  file: string,
  budget: ValueBudget = { remaining: limits.values },
  found?: FileIdentity,
): Promise<{ parsed?: ParsedFile; problems: FileProblem[] }> {
  const name = displayName(file);
  const whole = (message: string) => ({ problems: [{ at: { file: name, line: 1, column: 1 }, message }] });
  const bytes = await readBounded(file, found);
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

  const plain = readPlain(text, budget);
  if (plain) {
    // The parser would have marked each line's start.
    lineCounter.addNewLine(0);
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lineCounter.addNewLine(i + 1);
    return { parsed: { file: name, data: plain.data, positions: sourceMap(plain.spot, at) }, problems: [] };
  }
  const tokens = parseTokens(text, lineCounter);
  if ("refused" in tokens)
    return { problems: [{ at: at(tokens.refused.offset), message: tokens.refused.message }] };

  const { doc, more } = composeDocument(tokens, text);
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
  const read = readDocument(doc, budget, at);
  if ("refused" in read) return { problems: [read.refused] };
  return {
    parsed: { file: name, data: read.data, positions: sourceMap(read.spot, at) },
    problems: read.problems,
  };
}

/**
 * A file's bytes, or why they are not read: it is not a regular file, it is
 * larger than limits.fileBytes, or it is no longer the file that was found
 * (a link changed since to lead elsewhere, perhaps out of the repository).
 */
async function readBounded(file: string, found?: FileIdentity): Promise<Buffer | string> {
  // Non-blocking: a pipe put in a file's place must not hang the read (regular files read as usual).
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = await handle.stat();
    if (found && (info.dev !== found.dev || info.ino !== found.ino))
      return "the file changed while vigil read the configuration (it is no longer the file found); run again";
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
 * The parser's tokens, with the nesting bounded while they are read: the
 * composer recurses once per level and would overflow the stack on a deep
 * input.
 */
export function parseTokens(
  text: string,
  lineCounter: LineCounter,
): CST.Token[] | { refused: { offset: number; message: string } } {
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
  return tokens;
}
