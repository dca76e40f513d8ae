/**
 * Wall-clock time in an IANA time zone, with Intl (Node 22 has no Temporal): what a weekly maintenance
 * window keeps across a daylight-saving change. Times are Unix seconds; a "wall time" is the zone's local
 * date and time written as if it were UTC (Unix seconds of the same calendar reading).
 */

const zoneNames = new Map<string, boolean>();

/**
 * The zone name as given when Intl knows it, else undefined (offsets such as +01:00 are not zones). Kept as
 * given: Intl's own spelling can be a retired alias (Asia/Kolkata resolves to Asia/Calcutta).
 */
export function knownZone(name: string): string | undefined {
  let known = zoneNames.get(name);
  if (known === undefined) {
    known = !/^[+-]/.test(name) && isIntlZone(name);
    if (zoneNames.size < 1000) zoneNames.set(name, known);
  }
  return known ? name : undefined;
}

function isIntlZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** Zones whose offset is always 0: no Intl call needed. */
const fixedUtc = new Set(["UTC", "Etc/UTC", "Etc/GMT", "GMT", "Etc/Universal", "Etc/Zulu", "UCT", "Zulu"]);

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(zone, f);
  }
  return f;
}

/** The zone's wall time at instant `t`. */
export function wallTimeAt(zone: string, t: number): number {
  if (fixedUtc.has(zone)) return t;
  const parts: Record<string, number> = {};
  for (const p of formatterOf(zone).formatToParts(t * 1000))
    if (p.type !== "literal") parts[p.type] = Number(p.value);
  const wall =
    Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!) / 1000;
  // Intl drops fractions of a second; the offset is whole seconds.
  return wall + (t - Math.floor(t));
}

const offsetAt = (zone: string, t: number) => wallTimeAt(zone, t) - t;

/** Bounded memo of `firstInstantAtOrAfter`: a matrix asks for the same few occurrences many times. */
const memo = new Map<string, number>();
const memoLimit = 10_000;

/**
 * The first instant at which the zone's clock shows `wall` or later. A time the clocks skip (spring
 * forward) gives the moment of the jump; a time they show twice (fall back) gives the first of the two.
 */
export function firstInstantAtOrAfter(zone: string, wall: number): number {
  if (fixedUtc.has(zone)) return wall;
  const key = `${zone} ${wall}`;
  const known = memo.get(key);
  if (known !== undefined) return known;
  // Offsets change at most once in two days around any instant of the zones Intl knows.
  const candidates = [offsetAt(zone, wall - 86400), offsetAt(zone, wall + 86400)]
    .map((offset) => wall - offset)
    .filter((t) => wallTimeAt(zone, t) === wall);
  let instant: number;
  if (candidates.length > 0) instant = Math.min(...candidates);
  else {
    // Skipped: the clocks jump over `wall` between these two instants; the jump is the first instant
    // whose wall time is past it.
    let low = wall - offsetAt(zone, wall + 86400);
    let high = wall - offsetAt(zone, wall - 86400);
    while (high - low > 1) {
      const mid = Math.floor((low + high) / 2);
      if (wallTimeAt(zone, mid) >= wall) high = mid;
      else low = mid;
    }
    instant = high;
  }
  if (memo.size >= memoLimit) memo.clear();
  memo.set(key, instant);
  return instant;
}
