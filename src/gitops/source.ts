/**
 * What the two readers of a YAML file share (`read-plain.ts` for plain files,
 * `read-document.ts` for any other): positions, the limits on what is read,
 * and the compact record of where each value came from ("spots").
 */

export interface Position {
  file: string;
  line: number;
  column: number;
}

/** A path into a file's data: map keys and sequence indices. */
export type YamlPath = readonly (string | number)[];

/** Where each node of a file came from: the value's position and, for map members, the key's. */
export interface SourceMap {
  value(path: YamlPath): Position | undefined;
  key(path: YamlPath): Position | undefined;
  /** Whether the file has a node at this path. */
  has(path: YamlPath): boolean;
}

export interface ParsedFile {
  file: string;
  /** Maps are `userMap`s: every key, `__proto__` included, is an own, ordinary member. */
  data: unknown;
  positions: SourceMap;
}

export interface FileProblem {
  at: Position;
  /** Where in the file's data, when the problem is in a node (a duplicate key). */
  path?: YamlPath;
  message: string;
}

/** How many more values the files still to be read may hold (limits.values for a whole configuration). */
export interface ValueBudget {
  remaining: number;
}

/** What vigil reads at most; each limit is refused with an error that names it (docs/gitops.md, "Limits"). */
export const limits = {
  /** Bytes of one file. */
  fileBytes: 8 * 2 ** 20,
  /** Bytes of all the files of a configuration. */
  configBytes: 32 * 2 ** 20,
  /** Files in a configuration. */
  files: 10_000,
  /** Directories walked to find them (a path given as `/` is walked, but not through the whole disk). */
  directories: 10_000,
  /** Levels of maps and lists inside one another (a monitor's header value is at level 7, the root being 1). */
  depth: 64,
  /** Values (maps, lists and scalars) in a configuration, counting every use of an alias in full. */
  values: 4_000_000,
} as const;

/** A size for a message: `8 MiB`, `3.5 MiB`, `900 KiB`. */
export function formatBytes(bytes: number): string {
  if (bytes >= 2 ** 20) return `${Number((bytes / 2 ** 20).toFixed(1))} MiB`;
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KiB`;
  return `${bytes} bytes`;
}

/**
 * User text inside a message: quoted, shortened, and with every control,
 * format (bidirectional overrides) or unassigned character escaped, so a
 * hostile key or value can neither flood nor rewrite the terminal.
 */
export function quote(text: string, max = 60): string {
  const chars = [...text];
  const shown = chars.length > max ? chars.slice(0, max).join("") : text;
  const escaped = shown.replace(/[\p{C}\p{Zl}\p{Zp}"\\]/gu, (c) => {
    if (c === '"' || c === "\\") return `\\${c}`;
    const named: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };
    const code = c.codePointAt(0)!;
    return named[c] ?? (code < 0x100 ? `\\x${hex(code)}` : `\\u{${code.toString(16)}}`);
  });
  return `"${escaped}${chars.length > max ? "…" : ""}"`;
}

/**
 * The prototype of every map read from a file: empty, frozen, and itself
 * without one, so that a key such as `__proto__`, `constructor` or
 * `toString` is an own, ordinary member and nothing is inherited. Unlike
 * `Object.create(null)`, which V8 keeps as a hash table, objects made from it
 * keep V8's fast layout: a large configuration takes half the memory and
 * loads much faster (bench/loader.ts).
 */
const userMapPrototype: object = Object.freeze(Object.create(null));

/** A new map for user keys (see userMapPrototype). */
export const userMap = <T = unknown>(): Record<string, T> => Object.create(userMapPrototype);

export const hex = (n: number) => n.toString(16).padStart(2, "0");

/**
 * Where a node is: an offset into the file's text for a scalar; for a map or
 * a list, its own offset and its members'. An alias's spot shares its target's.
 */
export type Spot = number | MapSpot | SeqSpot;
/** Parallel arrays rather than maps: a file has as many of these as it has maps, and most are small. */
export interface MapSpot {
  at: number;
  names: string[];
  keyAt: number[];
  members: Spot[];
  /** Name → position in the arrays, for a map too large to search. */
  index?: Map<string, number>;
}
export interface SeqSpot {
  at: number;
  items: Spot[];
}

/** A map's spot with room for `size` members (arrays grown one member at a time would each hold room for 17). */
export function mapSpot(at: number, size: number): MapSpot {
  const spot: MapSpot = { at, names: new Array(size), keyAt: new Array(size), members: new Array(size) };
  if (size > 8) spot.index = new Map();
  return spot;
}

/** The position of a member in the arrays, or -1; `count`: how many members are set so far, while converting. */
export const memberOf = (spot: MapSpot, name: string, count = spot.names.length) => {
  if (spot.index) return spot.index.get(name) ?? -1;
  const at = spot.names.indexOf(name);
  return at < count ? at : -1;
};

export const offsetOf = (spot: Spot) => (typeof spot === "number" ? spot : spot.at);

/** The source map of a file whose root value is at `root`; `at` turns an offset into a position. */
export function sourceMap(root: Spot, at: (offset: number) => Position): SourceMap {
  /** The deepest spot along a path, how many steps of it exist, and the last step's key when it is a member. */
  const find = (path: YamlPath): { spot: Spot; found: number; keyAt?: number } => {
    let spot = root;
    let keyAt: number | undefined;
    for (let i = 0; i < path.length; i++) {
      const step = path[i]!;
      let next: Spot | undefined;
      keyAt = undefined;
      if (typeof spot !== "number" && "members" in spot) {
        const n = memberOf(spot, String(step));
        if (n >= 0) [next, keyAt] = [spot.members[n], spot.keyAt[n]];
      } else if (typeof spot !== "number" && typeof step === "number") next = spot.items[step];
      if (next === undefined) return { spot, found: i };
      spot = next;
    }
    return { spot, found: path.length, ...(keyAt !== undefined && { keyAt }) };
  };
  return {
    value: (path) => at(offsetOf(find(path).spot)),
    has: (path) => find(path).found === path.length,
    key: (path) => {
      const found = find(path);
      return at(found.keyAt ?? offsetOf(found.spot));
    },
  };
}
