import type { ReportFormat } from "../catalogue/report-types.ts";
import type { ReportModel } from "./content.ts";

/** Writers of a report model, one per format. Each answers the whole file as a string. */

/**
 * A cell a spreadsheet would read as a formula (a monitor named `=HYPERLINK(…)`) gets a leading
 * apostrophe, the usual guard against CSV injection; numbers, negative ones included, stay numbers.
 */
const inert = (v: string) => (/^[=+\-@\t\r]/.test(v) && !/^-?\d+(\.\d+)?$/.test(v) ? `'${v}` : v);

/** RFC 4180: one table, a `section` column first, then the union of every section's columns; CRLF lines. */
function csv(model: ReportModel): string {
  const columns = ["section", ...new Set(model.tables.flatMap((t) => t.columns))];
  const quote = (raw: string) => {
    const v = inert(raw);
    return /[",\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v;
  };
  const lines = [columns.join(",")];
  for (const table of model.tables) {
    for (const row of table.rows) {
      const byColumn = new Map(table.columns.map((c, i) => [c, row[i]!]));
      lines.push([table.section, ...columns.slice(1).map((c) => byColumn.get(c) ?? "")].map(quote).join(","));
    }
  }
  return `${lines.join("\r\n")}\r\n`;
}

const escapeMarkup = (v: string) =>
  v.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
/** Characters XML 1.0 cannot carry at all (C0 controls but tab, LF, CR), dropped before escaping. */
const xmlText = (v: string) =>
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters being removed.
  escapeMarkup(v.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, ""));

/** A standalone HTML document: a heading and one table per section. */
function html(model: ReportModel): string {
  const out = [
    "<!DOCTYPE html>",
    '<html lang="en">',
    `<head><meta charset="utf-8"><title>${escapeMarkup(model.title)}</title>`,
    "<style>body{font-family:sans-serif}table{border-collapse:collapse;margin-bottom:2em}" +
      "th,td{border:1px solid #999;padding:2px 6px;text-align:left}</style></head>",
    "<body>",
    `<h1>${escapeMarkup(model.title)}</h1>`,
    ...model.lines.map((l) => `<p>${escapeMarkup(l)}</p>`),
  ];
  for (const table of model.tables) {
    out.push(`<h2>${escapeMarkup(table.title)}</h2>`, `<table data-section="${table.section}">`);
    out.push(`<thead><tr>${table.columns.map((c) => `<th>${escapeMarkup(c)}</th>`).join("")}</tr></thead>`);
    out.push("<tbody>");
    for (const row of table.rows)
      out.push(`<tr>${row.map((v) => `<td>${escapeMarkup(v)}</td>`).join("")}</tr>`);
    out.push("</tbody>", "</table>");
  }
  out.push("</body>", "</html>");
  return `${out.join("\n")}\n`;
}

/** `<report>` with its monitors, then one `<section>` of `<row>`s whose child elements are the columns. */
function xml(model: ReportModel, meta: Record<string, string>): string {
  const attrs = Object.entries(meta)
    .map(([k, v]) => ` ${k}="${xmlText(v)}"`)
    .join("");
  const out = ['<?xml version="1.0" encoding="UTF-8"?>', `<report${attrs}>`, "  <monitors>"];
  for (const m of model.monitors) out.push(`    <monitor id="${xmlText(m.id)}">${xmlText(m.name)}</monitor>`);
  out.push("  </monitors>");
  for (const table of model.tables) {
    out.push(`  <section name="${table.section}" title="${xmlText(table.title)}">`);
    for (const row of table.rows) {
      const cells = table.columns.map((c, i) => `<${c}>${xmlText(row[i]!)}</${c}>`).join("");
      out.push(`    <row>${cells}</row>`);
    }
    out.push("  </section>");
  }
  out.push("</report>");
  return `${out.join("\n")}\n`;
}

const pdfPage = { width: 595, height: 842, margin: 36, fontSize: 8, leading: 10 };
/** Courier is 0.6 em wide: the characters that fit between the margins. */
const pdfColumns = Math.floor((pdfPage.width - 2 * pdfPage.margin) / (pdfPage.fontSize * 0.6));
const pdfLinesPerPage = Math.floor((pdfPage.height - 2 * pdfPage.margin) / pdfPage.leading);

/**
 * A PDF string literal in 7-bit ASCII: delimiters escaped, Latin-1 characters
 * as octal escapes (WinAnsiEncoding agrees with Latin-1 there), anything
 * beyond as `?`. The file then has no binary bytes, so offsets are character counts.
 */
function pdfString(text: string): string {
  let out = "(";
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === "\\" || ch === "(" || ch === ")") out += `\\${ch}`;
    else if (code >= 32 && code < 127) out += ch;
    else if (code >= 160 && code <= 255) out += `\\${code.toString(8).padStart(3, "0")}`;
    else out += "?";
  }
  return `${out})`;
}

/** Splits a line into pieces that fit the page width (by character, Courier being monospaced). */
function wrap(line: string, indent = "    "): string[] {
  const chars = [...line];
  if (chars.length <= pdfColumns) return [line];
  const out = [chars.slice(0, pdfColumns).join("")];
  for (let i = pdfColumns; i < chars.length; i += pdfColumns - indent.length) {
    out.push(indent + chars.slice(i, i + pdfColumns - indent.length).join(""));
  }
  return out;
}

/** The report as text lines: header, then per section its rows as `column: value` pairs under the monitor. */
function pdfLines(model: ReportModel): string[] {
  const lines = [model.title, ...model.lines, ""];
  for (const table of model.tables) {
    lines.push(`== ${table.title} ==`);
    if (table.rows.length === 0) lines.push("  (nothing in this range)");
    for (const row of table.rows) {
      lines.push(`  ${row[1]} (${row[0]})`);
      const pairs = table.columns.slice(2).map((c, i) => `${c}: ${row[i + 2]}`);
      lines.push(...wrap(`    ${pairs.join("; ")}`, "      "));
    }
    lines.push("");
  }
  return lines.flatMap((l) => wrap(l));
}

/** A minimal PDF 1.4 document: Courier text pages, a cross-reference table and a trailer. */
function pdf(model: ReportModel): string {
  const lines = pdfLines(model);
  const pages: string[][] = [];
  for (let i = 0; i < lines.length; i += pdfLinesPerPage) pages.push(lines.slice(i, i + pdfLinesPerPage));
  // Objects: 1 catalog, 2 page tree, 3 font, then a page and its content stream per page.
  const pageId = (n: number) => 4 + 2 * n;
  const objects: string[] = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${pages.map((_, n) => `${pageId(n)} 0 R`).join(" ")}] /Count ${pages.length} >>`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>",
  ];
  pages.forEach((page, n) => {
    const top = pdfPage.height - pdfPage.margin - pdfPage.fontSize;
    const text = page.map((l, i) => `${i === 0 ? "" : "T* "}${pdfString(l)} Tj`).join("\n");
    const stream = `BT\n/F1 ${pdfPage.fontSize} Tf\n${pdfPage.leading} TL\n${pdfPage.margin} ${top} Td\n${text}\nET\n`;
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${pdfPage.width} ${pdfPage.height}] ` +
        `/Resources << /Font << /F1 3 0 R >> >> /Contents ${pageId(n) + 1} 0 R >>`,
      `<< /Length ${stream.length} >>\nstream\n${stream}endstream`,
    );
  });
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return out;
}

/** The file of a report in its format; `meta` names the report in formats that carry attributes. */
export function writeReport(format: ReportFormat, model: ReportModel, meta: Record<string, string>): string {
  if (format === "csv") return csv(model);
  if (format === "html") return html(model);
  if (format === "xml") return xml(model, meta);
  return pdf(model);
}
