/**
 * The values a run must never show, and the one function that takes them out of text. Plans and the state
 * mask secrets where they sit (`diff.ts`); a message is free text, made by whoever refused (the loader, a
 * rule, the service echoing a member, a bulk job's item, a host's own error), so there the secrets are found
 * by value. Engine entry points redact what they answer, and each frontend redacts at its output boundary
 * (the CLI's streams, Terraform's diagnostics, Pulumi's errors), so a message path added later passes
 * through one or the other without knowing it.
 */
import { isMaskedCredential } from "../kinds/index.ts";
import { engineKind } from "./kinds/index.ts";
import type { DesiredResource } from "./model.ts";
import { getAt, isObject } from "./pointer.ts";

/** What a secret shows in place, as in plans. */
const mask = "(sensitive)";
/** A mask already in a text (a plan's own), left as it is so that redacting twice changes nothing. */
const masks = /^\(sensitive(?:, differs)?\)$/;
/**
 * Values shorter than this are searched for only as a whole JSON string (`got "ab"`): as a bare substring
 * they would mask line numbers and words (a `1` anywhere). Values this long are searched anywhere.
 */
const minSearchedLength = 4;
/**
 * A value spelled as a JSON number or literal (`3600`, `true`) is searched for only as a whole JSON string
 * too, whatever its length: bare, it would turn a number of a `--json` document into a mask, which is no
 * JSON. Such a value from the environment is a string, and documents and messages quote strings.
 */
const jsonLiteral = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)$/;
const searchedAnywhere = (form: string) => form.length >= minSearchedLength && !jsonLiteral.test(form);
/** How deep `redactValue` and `redactError` walk: messages and problem documents are shallow. */
const maxDepth = 32;
const truncation = "…";
/** The members of an error that say something, rather than carry data. */
const errorWords = new Set([
  "message",
  "detail",
  "title",
  "problem",
  "errors",
  "problems",
  "diagnostics",
  "warnings",
]);
/**
 * Members that say where a message belongs (an address, a pointer, a file position) or what kind of
 * problem it is (a code, a reason, a severity): never what was written there.
 */
const kept = new Set(["address", "pointer", "path", "at", "source", "code", "reason", "severity"]);

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");

export class SecretValues {
  readonly #values = new Set<string>();
  /** Texts that say where (a config file's name): shown as they are, a secret's text inside or not. */
  readonly #kept = new Set<string>();
  /** Every written form of every value (as is, JSON-escaped, URL-encoded), longest first; rebuilt on change. */
  #forms: string[] | undefined;
  #pattern: RegExp | undefined;

  constructor(values: Iterable<unknown> = []) {
    for (const value of values) this.add(value);
  }

  /**
   * Adds a value: a string, or every string and number inside an array or object. Empty strings say
   * nothing, nor does a credential read back masked (`{set: true, updatedAt}`).
   */
  add(value: unknown, depth = 0): this {
    if (isMaskedCredential(value)) return this;
    if (typeof value === "string") {
      if (value !== "" && !masks.test(value) && !this.#values.has(value)) {
        this.#values.add(value);
        this.#forms = undefined;
        this.#pattern = undefined;
        this.#heads = undefined;
      }
    } else if (typeof value === "number" && Number.isFinite(value)) this.add(String(value), depth);
    else if (depth < maxDepth && Array.isArray(value)) for (const item of value) this.add(item, depth + 1);
    else if (depth < maxDepth && isObject(value))
      for (const item of Object.values(value)) this.add(item, depth + 1);
    return this;
  }

  addAll(other: SecretValues | undefined): this {
    if (!other) return this;
    for (const value of other.#values) this.add(value);
    for (const text of other.#kept) this.keep(text);
    return this;
  }

  /**
   * Keeps a text that says where something is (a config file's name) as it is, even where a secret occurs
   * in it: `monitors/platform.yaml` stays itself when a secret is `platform`. Such a text is the repository's
   * own, as `redactValue` keeps the members that say where (`kept`).
   */
  keep(text: string): this {
    if (text !== "" && !this.#kept.has(text)) {
      this.#kept.add(text);
      this.#pattern = undefined;
    }
    return this;
  }

  get size(): number {
    return this.#values.size;
  }

  /** `text` with every secret replaced by `(sensitive)`, matched case-insensitively, cut echoes included. */
  redact(text: string): string {
    if (this.#values.size === 0 || text === "") return text;
    if (this.#values.has(text)) return mask;
    const pattern = this.#compiled();
    // A value searched for as a whole string keeps its quotes: a JSON document stays one.
    let out = text.replace(pattern, (found) =>
      masks.test(found) || this.#keptHere.has(asciiLower(found))
        ? found
        : found.length > 1 && found.startsWith('"') && found.endsWith('"')
          ? `"${mask}"`
          : mask,
    );
    if (out.includes(truncation)) out = this.#redactCutEchoes(out);
    return out;
  }

  /**
   * A copy of a JSON-like value with every string redacted. Keys are kept, and so are the members that say
   * where and what (`kept`): a message must still find its place, and callers decide on its code.
   */
  redactValue<T>(value: T, depth = 0): T {
    if (this.#values.size === 0) return value;
    if (typeof value === "string") return this.redact(value) as T;
    if (typeof value === "number" && Number.isFinite(value))
      return (this.#values.has(String(value)) ? mask : value) as T;
    if (depth >= maxDepth) return value;
    if (Array.isArray(value)) return value.map((item) => this.redactValue(item, depth + 1)) as T;
    if (isObject(value)) {
      const out: Record<string, unknown> = {};
      // defineProperty: a member named `__proto__` stays a member.
      for (const [k, v] of Object.entries(value))
        Object.defineProperty(out, k, {
          value: kept.has(k) ? v : this.redactValue(v, depth + 1),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      return out as T;
    }
    return value;
  }

  /**
   * Redacts an error in place, so it keeps its class (callers branch on it): its message and stack, the
   * members that say something (a problem document, its `errors[]`, diagnostics: `errorWords`), and its
   * cause. Members that carry data (a partial create's state and properties) are left as they are: a mask
   * there would be saved as the value.
   */
  redactError<E>(error: E, depth = 0): E {
    if (this.#values.size === 0 || typeof error !== "object" || error === null || depth >= maxDepth)
      return error;
    const record = error as Record<string, unknown>;
    // V8 keeps `stack` (which repeats the message) behind an accessor of the error's own.
    if (typeof record.stack === "string") record.stack = this.redact(record.stack);
    for (const name of Object.getOwnPropertyNames(error)) {
      const descriptor = Object.getOwnPropertyDescriptor(error, name);
      if (!descriptor || !("value" in descriptor) || !descriptor.writable) continue;
      const value = descriptor.value as unknown;
      if (name === "cause") this.redactError(value, depth + 1);
      // An AggregateError's `errors` are errors: each is redacted as one.
      else if (Array.isArray(value) && value.some((v) => v instanceof Error))
        for (const inner of value) this.redactError(inner, depth + 1);
      else if (errorWords.has(name)) record[name] = this.redactValue(value, depth + 1);
    }
    return error;
  }

  #compiled(): RegExp {
    if (this.#pattern) return this.#pattern;
    const secrets = this.#allForms().map((form) => (searchedAnywhere(form) ? form : JSON.stringify(form)));
    // Only the kept texts a secret occurs in need matching.
    const inKept = new RegExp(secrets.map(escapeRegExp).join("|"), "i");
    const kept = [...this.#kept].filter((text) => inKept.test(text));
    this.#keptHere = new Set(kept.map(asciiLower));
    // Longest first, kept texts and secrets alike: at one place the longer wins, so a secret that merely
    // starts with a kept text is still masked whole. The masks first: a mask in the text is matched as itself.
    const alternatives = [...kept, ...secrets].sort((x, y) => y.length - x.length).map(escapeRegExp);
    this.#pattern = new RegExp(`\\(sensitive(?:, differs)?\\)|${alternatives.join("|")}`, "gi");
    return this.#pattern;
  }

  /** The kept texts `#compiled` matches, in lower case: found in a text, each is left as it is. */
  #keptHere = new Set<string>();

  #allForms(): string[] {
    if (this.#forms) return this.#forms;
    const forms = new Set<string>();
    for (const value of this.#values) {
      forms.add(value);
      // As a JSON document or a URL carries it.
      forms.add(JSON.stringify(value).slice(1, -1));
      forms.add(encodeURIComponent(value));
    }
    this.#forms = [...forms].sort((a, b) => b.length - a.length);
    return this.#forms;
  }

  /**
   * Echoes cut short (`got "https://x.test/?token=TOPSE…"`: problem documents and their texts bound long
   * strings): the head of a secret, at least `minSearchedLength` long, right before an ellipsis.
   */
  #redactCutEchoes(text: string): string {
    const heads = this.#headIndex();
    let out = text;
    let at = out.indexOf(truncation);
    while (at !== -1) {
      // The longest tail before the ellipsis that begins some form: tried from the left, so the first is it.
      const from = Math.max(0, at - heads.longest);
      const before = asciiLower(out.slice(from, at));
      let longest = 0;
      for (let j = 0; j <= before.length - minSearchedLength && longest === 0; j++) {
        const tail = before.slice(j);
        const candidates = heads.byHead.get(tail.slice(0, minSearchedLength)) ?? [];
        if (candidates.some((form) => form.length > tail.length && form.startsWith(tail)))
          longest = tail.length;
      }
      if (longest > 0) {
        out = `${out.slice(0, at - longest)}${mask}${out.slice(at + truncation.length)}`;
        at = out.indexOf(truncation, at - longest + mask.length);
      } else at = out.indexOf(truncation, at + truncation.length);
    }
    return out;
  }

  #heads: { byHead: Map<string, string[]>; longest: number } | undefined;

  /** The searched forms in lower case by their first characters, for `#redactCutEchoes`. */
  #headIndex() {
    if (this.#heads) return this.#heads;
    const byHead = new Map<string, string[]>();
    let longest = 0;
    for (const form of this.#allForms()) {
      if (form.length <= minSearchedLength || !searchedAnywhere(form)) continue;
      const lower = asciiLower(form);
      const head = lower.slice(0, minSearchedLength);
      byHead.set(head, [...(byHead.get(head) ?? []), lower]);
      longest = Math.max(longest, form.length);
    }
    this.#heads = { byHead, longest };
    return this.#heads;
  }
}

/** ASCII letters in lower case, every other character kept: positions stay where they were. */
const asciiLower = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());

/**
 * The secrets of desired resources: every member marked sensitive (a value from the environment), and every
 * credential (`writeOnly` member) but one written in a configuration file whose text the configuration also
 * writes openly, alone or inside another value (`X-Team: platform` beside a tag `platform`). Such a value is
 * the file's, and still masked where it sits (plans, the state, exports); searched for by value, it would
 * mask every open use of its text instead: tags, names. Only resources read from a file (with a `source`)
 * are known to write their other members literally: a provider's (Terraform, Pulumi) may hold a sensitive
 * variable anywhere, so their credentials are always searched for.
 */
export function secretValuesOf(
  resources: readonly DesiredResource[],
  into = new SecretValues(),
): SecretValues {
  const written: string[] = [];
  const hidden = new Map<DesiredResource, Set<string>>();
  for (const r of resources) {
    const sensitive = r.sensitive ?? [];
    const credentials = engineKind(r.kind).credentials(r.members);
    for (const p of sensitive) into.add(getAt(r.members, p));
    const literal = r.source !== undefined;
    if (literal) hidden.set(r, new Set([...sensitive, ...credentials]));
    for (const p of credentials) {
      const value = getAt(r.members, p);
      if (literal && typeof value === "string" && !sensitive.includes(p)) written.push(value);
      else into.add(value);
    }
  }
  if (written.length === 0) return into;
  const open: string[] = [];
  for (const [r, secret] of hidden) {
    // An address may hold a value from the environment (an alert keyed by a contact named so).
    if (!r.sensitive?.length) open.push(r.address);
    collectOpen(r.members, "", secret, open, 0);
  }
  const openly = openlyWritten(written, open);
  for (const value of written) if (!openly.has(asciiLower(value))) into.add(value);
  return into;
}

/**
 * Which of `values` (in lower case) occur in `texts`, in any case: equal to one, or, for values searched
 * anywhere, inside one. One scan of the texts for all the values; a value hidden by a longer one at the same
 * place stays unfound, which keeps it searched for: the safe side.
 */
function openlyWritten(values: readonly string[], texts: readonly string[]): Set<string> {
  const whole = new Set(texts.map(asciiLower));
  const found = new Set(values.map(asciiLower).filter((v) => whole.has(v)));
  const inside = [...new Set(values.filter(searchedAnywhere).map(asciiLower))]
    .filter((v) => !found.has(v))
    .sort((a, b) => b.length - a.length);
  if (inside.length === 0) return found;
  const pattern = new RegExp(inside.map(escapeRegExp).join("|"), "gi");
  for (const text of texts) for (const match of text.matchAll(pattern)) found.add(asciiLower(match[0]));
  return found;
}

function collectOpen(value: unknown, at: string, hidden: ReadonlySet<string>, into: string[], depth: number) {
  if (hidden.has(at) || depth >= maxDepth) return;
  if (typeof value === "string") into.push(value);
  else if (typeof value === "number" && Number.isFinite(value)) into.push(String(value));
  else if (Array.isArray(value))
    for (const [i, item] of value.entries()) collectOpen(item, `${at}/${i}`, hidden, into, depth + 1);
  else if (isObject(value))
    for (const [k, item] of Object.entries(value))
      collectOpen(item, `${at}/${k.replaceAll("~", "~0").replaceAll("/", "~1")}`, hidden, into, depth + 1);
}

/** Diagnostics with every secret taken out of their words and facts; where they are stays as it is. */
export function redactDiagnostics<D extends object>(diagnostics: D[], secrets: SecretValues): D[] {
  return secrets.size === 0 ? diagnostics : diagnostics.map((d) => secrets.redactValue(d));
}
