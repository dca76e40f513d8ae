/**
 * Loads a GitOps repo's YAML files into the engine's desired state: merges the
 * files, resolves logical names into references, timestamps into Unix
 * seconds and `${env:NAME}` into values, then checks everything with the
 * engine's validation. Every problem comes back at once, each at
 * file:line:column with the member path in the config's own names.
 */
import type { DesiredResource } from "../engine/model.ts";
import { pointer, tokensOf } from "../engine/pointer.ts";
import { redactDiagnostics, SecretValues, secretValuesOf } from "../engine/secret-values.ts";
import { diagnosticCodes, validateDesired } from "../engine/validate.ts";
import { closest } from "../kinds/index.ts";
import { expandEnv } from "./env.ts";
import {
  type FoundFiles,
  findConfigFiles,
  formatBytes,
  limits,
  type Position,
  parseConfigFile,
  quote,
  type ValueBudget,
  type YamlPath,
} from "./files.ts";
import { fileKeys, formatVersion, sectionOf, topLevelKinds, topLevelSections } from "./format.ts";
import { describeEntry, narrowed, placeOf } from "./load-diagnostics.ts";
import {
  type Draft,
  describeValue,
  type FileSource,
  isData,
  type LoadDiagnostic,
  memberPath,
  type Problem,
  shownKey,
  shownName,
} from "./load-draft.ts";
import { type ImportEntry, markSecrets, nameProblem, readImports, readResource } from "./load-resources.ts";

export type { LoadDiagnostic } from "./load-draft.ts";

export interface LoadedConfig {
  resources: DesiredResource[];
  imports: { address: string; id: string }[];
  files: string[];
  diagnostics: LoadDiagnostic[];
  /**
   * What no output may show: the values `${env:...}` filled in (alone and as the strings they are part of)
   * and the resources' credentials. The loader's own diagnostics are redacted with them already.
   */
  secrets: SecretValues;
  /**
   * Where a member of a resource is written: an API pointer (`/locations/pools/0`) of `address` as
   * file:line:column and the config's member path, so the service's refusals point into the user's files.
   * The deepest written ancestor when the member itself is not written; undefined for an unknown address.
   */
  locate?: (address: string, apiPointer: string) => LoadDiagnostic | undefined;
}

export interface LoadOptions {
  /** Where `${env:NAME}` looks (process.env by default). */
  env?: Record<string, string | undefined>;
  /** Real paths of files that are not configuration (the test files `vigil test --tests` picked). */
  skipFiles?: ReadonlySet<string>;
}

export async function loadConfig(paths: readonly string[], options: LoadOptions = {}): Promise<LoadedConfig> {
  const found = await findConfigFiles(paths, { ...(options.skipFiles && { skip: options.skipFiles }) });
  const reading = newReading(options.env ?? process.env);
  for (const message of found.problems) reading.diagnostics.push({ message });
  if (found.files.length === 0 && found.problems.length === 0)
    reading.diagnostics.push({
      message: `no *.yaml or *.yml files under ${paths.join(", ")} (test files, *.test.yaml, are not configuration: vigil test reads them)`,
    });
  const total = found.files.reduce((sum, f) => sum + f.size, 0);
  if (total > limits.configBytes) {
    reading.diagnostics.push({
      message: `the configuration's ${found.files.length} files hold ${formatBytes(total)}; vigil reads at most ${formatBytes(limits.configBytes)} in all`,
    });
    found.files.length = 0;
  }
  for (const file of found.files) if ((await readConfigFile(reading, file)) === "stop") break;

  const { drafts, declared, unreadable, secrets } = reading;
  const byAddress = new Map(drafts.map((d) => [d.resource.address, d]));
  const diagnostics = [
    ...reading.diagnostics,
    ...referenceProblems(drafts, declared, unreadable),
    ...importProblems(reading.imports, byAddress, unreadable),
    ...engineProblems(drafts, byAddress),
  ].sort(byPosition);
  const resources = drafts.map((d) => d.resource);
  secretValuesOf(resources, secrets);
  // A file's name is the repository's own: it shows as it is, a secret's text in it or not. (Not an
  // address: one may hold a value from the environment, an alert keyed by a contact named so.)
  for (const file of reading.files) secrets.keep(file);
  return {
    resources,
    imports: reading.imports.map(({ address, id }) => ({ address, id })),
    files: reading.files,
    // Words made from values (`got "..."`, a name not declared) never carry a secret.
    diagnostics: redactDiagnostics(diagnostics, secrets),
    secrets,
    locate(address, apiPointer) {
      const draft = byAddress.get(address);
      if (!draft) return undefined;
      const { at, path } = placeOf(draft, apiPointer);
      return { ...(at && { at }), address, ...(path.length > 0 && { path: memberPath(path) }), message: "" };
    },
  };
}

/** What reading the files gathers, file by file. */
interface Reading {
  env: Record<string, string | undefined>;
  diagnostics: LoadDiagnostic[];
  drafts: Draft[];
  imports: ImportEntry[];
  /** section → name → where it was declared. */
  declared: Map<string, Map<string, Position | undefined>>;
  /** The files read. */
  files: string[];
  /** Files that could not be read: the names they declare are unknown, so references are not judged. */
  unreadable: number;
  budget: ValueBudget;
  secrets: SecretValues;
}

function newReading(env: Record<string, string | undefined>): Reading {
  return {
    env,
    diagnostics: [],
    drafts: [],
    imports: [],
    declared: new Map(topLevelSections.map((c) => [c, new Map()])),
    files: [],
    unreadable: 0,
    budget: { remaining: limits.values },
    secrets: new SecretValues(),
  };
}

/** Reads one file into the reading; `stop` when the configuration holds more values than vigil reads. */
async function readConfigFile(
  reading: Reading,
  { path, identity }: FoundFiles["files"][number],
): Promise<"stop" | undefined> {
  const { diagnostics } = reading;
  const { parsed, problems } = await parseConfigFile(path, reading.budget, identity);
  for (const p of problems) {
    const where = p.path ? whereIs(p.path) : {};
    // A file that could not be read is a problem of the file, whatever member it is at: commands that
    // only need the files' addresses (destroy with paths) stop on it too.
    if (parsed) diagnostics.push({ at: p.at, ...where, message: p.message });
    else diagnostics.push({ at: p.at, message: formatDiagnostic({ ...where, message: p.message }) });
  }
  if (!parsed) {
    reading.unreadable++;
    // The configuration already holds more values than vigil reads: the other files are not read.
    return reading.budget.remaining < 0 ? "stop" : undefined;
  }
  reading.files.push(parsed.file);
  const source: FileSource = { file: parsed.file, positions: parsed.positions };
  const problem: Problem = (at, message, extra = {}) =>
    diagnostics.push({ ...(at && { at }), ...extra, message });
  const expanded = expandEnv(parsed.data, reading.env);
  for (const value of expanded.values) reading.secrets.add(value);
  for (const e of expanded.problems) problem(parsed.positions.value(e.path), e.message, whereIs(e.path));
  const data = expanded.value;
  if (!isData(data)) {
    problem(
      parsed.positions.value([]),
      `a vigil file is a map from collections (${topLevelSections.join(", ")}) to resources, got ${describeValue(data)}`,
    );
    return undefined;
  }
  const file: FileInReading = { source, problem, secretsUnder: secretsByResource(expanded.secrets) };
  for (const [key, value] of Object.entries(data)) readTopLevel(reading, file, key, value);
  return undefined;
}

/** One file as its top-level keys are read. */
interface FileInReading {
  source: FileSource;
  problem: Problem;
  /** The paths of the secrets `${env:...}` filled in under a resource. */
  secretsUnder: (base: YamlPath) => YamlPath[];
}

/**
 * The secrets' paths by their first two steps (a resource's section and name), so that each
 * resource looks only at its own and a file of many secrets is not read once per resource.
 */
function secretsByResource(secrets: readonly YamlPath[]): (base: YamlPath) => YamlPath[] {
  const byResource = new Map<string, YamlPath[]>();
  for (const path of secrets) {
    if (path.length < 2) continue;
    const key = JSON.stringify(path.slice(0, 2));
    const list = byResource.get(key);
    if (list) list.push(path);
    else byResource.set(key, [path]);
  }
  return (base) => byResource.get(JSON.stringify(base.slice(0, 2))) ?? [];
}

/** A top-level key of a file: the format, the imports, or a section of resources. */
function readTopLevel(reading: Reading, file: FileInReading, key: string, value: unknown): void {
  const { positions } = file.source;
  const { problem } = file;
  if (key === "format") {
    if (value !== formatVersion)
      problem(
        positions.value([key]),
        `must be "${formatVersion}", the version this vigil reads; got ${describeValue(value)}`,
        { path: key },
      );
    return;
  }
  if (key === "imports") {
    readImports(value, file.source, reading.imports, problem);
    return;
  }
  const kind = topLevelKinds.find((k) => sectionOf(k) === key);
  if (!kind) {
    const known = [...topLevelSections, ...fileKeys];
    const hint = closest(key, known);
    problem(
      positions.key([key]),
      `unknown top-level key ${quote(key)}; allowed: ${known.join(", ")}${hint ? `; did you mean "${hint}"?` : ""}`,
    );
    return;
  }
  if (value === null) return;
  if (!isData(value)) {
    problem(
      positions.value([key]),
      `expected a map from names to ${key} (${key}: { <name>: { ... } }), got ${describeValue(value)}`,
      { path: key },
    );
    return;
  }
  for (const [name, members] of Object.entries(value))
    declareResource(reading, file, kind, key, name, members);
}

/** A resource of a section: its name must be valid and unique across all files. */
function declareResource(
  reading: Reading,
  file: FileInReading,
  kind: (typeof topLevelKinds)[number],
  key: string,
  name: string,
  members: unknown,
): void {
  const nameAt = file.source.positions.key([key, name]);
  const invalid = nameProblem(name);
  if (invalid) {
    file.problem(nameAt, invalid, { path: key });
    return;
  }
  const names = reading.declared.get(key)!;
  if (names.has(name)) {
    const first = names.get(name);
    file.problem(
      nameAt,
      `${key}.${name} is declared twice${first ? ` (first at ${first.file}:${first.line})` : ""}; names are unique per collection across all files`,
    );
    return;
  }
  names.set(name, nameAt);
  const read = readResource(kind, name, members, file.source, file.problem);
  for (const draft of read) markSecrets(draft, file.secretsUnder(draft.base));
  reading.drafts.push(...read);
}

/**
 * References, once every file is read: each must name a declared resource. A file that could not be read
 * may declare any name, so nothing is said about names then.
 */
export function referenceProblems(
  drafts: readonly Draft[],
  declared: ReadonlyMap<string, ReadonlyMap<string, unknown>>,
  unreadable: number,
): LoadDiagnostic[] {
  const diagnostics: LoadDiagnostic[] = [];
  for (const draft of drafts) {
    for (const ref of draft.refs) {
      const names = declared.get(ref.section)!;
      if (typeof ref.name === "string" && (names.has(ref.name) || unreadable > 0)) continue;
      const at = draft.file.positions.value([...draft.base, ...ref.path]);
      const base = { address: draft.resource.address, path: memberPath(ref.path), ...(at && { at }) };
      const existing = [...names.keys()];
      const declaredOnes =
        existing.length > 0
          ? `declared ${ref.section}: ${existing.join(", ")}`
          : `no ${ref.section} are declared`;
      if (typeof ref.name !== "string") {
        diagnostics.push({
          ...base,
          message: `expected the name of one of the ${ref.section}, got ${describeValue(ref.name)}; ${declaredOnes}`,
        });
        continue;
      }
      const hint = closest(ref.name, existing);
      diagnostics.push({
        ...base,
        message: `${ref.section}.${shownName(ref.name)} is not declared; ${declaredOnes}${hint ? `; did you mean "${hint}"?` : ""}`,
      });
    }
  }
  return diagnostics;
}

/** Each import must name a declared address (unless a file could not be read), once. */
export function importProblems(
  imports: readonly ImportEntry[],
  declared: ReadonlyMap<string, unknown>,
  unreadable: number,
): LoadDiagnostic[] {
  const diagnostics: LoadDiagnostic[] = [];
  const firstImport = new Map<string, Position | undefined>();
  for (const i of imports) {
    const where = { ...(i.at && { at: i.at }), path: i.path };
    if (!declared.has(i.address) && unreadable === 0) {
      const hint = closest(i.address, [...declared.keys()]);
      diagnostics.push({
        ...where,
        message: `${i.address} is not declared in the config; an import adopts an object as a resource the config declares${hint ? `; did you mean "${hint}"?` : ""}`,
      });
    }
    if (firstImport.has(i.address)) {
      const first = firstImport.get(i.address);
      diagnostics.push({
        ...where,
        message: `${i.address} is imported twice${first ? ` (first at ${first.file}:${first.line})` : ""}; import each address once`,
      });
    } else firstImport.set(i.address, i.at);
  }
  return diagnostics;
}

/** The engine's validation of the resources, at the config's places and in its words. */
function engineProblems(drafts: readonly Draft[], byAddress: ReadonlyMap<string, Draft>): LoadDiagnostic[] {
  const engineDiagnostics = validateDesired(drafts.map((d) => d.resource));
  // A misspelt member is reported as unknown with its correction, not also as missing.
  const corrected = new Set(
    engineDiagnostics.flatMap(({ address, code, data, pointer: at }) =>
      code === "unknown_member" && typeof data.didYouMean === "string"
        ? [`${address}${pointer([...tokensOf(at).slice(0, -1), data.didYouMean])}`]
        : [],
    ),
  );
  const diagnostics: LoadDiagnostic[] = [];
  for (const d of engineDiagnostics) {
    // The loader judged every reference itself, with the names the config uses.
    if (d.code === diagnosticCodes.unknownReference) continue;
    if (d.code === diagnosticCodes.required && corrected.has(`${d.address}${d.pointer}`)) continue;
    const draft = byAddress.get(d.address);
    if (!draft) continue;
    for (const { entry, message } of narrowed(draft, d.entry)) {
      const { at, path } = placeOf(draft, entry?.pointer ?? d.pointer, entry?.reason);
      if (draft.refused.some((r) => r.length <= path.length && r.every((t, i) => path[i] === t))) continue;
      diagnostics.push({
        ...(at && { at }),
        address: d.address,
        ...(path.length > 0 && { path: memberPath(path) }),
        // A predicted refusal says it in the API's words, code first.
        message: message ?? (entry && d.status === undefined ? describeEntry(draft, entry, path) : d.message),
      });
    }
  }
  return diagnostics;
}

function byPosition(a: LoadDiagnostic, b: LoadDiagnostic): number {
  const fa = a.at?.file ?? "";
  const fb = b.at?.file ?? "";
  if (fa !== fb) return fa < fb ? -1 : 1;
  return (a.at?.line ?? 0) - (b.at?.line ?? 0) || (a.at?.column ?? 0) - (b.at?.column ?? 0);
}

/** `file:line:column: address path: message`. */
export function formatDiagnostic(d: LoadDiagnostic): string {
  const where = d.at ? `${d.at.file}:${d.at.line}:${d.at.column}: ` : "";
  const what = [d.address, d.path].filter(Boolean).join(" ");
  return `${where}${what ? `${what}: ` : ""}${d.message}`;
}

/** The address and member path of a path into a file (`monitors.web`, `settings.password`). */
function whereIs(path: YamlPath): Partial<LoadDiagnostic> {
  const [section, name, ...rest] = path;
  if (typeof name !== "string" || !topLevelSections.includes(String(section))) return {};
  return { address: `${section}.${shownKey(name)}`, ...(rest.length > 0 && { path: memberPath(rest) }) };
}
