/**
 * Lists the exports of `src` nothing uses: dead code (no use anywhere), exports only their own file uses (the
 * `export` is too much), and exports only tests, benches or tools use (published code nothing in `src` runs:
 * a generator's entry point, or code kept alive by its tests). Reads
 * the whole program of tsconfig.json, so it takes a while; generated code is left out.
 *   npm exec -- node tools/unused-exports.ts
 */
import { relative, resolve } from "node:path";
import ts from "typescript";

const repository = resolve(import.meta.dirname, "..");
const generated = ["src/pulumi/sdk/", "src/cdktf/generated/"];

export interface UnusedExport {
  file: string;
  name: string;
  line: number;
  /** `dead`: used nowhere; `local`: only in its own file; `tests`: only outside `src` (nothing published runs it). */
  use: "dead" | "local" | "tests";
}

function program(): ts.Program {
  const configPath = resolve(repository, "tsconfig.json");
  const config = ts.readConfigFile(configPath, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, repository);
  return ts.createProgram(parsed.fileNames, parsed.options);
}

export function unusedExports(): UnusedExport[] {
  const p = program();
  const checker = p.getTypeChecker();
  const sources = p
    .getSourceFiles()
    .filter((f) => !f.isDeclarationFile && !f.fileName.includes("node_modules"));
  const name = (f: ts.SourceFile) => relative(repository, f.fileName);
  const published = (f: ts.SourceFile) =>
    name(f).startsWith("src/") && !generated.some((g) => name(f).startsWith(g));

  // Where each symbol is used, by the file using it: every identifier that resolves to it, aliases followed.
  const uses = new Map<ts.Symbol, Set<ts.SourceFile>>();
  for (const source of sources) {
    const visit = (node: ts.Node): void => {
      if (ts.isIdentifier(node) && !isDeclarationName(node)) {
        let symbol = checker.getSymbolAtLocation(node);
        if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
        // A shorthand `{ name }` refers to the variable as well as naming the property.
        if (ts.isShorthandPropertyAssignment(node.parent))
          symbol = checker.getShorthandAssignmentValueSymbol(node.parent) ?? symbol;
        // `const { name } = await import("…")` takes the module's export.
        const pattern = node.parent.parent;
        if (ts.isBindingElement(node.parent) && ts.isObjectBindingPattern(pattern)) {
          const value = ts.isVariableDeclaration(pattern.parent) ? pattern.parent.initializer : undefined;
          const property = (node.parent.propertyName ?? node.parent.name).getText();
          const from = value && checker.getTypeAtLocation(value).getProperty(property);
          if (from) symbol = from.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(from) : from;
        }
        if (symbol) (uses.get(symbol) ?? uses.set(symbol, new Set()).get(symbol)!).add(source);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }

  const found: UnusedExport[] = [];
  for (const source of sources.filter(published)) {
    const module = checker.getSymbolAtLocation(source);
    if (!module) continue;
    for (const exported of checker.getExportsOfModule(module)) {
      // Re-exports (`export * from`, `export { x } from`) are judged where they are declared.
      if (exported.flags & ts.SymbolFlags.Alias) continue;
      const declaration = exported.declarations?.[0];
      if (!declaration || declaration.getSourceFile() !== source) continue;
      const users = [...(uses.get(exported) ?? [])];
      const elsewhere = users.filter((u) => u !== source);
      if (elsewhere.some(published)) continue;
      // Used in its own file and by tests: it runs, and tests reach it directly.
      if (users.includes(source) && elsewhere.length > 0) continue;
      const use = users.length === 0 ? "dead" : elsewhere.length === 0 ? "local" : "tests";
      found.push({
        file: name(source),
        name: exported.name,
        line: source.getLineAndCharacterOfPosition(declaration.getStart()).line + 1,
        use,
      });
    }
  }
  return found;
}

/** The name a declaration gives (not a use of it), export and import specifiers included. */
function isDeclarationName(node: ts.Identifier): boolean {
  const parent = node.parent;
  if (ts.isExportSpecifier(parent) || ts.isImportSpecifier(parent) || ts.isImportClause(parent)) return true;
  if (ts.isNamespaceImport(parent)) return true;
  return (
    (ts.isFunctionDeclaration(parent) ||
      ts.isClassDeclaration(parent) ||
      ts.isInterfaceDeclaration(parent) ||
      ts.isTypeAliasDeclaration(parent) ||
      ts.isEnumDeclaration(parent) ||
      ts.isVariableDeclaration(parent)) &&
    parent.name === node
  );
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  const found = unusedExports();
  for (const use of ["dead", "local", "tests"] as const) {
    const some = found.filter((f) => f.use === use);
    console.log(`${use}: ${some.length}`);
    for (const f of some) console.log(`  ${f.file}:${f.line} ${f.name}`);
  }
}
