/**
 * Measures every function of the TypeScript files under some folders: declarations, methods, accessors,
 * constructors, arrow functions and function expressions. A function's length is its lines from its first
 * token (leading comments left out) to its last, nested functions included, since a reader reads those too.
 * Prints the functions longer than the limit with file:line, name and length; exits 1 when any.
 *   npm exec -- node tools/function-length.ts [limit] [folder…]
 */
import { readFileSync } from "node:fs";
import { relative, resolve, sep } from "node:path";
import ts from "typescript";
import { filesUnder } from "./import-cycles.ts";

export interface FunctionLength {
  /** The file, relative to the folder given as `base`. */
  file: string;
  /** The line of the function's first token, from 1. */
  line: number;
  /** Its own name, else what it is assigned to or passed to (`describe("plan") callback`). */
  name: string;
  lines: number;
}

type FunctionNode =
  | ts.FunctionDeclaration
  | ts.MethodDeclaration
  | ts.ConstructorDeclaration
  | ts.GetAccessorDeclaration
  | ts.SetAccessorDeclaration
  | ts.ArrowFunction
  | ts.FunctionExpression;

function isFunction(node: ts.Node): node is FunctionNode {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node) ||
    ts.isArrowFunction(node) ||
    ts.isFunctionExpression(node)
  );
}

const short = (text: string) => {
  const flat = text.replace(/\s+/g, " ");
  return flat.length > 40 ? `${flat.slice(0, 39)}…` : flat;
};

/** A function's name: its own, or the variable, property or call that holds it. */
function nameOf(node: FunctionNode, source: ts.SourceFile): string {
  if (ts.isConstructorDeclaration(node)) return "constructor";
  if (node.name !== undefined) return node.name.getText(source);
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
    return parent.name.getText(source);
  if (ts.isCallExpression(parent) || ts.isNewExpression(parent)) {
    const first = parent.arguments?.[0];
    const label =
      first !== undefined && ts.isStringLiteralLike(first) ? `(${JSON.stringify(first.text)})` : "";
    return `${short(parent.expression.getText(source))}${label} callback`;
  }
  return "(anonymous)";
}

/** Every function of one file's text, in source order. */
export function functionLengths(file: string, text: string): FunctionLength[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: FunctionLength[] = [];
  const visit = (node: ts.Node) => {
    if (isFunction(node) && node.body !== undefined) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ file, line: start + 1, name: nameOf(node, source), lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The functions longer than `limit` lines in the TypeScript files under `folders`, named relative to `base`. */
export function longFunctions(
  base: string,
  folders: readonly string[],
  limit: number,
  skip: (file: string) => boolean = () => false,
): FunctionLength[] {
  return folders
    .flatMap((folder) => filesUnder(resolve(base, folder)))
    .map((path) => relative(base, path).split(sep).join("/"))
    .filter((file) => !skip(file))
    .flatMap((file) => functionLengths(file, readFileSync(resolve(base, file), "utf8")))
    .filter((f) => f.lines > limit);
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  const limit = Number(process.argv[2] ?? 100);
  const folders = process.argv.slice(3);
  const base = process.cwd();
  const found = longFunctions(base, folders.length > 0 ? folders : ["src"], limit);
  for (const f of found.sort((a, b) => b.lines - a.lines))
    console.log(`${f.file}:${f.line}: ${f.name} (${f.lines} lines)`);
  console.log(`${found.length} function(s) over ${limit} lines`);
  process.exitCode = found.length > 0 ? 1 : 0;
}
