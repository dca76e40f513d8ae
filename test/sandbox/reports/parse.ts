/** Small independent readers for report files, so tests judge the files, not the sandbox's writers. */

/** RFC 4180: quoted fields may hold commas, quotes (doubled) and line breaks; rows end with CRLF. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let value = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        value += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else value += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(value);
      value = "";
    } else if (ch === "\r" && text[i + 1] === "\n") {
      row.push(value);
      rows.push(row);
      row = [];
      value = "";
      i++;
    } else value += ch;
  }
  if (value !== "" || row.length > 0) rows.push([...row, value]);
  return rows;
}

/**
 * Checks XML well-formedness (one root, balanced and properly nested tags,
 * quoted attributes, only the predefined entities or character references,
 * no raw `<` or `&` in text). Answers the text content of every element by name.
 */
export function wellFormedXml(text: string): Map<string, string[]> {
  const body = text.replace(/^<\?xml[^?]*\?>\s*/, "");
  const stack: string[] = [];
  const texts = new Map<string, string[]>();
  let roots = 0;
  const token = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*="[^"<]*")*)\s*(\/?)>|([^<]+)/gy;
  let match: RegExpExecArray | null;
  let consumed = 0;
  for (match = token.exec(body); match; match = token.exec(body)) {
    consumed = token.lastIndex;
    const [, closing, name, attrs, selfClosing, chars] = match;
    const checkRefs = (s: string) => {
      for (const ref of s.match(/&[^;]*;?/g) ?? []) {
        if (!/^&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);$/.test(ref))
          throw new Error(`bad reference ${ref}`);
      }
    };
    if (chars !== undefined) {
      if (stack.length === 0 && chars.trim() !== "") throw new Error("text outside the root");
      checkRefs(chars);
      if (stack.length > 0) texts.get(stack.at(-1)!)?.push(chars);
      continue;
    }
    checkRefs(attrs ?? "");
    if (closing) {
      if (stack.pop() !== name) throw new Error(`mismatched </${name}>`);
      continue;
    }
    if (stack.length === 0) roots++;
    if (!texts.has(name!)) texts.set(name!, []);
    if (!selfClosing) stack.push(name!);
  }
  if (consumed !== body.length)
    throw new Error(`unparsable at ${consumed}: ${body.slice(consumed, consumed + 40)}`);
  if (stack.length > 0) throw new Error(`unclosed <${stack.at(-1)}>`);
  if (roots !== 1) throw new Error(`${roots} root elements`);
  return texts;
}

/**
 * Checks a PDF's skeleton: header, trailer, and that every xref entry points
 * at its object's `n 0 obj` line. Answers the text shown by the content streams.
 */
export function readPdf(bytes: Buffer): { pages: number; text: string } {
  const s = bytes.toString("latin1");
  if (!s.startsWith("%PDF-1.")) throw new Error("no %PDF- header");
  if (!s.trimEnd().endsWith("%%EOF")) throw new Error("no %%EOF");
  const startxref = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(s)?.[1]);
  if (!s.startsWith("xref", startxref)) throw new Error("startxref does not point at xref");
  const [, first, count] = /^xref\s+(\d+) (\d+)\s+/.exec(s.slice(startxref))!;
  const entries = s
    .slice(startxref)
    .split("\n")
    .slice(2, 2 + Number(count));
  entries.forEach((entry, i) => {
    const [offset, , kind] = entry.trim().split(" ");
    if (kind === "n" && !s.startsWith(`${Number(first) + i} 0 obj`, Number(offset)))
      throw new Error(`xref entry ${i} points elsewhere`);
  });
  const pages = Number(/\/Type \/Pages \/Kids \[[^\]]*\] \/Count (\d+)/.exec(s)?.[1]);
  const shown = [...s.matchAll(/\((.*?)(?<!\\)\) Tj/g)].map((m) =>
    m[1]!
      .replace(/\\([()\\])/g, "$1")
      .replace(/\\(\d{3})/g, (_, o) => String.fromCharCode(Number.parseInt(o, 8))),
  );
  return { pages, text: shown.join("\n") };
}
