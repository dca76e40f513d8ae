/**
 * A plan in the config's own terms, for people reading it next to their YAML:
 * reference members by their config names (`contact`, `scope.monitors`), their
 * values as logical names instead of ids, timestamps in ISO 8601. The plan
 * JSON keeps the API's terms; this is for the human and Markdown plans only.
 */
import type { Change, KindName, Plan, PlannedAction } from "../engine/model.ts";
import { isObject, pointer, tokensOf } from "../engine/pointer.ts";
import { formatIsoTime, isTimestampAt, referenceAt } from "./format.ts";

type Path = (string | number)[];

/** The logical name of an address's last segment: `contacts.oncall` → `oncall`. */
const nameOf = (address: string) => address.slice(address.lastIndexOf(".") + 1);

export function planInConfigTerms(plan: Plan): Plan {
  // Every object of the config the plan saw, by id: what a reference's id stands for.
  const names = new Map<string, string>();
  for (const a of plan.actions) if (a.id) names.set(a.id, nameOf(a.address));
  const notes = plan.notes?.map((n) => {
    // A note is a change nobody will make: the same renaming, references and times apply.
    const c = changeInConfigTerms(
      n.kind,
      { op: "replace", path: n.path, value: n.live, before: n.default },
      names,
    );
    return { ...n, path: c.path, live: c.value, default: c.before };
  });
  return {
    ...plan,
    actions: plan.actions.map((a) => actionInConfigTerms(a, names)),
    ...(notes && { notes }),
  };
}

function actionInConfigTerms(action: PlannedAction, names: ReadonlyMap<string, string>): PlannedAction {
  return { ...action, changes: action.changes.map((c) => changeInConfigTerms(action.kind, c, names)) };
}

function changeInConfigTerms(kind: KindName, change: Change, names: ReadonlyMap<string, string>): Change {
  const tokens: Path = tokensOf(change.path).map((t) => (/^\d+$/.test(t) ? Number(t) : t));
  const renamed: Path = [];
  let reference = false;
  let timestamp = false;
  tokens.forEach((token, i) => {
    const parent = tokens.slice(0, i);
    const ref = typeof token === "string" ? referenceAt(kind, parent, token, "api") : undefined;
    renamed.push(ref ? ref.yamlName : token);
    if (i === tokens.length - 1) {
      reference = ref !== undefined;
      timestamp = typeof token === "string" && isTimestampAt(kind, parent, token);
    }
  });
  // Credentials are never rewritten: their values are masks.
  if (change.sensitive) return { ...change, path: pointer(renamed.map(String)) };
  const convert = (value: unknown) =>
    reference ? referenceNames(value, names) : timestamp ? isoTime(value) : inner(kind, tokens, value, names);
  return {
    ...change,
    path: pointer(renamed.map(String)),
    ...("value" in change && { value: convert(change.value) }),
    ...("before" in change && { before: convert(change.before) }),
  };
}

/** Members inside a changed value: the same renaming, one level at a time. */
function inner(kind: KindName, at: Path, value: unknown, names: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(value)) return value.map((item, i) => inner(kind, [...at, i], item, names));
  if (!isObject(value) || "$unknown" in value) return value;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    const ref = referenceAt(kind, at, key, "api");
    if (ref) out[ref.yamlName] = referenceNames(member, names);
    else if (isTimestampAt(kind, at, key)) out[key] = isoTime(member);
    else out[key] = inner(kind, [...at, key], member, names);
  }
  return out;
}

/** Ids as the names of the config's objects; a reference not created yet by its target's name. */
function referenceNames(value: unknown, names: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(value)) return value.map((v) => referenceNames(v, names));
  if (isObject(value) && typeof value.$unknown === "string") return nameOf(value.$unknown);
  return typeof value === "string" ? (names.get(value) ?? value) : value;
}

/** Members with every timestamp in ISO 8601 and nothing else changed (`state show` keeps the API's names). */
export function timesAsIso(kind: KindName, value: unknown, at: Path = []): unknown {
  if (Array.isArray(value)) return value.map((item, i) => timesAsIso(kind, item, [...at, i]));
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  // defineProperty: a member named `__proto__` stays a member.
  for (const [key, member] of Object.entries(value))
    Object.defineProperty(out, key, {
      value: isTimestampAt(kind, at, key) ? isoTime(member) : timesAsIso(kind, member, [...at, key]),
      enumerable: true,
      writable: true,
    });
  return out;
}

function isoTime(value: unknown): unknown {
  return typeof value === "number" ? formatIsoTime(value) : value;
}
