import { readFileSync } from "node:fs";
import { basename, dirname, relative, resolve, sep } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { functionLengths, longFunctions } from "../tools/function-length.ts";
import { cycles, filesUnder, importGraph, relativeImports } from "../tools/import-cycles.ts";
import { type KindBranch, kindBranches, kindFolderImports } from "../tools/kind-branches.ts";

/**
 * The shape of the whole source tree (issue 18): no import cycles (type-only imports included), each folder
 * imports only the folders below it, shared code names no kind, no hand-written file is long without a
 * reason, and no hand-written function is long (issue 27). Each folder's finer rules live beside its own tests
 * (`test/sandbox/module-graph.test.ts`).
 */
const root = resolve(import.meta.dirname, "../src");
const graph = importGraph(root);
const name = (file: string) => relative(root, file).split(sep).join("/");

/** Generated folders: their shape is their generator's, and `test/generate.test.ts` checks them. */
const generated = ["pulumi/sdk/", "cdktf/generated/"];
const isGenerated = (file: string) => generated.some((folder) => name(file).startsWith(folder));

it("has no import cycles in src", () => {
  expect(graph.size).toBeGreaterThan(300);
  expect(cycles(graph).map((c) => c.map(name))).toEqual([]);
});

describe("which folder may import which", () => {
  /**
   * What each folder of `src` may import besides itself and the shared leaves at the top of `src`
   * (`duration.ts`), which import nothing. Lower folders never import higher ones:
   * - `kinds`: the model; everything derives from it, so it depends on nothing.
   * - `api`: the typed client speaks the kinds' vocabulary.
   * - `engine`: plans and applies through the client.
   * - the frontends `gitops`, `terraform`, `pulumi` render the kinds and drive the engine; none imports
   *   another, so each can change (or go) alone and all render from the same neutral model.
   * - `watch`: a long-running engine loop, like a frontend without a file format.
   * - `routing`: the routing matrix (who a configuration's alerts reach), derived offline from the engine's
   *   desired resources with the kinds' alert rules, the ones the sandbox decides by; read by `vigil routes`
   *   and `vigil test`. It names kinds: what a contact, a subscription and a window mean to an alert is its
   *   subject, as for the sandbox.
   * - `cli`: the one composition root: the GitOps format, the watcher, the routing matrix, the sandbox
   *   (`--sandbox`, `vigil sandbox`) and the export writers of the Terraform and Pulumi frontends
   *   (`vigil export --format hcl|cdktf|pulumi`, their `export/` folders only), each loaded only when asked for.
   * - `sandbox`: the reference backend is built from the kinds alone; if it used the client or the engine,
   *   a defect there would hide on both sides of the wire.
   * - `cdktf`: bindings generated from provider.json; they import no source at all.
   */
  const mayImport: Record<string, readonly string[]> = {
    kinds: [],
    api: ["kinds"],
    engine: ["kinds", "api"],
    gitops: ["kinds", "engine", "api"],
    terraform: ["kinds", "engine", "api"],
    pulumi: ["kinds", "engine", "api"],
    watch: ["kinds", "engine", "api"],
    routing: ["kinds", "engine"],
    fleet: ["kinds", "engine", "api", "gitops", "watch"],
    cli: ["kinds", "engine", "api", "gitops", "watch", "routing", "fleet", "sandbox", "terraform", "pulumi"],
    sandbox: ["kinds"],
    cdktf: [],
  };

  const folderOf = (file: string) => (name(file).includes("/") ? name(file).split("/")[0]! : undefined);
  const imports = [...graph].flatMap(([file, targets]) => targets.map((target) => ({ file, target })));
  const crossing = imports.filter(({ file, target }) => folderOf(file) !== folderOf(target));
  const said = ({ file, target }: { file: string; target: string }) => `${name(file)} -> ${name(target)}`;

  it("knows every folder of src", () => {
    const folders = new Set([...graph.keys()].map(folderOf).filter((f) => f !== undefined));
    expect([...folders].sort()).toEqual(Object.keys(mayImport).sort());
  });

  it("imports only folders below, and shared leaves that import nothing", () => {
    const broken = crossing
      .filter(({ file, target }) => {
        const from = folderOf(file);
        const to = folderOf(target);
        if (from === undefined) return true;
        return to !== undefined && !mayImport[from]!.includes(to);
      })
      .map(said);
    expect(broken).toEqual([]);
  });

  it("reaches the Terraform and Pulumi frontends from the CLI only through their export writers", () => {
    const intoFrontends = crossing.filter(
      ({ file, target }) => folderOf(file) === "cli" && ["terraform", "pulumi"].includes(folderOf(target)!),
    );
    const outsideExport = intoFrontends.filter(
      ({ target }) => !/^(terraform|pulumi)\/export\//.test(name(target)),
    );
    expect(outsideExport.map(said)).toEqual([]);
  });

  it("imports nothing from outside src (tools, tests, benches are not published)", () => {
    const outside = filesUnder(root).flatMap((file) =>
      relativeImports(resolve(file))
        .filter((target) => relative(root, target).startsWith(".."))
        .map((target) => `${name(file)} -> ${relative(resolve(root, ".."), target)}`),
    );
    expect(outside).toEqual([]);
  });
});

it("builds the API client in one place, api/session.ts (frontends and the engine open sessions there)", () => {
  const builders = [...graph.keys()]
    .filter((file) => /\bnew VigilClient\(/.test(readFileSync(file, "utf8")))
    .map(name);
  expect(builders).toEqual(["api/session.ts"]);
});

describe("shared code names no kind", () => {
  /**
   * Knowledge of one kind belongs on its definition (`src/kinds`: variants, rules, relations) and, for what
   * its API does differently, in its own engine files: `engine/kinds/<kind>.ts` and its bulk route
   * `engine/bulk/<kind>.ts` (the requests the API offers for many writes of the kind, which the CLI's apply
   * and the providers' batched writes both send). Those may name their kinds, or
   * import what the kind's own folder of `src/kinds` exports (`kinds/monitor/`: `settingsByType`); the files
   * there that serve every kind may not.
   */
  const folders = ["engine", "gitops", "terraform", "pulumi"];
  const sharedInKindFolders = [
    "engine/kinds/engine-kind.ts",
    "engine/kinds/index.ts",
    "engine/bulk/route.ts",
    "engine/bulk/policy.ts",
    "engine/bulk/index.ts",
    "engine/bulk/jobs.ts",
    "engine/bulk/two-phase-delete.ts",
  ];
  const isKindsOwnFile = (file: string) =>
    /^engine\/(kinds|bulk)\/[^/]+\.ts$/.test(file) && !sharedInKindFolders.includes(file);

  /** Places (a file and the construct as `tools/kind-branches.ts` prints it) and why they are there. */
  type Allowed = { why: string; places: [file: string, code: string][] };

  /** Kind-named code with a reason to stay. */
  const explained: Allowed[] = [
    {
      why: "the vigil_monitor data source looks up monitors, and its schema is the monitor resource's read-back",
      places: [
        ["terraform/data-sources.ts", 'engineKind("monitor")'],
        ["terraform/data-source-schemas.ts", 'resourceTypeName("monitor")'],
      ],
    },
    {
      why: "the SDK's class names are the kinds' names in PascalCase, but for maintenance (a window)",
      places: [["pulumi/tokens.ts", '{ maintenance: "MaintenanceWindow" }']],
    },
  ];

  const found = [...kindBranches(root, folders), ...kindFolderImports(root, folders)].filter(
    (b) => !isKindsOwnFile(b.file) && !isGenerated(resolve(root, b.file)),
  );
  const allowed = explained.flatMap((a) => a.places);
  const matches =
    ([file, code]: [string, string]) =>
    (b: KindBranch) =>
      b.file === file && b.code === code;

  it("finds kind names where they are (the check reads the source)", () => {
    const own = kindBranches(root, ["engine/kinds"]).filter((b) => isKindsOwnFile(b.file));
    // Engine kinds take their kind's definition (and name) from it: what is left is a literal here and there.
    expect(own.map((b) => b.kind)).toEqual(
      expect.arrayContaining(["alertSubscription", "reportSubscription", "statusPageTemplate"]),
    );
    // Each bulk route names the kind it declares, and only its own file does.
    const routes = kindBranches(root, ["engine/bulk"]);
    expect(routes.filter((b) => !isKindsOwnFile(b.file))).toEqual([]);
    expect(routes.map((b) => `${b.file}: ${b.kind}`)).toEqual(
      expect.arrayContaining([
        "engine/bulk/monitors.ts: monitor",
        "engine/bulk/contacts.ts: contact",
        "engine/bulk/subscriptions.ts: alertSubscription",
        "engine/bulk/subscriptions.ts: reportSubscription",
      ]),
    );
    const imported = kindFolderImports(root, ["engine/kinds"]).filter((b) => isKindsOwnFile(b.file));
    expect(imported).toContainEqual(
      expect.objectContaining({ file: "engine/kinds/monitor.ts", kind: "monitor" }),
    );
  });

  it("has no kind-named branch outside the lists", () => {
    const unexplained = found.filter((b) => !allowed.some((place) => matches(place)(b)));
    expect(unexplained.map((b) => `${b.file}:${b.line}: ${b.code}`)).toEqual([]);
  });

  it("lists only places that are still there", () => {
    const stale = allowed.filter((place) => !found.some(matches(place)));
    expect(stale).toEqual([]);
  });
});

describe("file length", () => {
  /** Past this, a hand-written file (source, test, tool or bench) says at its top why it is not split (`Longer than 500 lines: …`). */
  const maxLines = 500;
  const reason = /^\s*(\/\/|\*|\/\*\*?)\s*Longer than \d+ lines:/m;

  const repository = resolve(root, "..");
  const handWritten = ["src", "test", "tools", "bench"]
    .flatMap((folder) => filesUnder(resolve(repository, folder)))
    .filter((file) => !isGenerated(resolve(file)));
  const long = handWritten
    .map((file) => ({
      file: relative(repository, file).split(sep).join("/"),
      text: readFileSync(file, "utf8"),
    }))
    .filter(({ text }) => text.split("\n").length > maxLines);

  it(`keeps hand-written files under ${maxLines} lines, or says why at the top`, () => {
    expect(handWritten.length).toBeGreaterThan(600);
    const unexplained = long
      .filter(({ text }) => !reason.test(text.split("\n").slice(0, 30).join("\n")))
      .map(({ file }) => file);
    expect(unexplained).toEqual([]);
  });
});

describe("function length", () => {
  /**
   * No hand-written function (a declaration, method, accessor, constructor, arrow function or function
   * expression; its nested functions counted in) runs past this many lines in src, tools or bench: past it, a
   * function does several things, and each deserves a name (and, where it is a pure decision, a unit test).
   * Tests are not measured: a suite's callback is a list of cases and a test's body a scenario read top to
   * bottom, and the file limit above bounds both.
   */
  const maxLines = 100;
  const repository = resolve(root, "..");
  const measured = ["src", "tools", "bench"];
  const long = longFunctions(repository, measured, maxLines, (file) =>
    generated.some((folder) => file.startsWith(`src/${folder}`)),
  );

  it("measures every function, nested and anonymous ones too", () => {
    const all = functionLengths(
      "example.ts",
      [
        "export function outer() {",
        "  const inner = (a: number) => {",
        "    return a;",
        "  };",
        "  items.map(function (x) { return x; });",
        '  it("does a thing", () => {});',
        "  return class { method() {}\n get size() { return 1; } constructor() {} };",
        "}",
      ].join("\n"),
    );
    expect(all.map((f) => `${f.line} ${f.name} ${f.lines}`)).toEqual([
      "1 outer 9",
      "2 inner 3",
      "5 items.map callback 1",
      '6 it("does a thing") callback 1',
      "7 method 1",
      "8 size 1",
      "8 constructor 1",
    ]);
  });

  it(`keeps hand-written functions in ${measured.join(", ")} at ${maxLines} lines or under`, () => {
    const over = long.map((f) => `${f.file}:${f.line}: ${f.name} is ${f.lines} lines long`);
    expect(over).toEqual([]);
  });
});

describe("where a test lives", () => {
  /**
   * A source file's own unit tests live at its mirrored path: `src/engine/plan/decide.ts` is tested by
   * `test/engine/plan/decide.test.ts`. A test file named after a source file it imports (a value import: a
   * type alone tests nothing) is that file's unit test, so it sits there; suites that test behaviour across
   * files (through the sandbox's HTTP, the CLI, a provider's protocol) keep topic names.
   */
  const tests = resolve(root, "../test");
  const valueImports = (file: string): string[] => {
    const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest);
    return source.statements
      .filter(ts.isImportDeclaration)
      .filter((i) => !i.importClause?.isTypeOnly && ts.isStringLiteral(i.moduleSpecifier))
      .filter((i) => {
        const named = i.importClause?.namedBindings;
        const onlyTypes =
          !i.importClause?.name &&
          named &&
          ts.isNamedImports(named) &&
          named.elements.every((e) => e.isTypeOnly);
        return !onlyTypes;
      })
      .map((i) => (i.moduleSpecifier as ts.StringLiteral).text)
      .filter((specifier) => specifier.startsWith("."))
      .map((specifier) => resolve(dirname(file), specifier));
  };
  const mirrored = (source: string) => resolve(tests, relative(root, source)).replace(/\.ts$/, ".test.ts");

  it("finds a file's unit tests by the file's name (the check reads the imports)", () => {
    expect(valueImports(resolve(tests, "engine/plan/decide.test.ts"))).toContain(
      resolve(root, "engine/plan/decide.ts"),
    );
  });

  it("puts a source file's unit tests at its mirrored path", () => {
    // Only a test named after some source file can be one's unit test: the others are not parsed.
    const sourceNames = new Set([...graph.keys()].map((file) => basename(file, ".ts")));
    const misplaced = filesUnder(tests)
      .filter((file) => file.endsWith(".test.ts") && sourceNames.has(basename(file, ".test.ts")))
      .flatMap((file) => {
        const own = valueImports(file).filter(
          (target) =>
            !relative(root, target).startsWith("..") &&
            basename(target, ".ts") === basename(file, ".test.ts"),
        );
        if (own.length === 0 || own.some((source) => mirrored(source) === file)) return [];
        return [
          `${relative(tests, file)} tests ${own.map(name).join(", ")}: move it to ${relative(tests, mirrored(own[0]!))}`,
        ];
      });
    expect(misplaced).toEqual([]);
  });
});
