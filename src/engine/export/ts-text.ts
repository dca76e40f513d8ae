/**
 * TypeScript source text for the formats that write a program (Pulumi, CDKTF): identifiers made valid and
 * unique, string literals, and object literals laid out two spaces deep, one member a line, as a formatter
 * would. The writers build a `TsValue` tree from the graph's members and render it here.
 */
import { readShippedSync, vigilVersion } from "../../shipped.ts";

/** An expression as it is written, a `{...}` literal, or a `[...]` literal. */
export type TsValue =
  | { kind: "expression"; text: string }
  | { kind: "object"; entries: TsEntry[] }
  | { kind: "array"; items: TsValue[] };

export interface TsEntry {
  /** The member's name: written bare when it is an identifier, else quoted. */
  name: string;
  value: TsValue;
  /** Said after the value (`// 2030-01-06T02:00:00Z` beside a timestamp). */
  comment?: string;
}

export const expression = (text: string): TsValue => ({ kind: "expression", text });

/** A string literal; JSON's escapes are TypeScript's, and `${` has no meaning inside double quotes. */
export const stringLiteral = (value: string): string => JSON.stringify(value);

/** Words TypeScript refuses as a variable name, and names the written programs use themselves. */
const reserved = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally " +
    "for function if import in instanceof new null return super switch this throw true try typeof var void " +
    "while with implements interface let package private protected public static yield await as async of " +
    "arguments eval undefined NaN Infinity any boolean number string symbol type from declare constructor " +
    "module namespace require global process console"
  ).split(" "),
);

const identifierPattern = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `checkout-api-eu` → `checkoutApiEu`; a leading digit gets `_`. */
export function camelCase(name: string): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter((w) => w.length > 0);
  const text = words
    .map((w, i) =>
      i === 0 ? w.charAt(0).toLowerCase() + w.slice(1) : w.charAt(0).toUpperCase() + w.slice(1),
    )
    .join("");
  if (text === "") return "_";
  return /^[0-9]/.test(text) ? `_${text}` : text;
}

/**
 * Variable names for items, unique among themselves and apart from `taken` (which grows): each item's
 * spelling, else that spelling with its `qualifier` (`apiTeam` → `apiTeamContactGroup`), else with 2, 3...
 * In the items' order, so the same items always get the same names.
 */
export function uniqueIdentifiers<T>(
  items: readonly T[],
  spell: (item: T) => string,
  qualifier: (item: T) => string,
  taken: Set<string>,
): Map<T, string> {
  const free = (name: string) => !taken.has(name) && !reserved.has(name);
  const out = new Map<T, string>();
  for (const item of items) {
    const base = spell(item);
    let name = free(base) ? base : `${base}${qualifier(item)}`;
    for (let n = 2; !free(name); n++) name = `${base}${qualifier(item)}${n}`;
    taken.add(name);
    out.set(item, name);
  }
  return out;
}

/**
 * A member name: bare when it is an identifier, else a string literal. `__proto__`, bare or quoted, would set
 * the literal's prototype instead of a member: it is computed (`["__proto__"]`), which defines one.
 */
export const memberName = (name: string): string =>
  name === "__proto__"
    ? `[${stringLiteral(name)}]`
    : identifierPattern.test(name)
      ? name
      : stringLiteral(name);

/** Scalar arrays that fit stay on one line. */
const lineWidth = 100;

/** The value as source text, its first line starting at `indent` (two spaces a level). */
export function render(value: TsValue, indent = 0): string {
  const pad = "  ".repeat(indent + 1);
  const close = "  ".repeat(indent);
  if (value.kind === "expression") return value.text;
  if (value.kind === "object") {
    if (value.entries.length === 0) return "{}";
    const lines = value.entries.map(
      (e) =>
        `${pad}${memberName(e.name)}: ${render(e.value, indent + 1)},${e.comment ? ` // ${e.comment}` : ""}`,
    );
    return `{\n${lines.join("\n")}\n${close}}`;
  }
  if (value.items.length === 0) return "[]";
  if (value.items.every((i) => i.kind === "expression")) {
    const inline = `[${value.items.map((i) => render(i)).join(", ")}]`;
    if (pad.length + inline.length <= lineWidth) return inline;
  }
  return `[\n${value.items.map((i) => `${pad}${render(i, indent + 1)},`).join("\n")}\n${close}]`;
}

/** What differs between the TypeScript projects the program formats write. */
export interface TsProject {
  name: string;
  /** The program's file, which `tsc --noEmit` checks. */
  main: string;
  scripts: Record<string, string>;
  /** Its runtime dependencies beside `vigil`, at the ranges this package ships with (or `fallback`). */
  dependencies: Record<string, { from: "dependencies" | "peerDependencies"; fallback: string }>;
  /** The type packages `tsc` loads (`node` where the program reads `process`). */
  types: string[];
}

/** A generated project's `package.json` and `tsconfig.json`: this package, TypeScript, and Node's type stripping. */
export function tsProjectFiles(project: TsProject): { "package.json": string; "tsconfig.json": string } {
  const shipped = JSON.parse(readShippedSync("package.json")) as Record<
    "dependencies" | "peerDependencies" | "devDependencies",
    Record<string, string> | undefined
  >;
  const dependencies = Object.fromEntries(
    Object.entries(project.dependencies).map(([name, range]) => [
      name,
      shipped[range.from]?.[name] ?? range.fallback,
    ]),
  );
  const manifest = {
    name: project.name,
    private: true,
    type: "module",
    main: project.main,
    // 22.18 and later run a .ts entry by stripping its types: no ts-node, no build.
    engines: { node: ">=22.18" },
    scripts: project.scripts,
    dependencies: { ...dependencies, vigil: `^${vigilVersion()}` },
    devDependencies: {
      "@types/node": shipped.devDependencies?.["@types/node"] ?? "^22.0.0",
      typescript: shipped.devDependencies?.typescript ?? "^5.0.0",
    },
  };
  const tsconfig = {
    compilerOptions: {
      target: "es2023",
      module: "nodenext",
      moduleResolution: "nodenext",
      strict: true,
      noEmit: true,
      allowImportingTsExtensions: true,
      types: project.types,
      skipLibCheck: true,
    },
    include: [project.main],
  };
  return {
    "package.json": `${JSON.stringify(manifest, null, 2)}\n`,
    "tsconfig.json": `${JSON.stringify(tsconfig, null, 2)}\n`,
  };
}
