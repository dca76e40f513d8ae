/**
 * HCL text as `terraform fmt` writes it: two spaces per level, one space around `=` and after commas, and the
 * `=` of consecutive one-line attributes (and their trailing comments) aligned in a column, by the rules of
 * hclwrite's formatter (`format.go`: a run of lines each holding a whole `name = value` is one alignment chain;
 * any other line ends it). The export writes its files through this, so they pass `terraform fmt -check`.
 */

/** One value as written: a one-line expression, an object over several lines, or a list of them. */
export type HclValue =
  | { kind: "expression"; text: string }
  | { kind: "object"; entries: HclEntry[] }
  | { kind: "list"; items: HclValue[] };

/** A `name = value` of a body or an object; `comment` goes at the end of a one-line value. */
export interface HclEntry {
  name: string;
  value: HclValue;
  comment?: string;
  /** An object value written as a nested block, `name {`, rather than an attribute (`required_providers`). */
  block?: boolean;
}

export const expression = (text: string): HclValue => ({ kind: "expression", text });

interface Line {
  indent: number;
  /** Everything up to the `=` of a one-line attribute; the whole line otherwise. */
  lead: string;
  /** `= value` of a one-line attribute. */
  assign?: string;
  comment?: string;
}

/** An HCL string literal: escapes, and `${` and `%{` doubled so they stay literal text, never templates. */
export function quoted(text: string): string {
  let out = "";
  for (const c of text) {
    const code = c.codePointAt(0)!;
    if (c === "\\") out += "\\\\";
    else if (c === '"') out += '\\"';
    else if (c === "\n") out += "\\n";
    else if (c === "\r") out += "\\r";
    else if (c === "\t") out += "\\t";
    else if (code < 0x20 || code === 0x7f) out += `\\u${code.toString(16).padStart(4, "0")}`;
    else out += c;
  }
  // A function as the replacement: in a replacement string, `$$` stands for one `$`.
  return `"${out.replaceAll("${", () => "$${").replaceAll("%{", () => "%%{")}"`;
}

/** A block: `type "label" ... {`, its entries, `}`. */
export function block(header: string, entries: readonly HclEntry[]): string {
  const lines: Line[] = [{ indent: 0, lead: entries.length === 0 ? `${header} {}` : `${header} {` }];
  if (entries.length > 0) {
    for (const entry of entries) lines.push(...entryLines(entry, 1));
    lines.push({ indent: 0, lead: "}" });
  }
  return render(lines);
}

/** Top-level `name = value` lines (a `.tfvars` file). */
export function assignments(entries: readonly HclEntry[]): string {
  return render(entries.flatMap((e) => entryLines(e, 0)));
}

function entryLines(entry: HclEntry, indent: number): Line[] {
  const { name, value } = entry;
  if (value.kind === "expression")
    return [
      { indent, lead: name, assign: `= ${value.text}`, ...(entry.comment && { comment: entry.comment }) },
    ];
  if (value.kind === "object" && value.entries.length === 0) return [{ indent, lead: name, assign: "= {}" }];
  if (value.kind === "list" && value.items.length === 0) return [{ indent, lead: name, assign: "= []" }];
  const [open, close] = value.kind === "object" ? ["{", "}"] : ["[", "]"];
  const opener = entry.block ? `${name} ${open}` : `${name} = ${open}`;
  return [{ indent, lead: opener }, ...innerLines(value, indent + 1), { indent, lead: close }];
}

/** What is between an object's or a list's brackets. */
function innerLines(value: HclValue, indent: number): Line[] {
  if (value.kind === "object") return value.entries.flatMap((e) => entryLines(e, indent));
  if (value.kind === "expression") return [{ indent, lead: value.text }];
  return value.items.flatMap((item) => {
    if (item.kind === "expression") return [{ indent, lead: `${item.text},` }];
    const [open, close] = item.kind === "object" ? ["{", "}"] : ["[", "]"];
    const inner = innerLines(item, indent + 1);
    if (inner.length === 0) return [{ indent, lead: `${open}${close},` }];
    return [{ indent, lead: open }, ...inner, { indent, lead: `${close},` }];
  });
}

/** The lines with fmt's alignment: `=` of each chain one column past its longest lead, then the comments. */
function render(lines: readonly Line[]): string {
  const width = (l: Line) => 2 * l.indent + l.lead.length;
  const assignAt = new Map<Line, number>();
  for (const chain of chains(lines, (l) => l.assign !== undefined)) {
    const column = Math.max(...chain.map(width)) + 1;
    for (const l of chain) assignAt.set(l, column);
  }
  const body = (l: Line) => {
    const lead = `${"  ".repeat(l.indent)}${l.lead}`;
    return l.assign === undefined ? lead : `${lead.padEnd(assignAt.get(l)!)}${l.assign}`;
  };
  const commentAt = new Map<Line, number>();
  for (const chain of chains(lines, (l) => l.comment !== undefined)) {
    const column = Math.max(...chain.map((l) => body(l).length)) + 1;
    for (const l of chain) commentAt.set(l, column);
  }
  return `${lines
    .map((l) => (l.comment === undefined ? body(l) : `${body(l).padEnd(commentAt.get(l)!)}# ${l.comment}`))
    .join("\n")}\n`;
}

/** Runs of consecutive lines that all have a cell. */
function chains(lines: readonly Line[], has: (l: Line) => boolean): Line[][] {
  const out: Line[][] = [];
  let current: Line[] = [];
  for (const line of lines) {
    if (has(line)) current.push(line);
    else if (current.length > 0) {
      out.push(current);
      current = [];
    }
  }
  if (current.length > 0) out.push(current);
  return out;
}
