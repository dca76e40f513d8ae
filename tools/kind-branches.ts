/**
 * Finds the places where shared code names one resource kind: a string that is a kind's name (`"monitor"`)
 * in a comparison, a `case`, a call, a list or a type, or an object key that is one (a table by kind). Each
 * is knowledge of that kind written outside its definition; the kind should declare it (variants, rules,
 * relations) and shared code read the declaration. Likewise an import of what a kind's own folder
 * (`src/kinds/monitor/`) exports besides the kind's definition: `settingsByType`, `monitorTypes`. Prints each
 * with its file and line; exits 1 when any.
 *   npm exec -- node tools/kind-branches.ts [folder…]
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import ts from "typescript";
import { kinds } from "../src/kinds/index.ts";
import { filesUnder } from "./import-cycles.ts";

export interface KindBranch {
  /** The file, relative to the folder the search started from (`src`). */
  file: string;
  line: number;
  /** The kind named. */
  kind: string;
  /** The construct that names it, whitespace collapsed and cut at 60 characters: `a.kind === "monitor"`. */
  code: string;
}

/** The constructs a kind's name is looked for in, from the literal or key up to the one that says why. */
const constructs = new Set([
  ts.SyntaxKind.BinaryExpression,
  ts.SyntaxKind.CaseClause,
  ts.SyntaxKind.CallExpression,
  ts.SyntaxKind.NewExpression,
  ts.SyntaxKind.ElementAccessExpression,
  ts.SyntaxKind.ArrayLiteralExpression,
  ts.SyntaxKind.PropertyAssignment,
  ts.SyntaxKind.ShorthandPropertyAssignment,
  ts.SyntaxKind.UnionType,
  ts.SyntaxKind.LiteralType,
  ts.SyntaxKind.VariableDeclaration,
  ts.SyntaxKind.ReturnStatement,
]);

function constructOf(node: ts.Node): ts.Node {
  let at = node.parent;
  while (!constructs.has(at.kind) && !ts.isSourceFile(at.parent)) at = at.parent;
  // A union's member is a literal type: say the whole union.
  if (ts.isLiteralTypeNode(at) && ts.isUnionTypeNode(at.parent)) return at.parent;
  return at;
}

function snippet(node: ts.Node): string {
  const text = node.getText().replace(/\s+/g, " ");
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

/** Every kind-naming construct in the TypeScript files under `folders`, paths relative to `root`. */
export function kindBranches(
  root: string,
  folders: readonly string[],
  names: ReadonlySet<string> = new Set(kinds.map((k) => k.name)),
): KindBranch[] {
  const found: KindBranch[] = [];
  for (const file of folders.flatMap((folder) => filesUnder(resolve(root, folder)))) {
    const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
    const report = (node: ts.Node, kind: string, construct = constructOf(node)) =>
      found.push({
        file: relative(root, file),
        line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1,
        kind,
        code: snippet(construct),
      });
    const visit = (node: ts.Node): void => {
      if (ts.isStringLiteralLike(node) && names.has(node.text)) report(node, node.text);
      // A key of an object literal: a table by kind, said whole.
      else if (
        (ts.isPropertyAssignment(node) || ts.isShorthandPropertyAssignment(node)) &&
        ts.isObjectLiteralExpression(node.parent) &&
        ts.isIdentifier(node.name) &&
        names.has(node.name.text)
      )
        report(node.name, node.name.text, node.parent);
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

/** The names a kind's own folder exports (`kinds/monitor/`), by name, its kind definition (`defineKind`) left out. */
function kindFolderExports(kindsRoot: string): Map<string, string> {
  const owners = new Map<string, string>();
  const folders = readdirSync(kindsRoot, { withFileTypes: true }).filter((e) => e.isDirectory());
  for (const folder of folders)
    for (const file of filesUnder(resolve(kindsRoot, folder.name))) {
      const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
      for (const statement of source.statements) {
        const modifiers = ts.canHaveModifiers(statement) ? ts.getModifiers(statement) : undefined;
        if (!modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
        const declared = ts.isVariableStatement(statement)
          ? statement.declarationList.declarations
              .filter((d) => !(d.initializer && /^defineKind\b/.test(d.initializer.getText())))
              .map((d) => d.name.getText())
          : "name" in statement && statement.name
            ? [(statement.name as ts.Identifier).text]
            : [];
        for (const name of declared) owners.set(name, folder.name);
      }
    }
  return owners;
}

/** Every import, into the TypeScript files under `folders`, of what a kind's own folder exports. */
export function kindFolderImports(root: string, folders: readonly string[]): KindBranch[] {
  const kindsRoot = resolve(root, "kinds");
  const owners = kindFolderExports(kindsRoot);
  const found: KindBranch[] = [];
  for (const file of folders.flatMap((folder) => filesUnder(resolve(root, folder)))) {
    const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
    for (const statement of source.statements) {
      if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
      const target = resolve(dirname(file), statement.moduleSpecifier.text);
      if (!statement.moduleSpecifier.text.startsWith(".") || relative(kindsRoot, target).startsWith(".."))
        continue;
      const bindings = statement.importClause?.namedBindings;
      if (!bindings || !ts.isNamedImports(bindings)) continue;
      for (const element of bindings.elements) {
        const name = (element.propertyName ?? element.name).getText();
        const kind = owners.get(name);
        if (kind === undefined) continue;
        found.push({
          file: relative(root, file),
          line: source.getLineAndCharacterOfPosition(element.getStart()).line + 1,
          kind,
          code: `import { ${name} }`,
        });
      }
    }
  }
  return found;
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  const root = resolve("src");
  const given =
    process.argv.length > 2
      ? process.argv.slice(2)
      : ["src/engine", "src/gitops", "src/terraform", "src/pulumi"];
  const folders = given.map((folder) => relative(root, resolve(folder)));
  const found = [...kindBranches(root, folders), ...kindFolderImports(root, folders)];
  for (const b of found) console.log(`src/${b.file}:${b.line}: ${b.kind} in ${b.code}`);
  console.log(`${found.length} place(s) naming a kind under ${given.join(", ")}`);
  process.exitCode = found.length > 0 ? 1 : 0;
}
