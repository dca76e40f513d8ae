/**
 * The names an export gives objects: from each object's own name (or natural key), made valid and unique, the
 * same from one export of the same account to the next. Formats spell these names their own way
 * (`spellUniquely`), and stay unique when the spelling merges two.
 */

/** A name in the export graph: lower-case letters, digits, `-` and `_`, starting with a letter or digit. */
export const exportNamePattern = /^[a-z0-9][a-z0-9_-]*$/;

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** An object to name: its id, its creation time (older objects keep the plain name) and what names it. */
export interface NameCandidate<T> {
  item: T;
  id: string;
  created: number;
  /** The text the name comes from: the object's name, or its natural key. */
  source: string;
}

/**
 * Names for a set of objects sharing one namespace: the name an earlier adoption gave an object (`known`, by
 * id) when it is valid and free; for the others the slug of their source (`fallback` when that is empty),
 * made unique with -2, -3...: in the order of slug, then creation, then id, so the same account always gets
 * the same names, and no suffixed name takes another object's own name or a kept one.
 */
export function assignNames<T>(
  candidates: readonly NameCandidate<T>[],
  fallback: string,
  known?: ReadonlyMap<string, string>,
): Map<T, string> {
  const out = new Map<T, string>();
  const given = new Set<string>();
  const unnamed: NameCandidate<T>[] = [];
  // Kept names first, in id order, so two objects claiming one name settle the same way every time.
  for (const c of [...candidates].sort((a, b) => compare(a.id, b.id))) {
    const name = known?.get(c.id);
    if (name !== undefined && exportNamePattern.test(name) && !given.has(name)) {
      given.add(name);
      out.set(c.item, name);
    } else unnamed.push(c);
  }
  const bases = unnamed
    .map((c) => ({ c, base: slugify(hostOf(c.source)) || fallback }))
    .sort((a, b) => compare(a.base, b.base) || a.c.created - b.c.created || compare(a.c.id, b.c.id));
  const baseNames = new Set(bases.map((b) => b.base));
  for (const { c, base } of bases) {
    let name = base;
    // A suffixed name never takes another object's own name (an object really called `checkout-2`).
    for (let n = 2; given.has(name) || (name !== base && baseNames.has(name)); n++) name = `${base}-${n}`;
    given.add(name);
    out.set(c.item, name);
  }
  return out;
}

/** The host of a URL or a `host[:port]` address; any other value (an email, a phone number) as it is. */
function hostOf(value: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return URL.canParse(value) ? new URL(value).hostname : value;
  const hostPort = /^([^\s@/:]+\.[^\s@/:]+)(:\d+)?$/.exec(value);
  return hostPort ? hostPort[1]! : value;
}

/** `Checkout API (EU)` → `checkout-api-eu`: at most 60 characters, or empty when nothing is left. */
export function slugify(text: string): string {
  const slug = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+/, "")
    .slice(0, 60)
    .replace(/-+$/, "");
  return exportNamePattern.test(slug) ? slug : "";
}

/**
 * Each item's name spelled by a format (`spell`), unique among them: where two spellings meet (`a-b` and `a_b`
 * both spelled `a_b`), the later item in the given order gets `<spelling><sep>2`, `<sep>3`... The items' order
 * is the graph's, so the result is the same every time.
 */
export function spellUniquely<T>(
  items: readonly T[],
  spell: (item: T) => string,
  separator: string,
): Map<T, string> {
  const spelled = items.map((item) => [item, spell(item)] as const);
  const wanted = new Set(spelled.map(([, s]) => s));
  const taken = new Set<string>();
  const out = new Map<T, string>();
  for (const [item, base] of spelled) {
    let name = base;
    for (let n = 2; taken.has(name) || (name !== base && wanted.has(name)); n++)
      name = `${base}${separator}${n}`;
    taken.add(name);
    out.set(item, name);
  }
  return out;
}
