/**
 * Checks a desired state before anything is read or written: addresses,
 * references, and each resource's members against its kind's create body.
 * Every problem is reported at once, each with its address and JSON pointer.
 */
import type { z } from "zod";
import {
  bodySchema,
  credentialPatterns,
  discontinuedCode,
  issuesToEntries,
  type ProblemDetailEntry,
  type Refusal,
  statusOf,
  variantOf,
  variantRequires,
  variantRuleRefusals,
} from "../kinds/index.ts";
import {
  type EngineKind,
  engineKind,
  kindNestedAs,
  kindOfCollection,
  kindRank,
  nestedUnder,
} from "./kinds/index.ts";
import type { DesiredResource, SourceLocation } from "./model.ts";
import { isUnder, pointer, tokensOf, toPointer } from "./pointer.ts";
import { refsIn, resolveRefs } from "./refs.ts";
import { redactDiagnostics, secretValuesOf } from "./secret-values.ts";

export interface Diagnostic {
  address: string;
  /** JSON pointer into the resource's members (`""` for the resource itself). */
  pointer: string;
  /**
   * Why, as a stable code: frontends decide on it and on `data`, never on `message`. A member's problem
   * has its `errors[]` reason (`unknown_member`, `not_allowed`...), a predicted refusal the API's problem
   * code (`invalid_interval`, `validation_failed`), and the rest a code of the engine's (`diagnosticCodes`).
   */
  code: string;
  /** The facts the words state, by code: `member`, `target`, `value`, `allowed`, `reason`... */
  data: DiagnosticData;
  message: string;
  source?: SourceLocation;
  entry?: ProblemDetailEntry;
  /**
   * The status of `code` when it is the API's problem code: on a predicted refusal, and on a warning of
   * what the API does instead of what is written.
   */
  status?: number;
  /** The API accepts the write, but not as written. */
  severity?: "warning";
}

export type DiagnosticData = Readonly<Record<string, unknown>>;

/** The engine's own codes, for problems that are no member's `errors[]` entry nor an API refusal. */
export const diagnosticCodes = {
  /** Two resources have one address. */
  duplicateAddress: "duplicate_address",
  /** The address does not have its kind's form: `{kind, forms}`. */
  addressForm: "address_form",
  /** A reference to an address the config does not declare: `{target}`. */
  unknownReference: "unknown_reference",
  /** A reference to a kind the resource cannot depend on: `{target, targetKind}`. */
  referenceOrder: "reference_order",
  /** A member every create of the kind needs is missing: `{member}`. */
  required: "required",
  /** A member the object's variant needs is missing (a web monitor's `url`): `{member, variant}`. */
  requiredByVariant: "required_by_variant",
  /** A lifecycle option names no member path: `{option, path}`. */
  lifecyclePath: "lifecycle_path",
} as const;

/**
 * Codes about a configuration's addresses, references and lifecycle options, which a frontend that
 * checks one resource at a time by its own address and ids (Terraform, Pulumi) does not have.
 */
export const configurationCodes: ReadonlySet<string> = new Set([
  diagnosticCodes.duplicateAddress,
  diagnosticCodes.addressForm,
  diagnosticCodes.unknownReference,
  diagnosticCodes.referenceOrder,
  diagnosticCodes.lifecyclePath,
]);

export class ConfigError extends Error {
  readonly diagnostics: Diagnostic[];
  constructor(diagnostics: Diagnostic[]) {
    super(
      `The config has ${diagnostics.length} problem(s):\n${diagnostics
        .map((d) => `  ${d.address}${d.pointer}: ${d.message}`)
        .join("\n")}`,
    );
    this.name = "ConfigError";
    this.diagnostics = diagnostics;
  }
}

// References stand for ids; a syntactically valid id lets the members be checked before the target exists.
const placeholderId = "00000000-0000-4000-8000-000000000000";
const addressPattern = /^([a-zA-Z]+)\.([A-Za-z0-9][A-Za-z0-9_.-]{0,127})$/;
const namePart = "[A-Za-z0-9][A-Za-z0-9_-]{0,127}";
const nestedPattern = new RegExp(`^([a-zA-Z]+)\\.${namePart}\\.([a-zA-Z]+)\\.${namePart}$`);

/**
 * A configuration's objects are each parsed once: zod's compiled fast path for an object schema (code it
 * writes and compiles on the schema's first parse) costs more than it saves here, about a tenth of a
 * `vigil validate`. Long runs that parse many objects of one schema (reads of the account) keep it.
 */
const parsedOnce = { jitless: true } as const;

/** The kind an address names: `<collection>.<name>`, or a nested `<parent>.<name>.<member>.<name>`. */
function kindOfAddress(address: string): EngineKind | undefined {
  const nested = nestedPattern.exec(address);
  const kind = nested ? kindNestedAs(nested[1]!, nested[2]!) : undefined;
  if (kind) return kind;
  const match = addressPattern.exec(address);
  return match ? kindOfCollection(match[1]!) : undefined;
}

function entryMessage(entry: ProblemDetailEntry): string {
  const message = typeof entry.message === "string" ? entry.message : (entry.reason ?? "invalid");
  const parts = [message];
  // An enum's message already lists its values ("must be one of ..."): they are not said twice.
  const listed = entry.allowed?.every((a) => message.includes(JSON.stringify(a)));
  if (entry.allowed && entry.allowed.length > 0 && entry.reason !== "unknown_member" && !listed)
    parts.push(`allowed: ${entry.allowed.map((a) => JSON.stringify(a)).join(", ")}`);
  if (entry.reason === "unknown_member" && entry.allowed)
    parts.push(`allowed members: ${entry.allowed.join(", ")}`);
  if (entry.didYouMean) parts.push(`did you mean ${JSON.stringify(entry.didYouMean)}?`);
  return parts.join("; ");
}

export function validateDesired(resources: readonly DesiredResource[]): Diagnostic[] {
  const { diagnostics: out, byAddress } = addressProblems(resources);
  for (const r of resources)
    out.push(...referenceProblems(r, byAddress), ...memberProblems(r), ...lifecycleProblems(r));
  out.push(...duplicateKeys(resources));
  // The words were made from the members: none may carry a credential or a value from the environment.
  return redactDiagnostics(out, secretValuesOf(resources));
}

function diagnosticOf(
  r: DesiredResource,
  pointer: string,
  code: string,
  data: DiagnosticData,
  message: string,
  entry?: ProblemDetailEntry,
): Diagnostic {
  return {
    address: r.address,
    pointer,
    code,
    data,
    message,
    ...(r.source && { source: r.source }),
    ...(entry && { entry }),
  };
}

/** Each address once, in the form of its kind; and the resources by address, for the references. */
function addressProblems(resources: readonly DesiredResource[]): {
  diagnostics: Diagnostic[];
  byAddress: Map<string, DesiredResource>;
} {
  const diagnostics: Diagnostic[] = [];
  const byAddress = new Map<string, DesiredResource>();
  for (const r of resources) {
    if (byAddress.has(r.address))
      diagnostics.push(
        diagnosticOf(r, "", diagnosticCodes.duplicateAddress, {}, "the address is declared twice"),
      );
    byAddress.set(r.address, r);
    const expected = engineKind(r.kind);
    const forms = [`${expected.collection}.<name>`];
    const nesting = nestedUnder(expected);
    if (nesting) forms.push(`${nesting.parent}.<name>.${nesting.member}.<name>`);
    if (kindOfAddress(r.address)?.name !== r.kind)
      diagnostics.push(
        diagnosticOf(
          r,
          "",
          diagnosticCodes.addressForm,
          { kind: r.kind, forms },
          `a ${r.kind} address is ${forms.join(" or ")} (names: letters, digits, _ . -)`,
        ),
      );
  }
  return { diagnostics, byAddress };
}

/** Each reference names a declared resource of a kind this one depends on. */
function referenceProblems(
  r: DesiredResource,
  byAddress: ReadonlyMap<string, DesiredResource>,
): Diagnostic[] {
  return refsIn(r.members).flatMap((target) => {
    const other = byAddress.get(target);
    if (!other)
      return [
        diagnosticOf(
          r,
          "",
          diagnosticCodes.unknownReference,
          { target },
          `references ${target}, which the config does not declare`,
        ),
      ];
    if (kindRank(other.kind) >= kindRank(r.kind))
      return [
        diagnosticOf(
          r,
          "",
          diagnosticCodes.referenceOrder,
          { target, targetKind: other.kind },
          `references ${target}: a ${r.kind} can reference only kinds it depends on`,
        ),
      ];
    return [];
  });
}

/**
 * The members against the kind's create body: those a create needs, those the variant needs, the schema,
 * the cross-member rules on the sound rest, and the members written by a call of their own.
 */
function memberProblems(r: DesiredResource): Diagnostic[] {
  const out: Diagnostic[] = [];
  const kind = engineKind(r.kind);
  const members = resolveRefs(r.members, () => placeholderId) as Record<string, unknown>;
  const own = { ...members };
  for (const side of kind.sideMembers) delete own[side];
  const schema = bodySchema(kind.schemaFor(own), "create");
  // Members a create needs (the body schemas take them as optional, as an update does).
  for (const member of kind.definition.required ?? []) {
    if (members[member] !== undefined) continue;
    const message = `${member} is required`;
    const at = pointer([member]);
    out.push(
      diagnosticOf(r, at, diagnosticCodes.required, { member }, message, {
        pointer: at,
        reason: "required",
        message,
      }),
    );
  }
  const variant = variantOf(kind.definition, own);
  for (const member of variantRequires(kind.definition, own)) {
    if (members[member] !== undefined) continue;
    out.push(
      diagnosticOf(
        r,
        pointer([member]),
        diagnosticCodes.requiredByVariant,
        { member, variant },
        `${member} is required: ${String(variant)} ${kind.collection} need one`,
      ),
    );
  }
  const result = schema.safeParse(own, parsedOnce);
  if (!result.success) out.push(...issueDiagnostics(r, kind, result.error.issues, own, schema));
  // The cross-member rules the service applies: a config must be creatable, since a deleted object is
  // created again. They read the members as written, before any normalisation; with invalid members, the
  // rest (so that one run says every problem, not one wave per fix).
  const sound = result.success
    ? { members: own, removed: [] }
    : soundPart(own, result.error.issues, (m) => bodySchema(kind.schemaFor(m), "create"));
  if (sound) {
    const refusals = [
      ...(kind.definition.rules?.offline ?? []).flatMap((rule) => rule(sound.members)),
      ...variantRuleRefusals(kind.definition, sound.members),
    ];
    for (const refusal of refusals)
      if (!sound.removed.some((path) => causedBy(refusal, path))) out.push(refusalDiagnostic(r, refusal));
  }
  const side = Object.fromEntries(
    kind.sideMembers.filter((m) => members[m] !== undefined).map((m) => [m, members[m]]),
  );
  if (kind.sideBody && Object.keys(side).length > 0) {
    const parsed = kind.sideBody.partial().safeParse(side, parsedOnce);
    if (!parsed.success) out.push(...issueDiagnostics(r, kind, parsed.error.issues, side, kind.sideBody));
  }
  return out;
}

/** A schema's issues as diagnostics with the API's reasons; a credential's value never in them. */
function issueDiagnostics(
  r: DesiredResource,
  kind: EngineKind,
  issues: z.core.$ZodIssue[],
  input: unknown,
  s: z.ZodType,
): Diagnostic[] {
  const sensitive = r.sensitive ?? [];
  const discriminator = kind.definition.variants?.discriminator;
  return issuesToEntries(issues, input, s, []).map((entry) => {
    // A value the API once took is outside the vocabulary; say why rather than only that it is unknown.
    const discontinued =
      discriminator !== undefined && entry.pointer === pointer([discriminator])
        ? discontinuedCode(kind.definition, entry.value)
        : undefined;
    if (discontinued)
      entry.message = `${entry.value} ${kind.collection} can no longer be created (the API refuses them: ${discontinued}); ${entry.message}`;
    // A credential's value never goes into a message, whatever its type (a password written 12345).
    const at = entry.pointer ?? "";
    if (sensitive.some((c) => isUnder(at, c) || isUnder(c, at)) || mayHoldCredential(s, entry))
      delete entry.value;
    const { pointer: _pointer, reason = "invalid", message: _words, ...data } = entry;
    return diagnosticOf(r, at, reason, data, entryMessage(entry), entry);
  });
}

/** The lifecycle's paths are member paths. */
function lifecycleProblems(r: DesiredResource): Diagnostic[] {
  const options = {
    ignoreChanges: r.lifecycle?.ignoreChanges ?? [],
    replaceOnChanges: r.lifecycle?.replaceOnChanges ?? [],
  };
  return Object.entries(options).flatMap(([option, paths]) =>
    paths
      .filter((p) => typeof p !== "string" || p === "" || toPointer(p) === "/id")
      .map((p) =>
        diagnosticOf(
          r,
          "",
          diagnosticCodes.lifecyclePath,
          { option, path: p },
          `lifecycle.${option}: ${JSON.stringify(p)} is not a member path (e.g. settings.timeout)`,
        ),
      ),
  );
}

/**
 * The members the cross-member rules may read when some are invalid: `members` without each member a
 * schema issue is about (an array whole, since removing an element would move the others), checked again
 * until what is left is valid. The rules only ever see members their schema accepts. Undefined when the
 * object itself is invalid, or nothing valid is left within a few rounds.
 */
function soundPart(
  members: Record<string, unknown>,
  issues: readonly z.core.$ZodIssue[],
  schemaOf: (members: Record<string, unknown>) => z.ZodType,
): { members: Record<string, unknown>; removed: string[][] } | undefined {
  const sound = structuredClone(members);
  const removed: string[][] = [];
  let left = issues;
  for (let round = 0; round < 4; round++) {
    for (const issue of left) {
      const paths =
        issue.code === "unrecognized_keys" ? issue.keys.map((k) => [...issue.path, k]) : [issue.path];
      for (const path of paths) {
        const member = memberHolding(path);
        if (member.length === 0 || !removeMember(sound, member)) return undefined;
        removed.push(member);
      }
    }
    const again = schemaOf(sound).safeParse(sound, parsedOnce);
    if (again.success) return { members: sound, removed };
    left = again.error.issues;
  }
  return undefined;
}

/** The object member a path is in: up to its first array index (`settings.asserts` for `settings.asserts.0.target`). */
function memberHolding(path: readonly PropertyKey[]): string[] {
  const index = path.findIndex((token) => typeof token !== "string");
  return (index === -1 ? path : path.slice(0, index)).map(String);
}

function removeMember(value: Record<string, unknown>, path: readonly string[]): boolean {
  let at: unknown = value;
  for (const token of path.slice(0, -1)) {
    if (typeof at !== "object" || at === null || Array.isArray(at) || !Object.hasOwn(at, token)) return true;
    at = (at as Record<string, unknown>)[token];
  }
  if (typeof at !== "object" || at === null || Array.isArray(at)) return false;
  delete (at as Record<string, unknown>)[path.at(-1)!];
  return true;
}

/**
 * Whether a rule's refusal may come from a member removed as invalid rather than from the configuration:
 * it is about that member, under it or above it, or it finds a member missing beside it (`locations.pool`
 * misspelt, then removed, leaves `locations.pools` missing).
 */
function causedBy(refusal: Refusal, removed: readonly string[]): boolean {
  const at = tokensOf(refusal.pointer);
  if (related(removed, at)) return true;
  return (
    refusal.reason === "required" &&
    related(removed.slice(0, -1), at.slice(0, -1)) &&
    removed.length === at.length
  );
}

/** Whether one path is at or under the other. */
function related(a: readonly string[], b: readonly string[]): boolean {
  const shared = Math.min(a.length, b.length);
  for (let i = 0; i < shared; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Whether an entry's value is, or holds, a credential of the schema: it is at or under a credential's
 * member, or an object above one.
 */
function mayHoldCredential(schema: z.ZodType, entry: ProblemDetailEntry): boolean {
  const tokens = tokensOf(entry.pointer ?? "");
  const container = typeof entry.value === "object" && entry.value !== null;
  return credentialPatterns(schema).some((pattern) => {
    const shared = Math.min(pattern.length, tokens.length);
    for (let i = 0; i < shared; i++) if (pattern[i] !== "*" && pattern[i] !== tokens[i]) return false;
    return pattern.length <= tokens.length || container;
  });
}

/** Two resources of a kind the API keeps unique by natural key: the second would be refused (409). */
function duplicateKeys(resources: readonly DesiredResource[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  const first = new Map<string, DesiredResource>();
  for (const r of resources) {
    const kind = engineKind(r.kind);
    const code = kind.definition.rules?.duplicate;
    if (!code) continue;
    const key = kind.naturalKey(kind.normalizeDesired(r.members));
    if (key === undefined) continue;
    const earlier = first.get(`${r.kind} ${key}`);
    if (!earlier) {
      first.set(`${r.kind} ${key}`, r);
      continue;
    }
    const members = kind.definition.naturalKey;
    const where = earlier.source?.file ? ` (${earlier.source.file}:${earlier.source.line})` : "";
    out.push(
      refusalDiagnostic(r, {
        code,
        pointer: pointer([members.at(-1)!]),
        value: r.members[members.at(-1)!],
        message: `${earlier.address}${where} has the same ${members.join(" and ")}; the API keeps one ${r.kind} per ${members.join(" and ")}`,
      }),
    );
  }
  return out;
}

/** The diagnostic of a refusal, with the API's code and `errors[]` members in `entry`. */
export function refusalDiagnostic(resource: DesiredResource, refusal: Refusal): Diagnostic {
  const allowed = refusal.allowed && refusal.allowed.length > 0 ? refusal.allowed : undefined;
  const words = [refusal.message];
  if (refusal.feature) words.push(`plan feature ${refusal.feature}`);
  if (allowed)
    words.push(`allowed: ${allowed.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(", ")}`);
  const status = statusOf(refusal.code);
  const entry: ProblemDetailEntry = {
    pointer: refusal.pointer,
    ...(refusal.reason && { reason: refusal.reason }),
    ...(refusal.value !== undefined && { value: refusal.value }),
    ...(allowed && { allowed: [...allowed] }),
    ...(refusal.feature && { feature: refusal.feature }),
    ...(refusal.limit !== undefined && { limit: refusal.limit }),
    message: refusal.message,
  };
  const { pointer: _at, message: _words, ...data } = entry;
  return {
    address: resource.address,
    pointer: refusal.pointer,
    code: refusal.code,
    data,
    status,
    ...(refusal.warning && { severity: "warning" as const }),
    // A warning is no refusal: the API accepts the write, so no status or code is shown.
    message: refusal.warning ? words.join("; ") : `${status} ${refusal.code}: ${words.join("; ")}`,
    ...(resource.source && { source: resource.source }),
    entry,
  };
}

/** Throws a `ConfigError` listing every problem, or returns quietly. */
export function assertValidDesired(resources: readonly DesiredResource[]): void {
  const diagnostics = validateDesired(resources);
  if (diagnostics.length > 0) throw new ConfigError(diagnostics);
}
