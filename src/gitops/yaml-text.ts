/**
 * YAML text of plain data (maps, lists, strings, numbers, booleans, null) in block style, as the `yaml`
 * library lays it out (two spaces per level, sequences indented under their key, no line folding), written
 * directly: an export of 21,000 objects spent most of its time building and printing the library's nodes.
 * A string is plain only where nothing could read it as anything else (a YAML 1.1 reader's `yes` and `no`
 * included, where the library writes them plain); otherwise it is double-quoted, with
 * JSON's escapes (which YAML's double-quoted style reads) and the few characters YAML wants escaped besides.
 */

/** YAML text of `value` (a map at the top), ending with a newline. */
export function yamlText(value: Record<string, unknown>): string {
  if (Object.keys(value).length === 0) return "{}\n";
  const lines: string[] = [];
  mapLines(value, 0, lines);
  return `${lines.join("\n")}\n`;
}

function isCollection(value: unknown): value is Record<string, unknown> | unknown[] {
  return typeof value === "object" && value !== null;
}

const isEmpty = (value: Record<string, unknown> | unknown[]) =>
  Array.isArray(value) ? value.length === 0 : Object.keys(value).length === 0;

function mapLines(map: Record<string, unknown>, indent: number, lines: string[]): void {
  const pad = " ".repeat(indent);
  for (const [key, value] of Object.entries(map)) {
    const name = scalar(key);
    if (!isCollection(value) || isEmpty(value)) lines.push(`${pad}${name}: ${inline(value)}`);
    else {
      lines.push(`${pad}${name}:`);
      if (Array.isArray(value)) listLines(value, indent + 2, lines);
      else mapLines(value, indent + 2, lines);
    }
  }
}

function listLines(list: readonly unknown[], indent: number, lines: string[]): void {
  const pad = " ".repeat(indent);
  for (const item of list) {
    if (!isCollection(item) || isEmpty(item)) {
      lines.push(`${pad}- ${inline(item)}`);
      continue;
    }
    // The item's first line goes on its dash; the rest stay two spaces in, under it.
    const inner: string[] = [];
    if (Array.isArray(item)) listLines(item, indent + 2, inner);
    else mapLines(item, indent + 2, inner);
    inner[0] = `${pad}- ${inner[0]!.slice(indent + 2)}`;
    lines.push(...inner);
  }
}

/** A value on the line of its key or dash: a scalar, or an empty collection. */
function inline(value: unknown): string {
  if (Array.isArray(value)) return "[]";
  if (isCollection(value)) return "{}";
  if (value === null || value === undefined) return "null";
  if (typeof value === "string") return scalar(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  throw new Error(`no YAML scalar for ${typeof value}`);
}

/** Plain text a YAML 1.2 reader (or a 1.1 one: yes, no, on, off) would take for something other than a string. */
const notAString =
  /^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)|~|null|Null|NULL|true|True|TRUE|false|False|FALSE|y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF|[0-9][0-9_:.+-]*)$/;

/**
 * A string as a plain scalar where that reads back as the same string: printable ASCII, no indicator at its
 * start, no `: ` or ` #`, no space or `:` at its end, no document marker, nothing that reads as a number,
 * a boolean or null. Anything else is double-quoted.
 */
function scalar(text: string): string {
  const plain =
    text !== "" &&
    /^[\x20-\x7e]+$/.test(text) &&
    !/^[-?:,[\]{}#&*!|>'"%@`\s]/.test(text) &&
    !/[\s:]$/.test(text) &&
    !text.includes(": ") &&
    !text.includes(" #") &&
    !/^(---|\.\.\.)/.test(text) &&
    !notAString.test(text);
  if (plain) return text;
  // JSON's escapes are YAML's; DEL, the C1 controls and the byte-order mark are not printable in YAML.
  return JSON.stringify(text).replace(
    /[\x7f-\x9f\ufeff\ufffe\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
