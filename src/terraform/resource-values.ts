/**
 * How a resource's Terraform value relates to the engine's view of the object. Terraform holds values in the
 * config's form and insists that a planned value equals the config wherever the config sets one, so the state
 * keeps the configured form wherever the engine finds the live object the same, and takes the live value only
 * where it differs (drift), where the config sets nothing, and for what the service alone sets.
 */
import { traitsAt } from "../engine/canonical.ts";
import type { EngineKind, Members, Row } from "../engine/index.ts";
import { isObject, isUnder, pointer, tokensOf } from "../engine/pointer.ts";
import { isMaskedCredential } from "../kinds/index.ts";
import {
  type AttributePathStep,
  type CtyObject,
  type CtyType,
  type CtyValue,
  ctyToMember,
  fromMembers,
  isObjectValue,
  memberToCty,
  type ObjectType,
  objectValue,
  schemaAttributeType,
  Unknown,
  unknown,
} from "./cty.ts";
import { camelCase, snakeCase } from "./names.ts";
import type { Attribute, AttributePath } from "./schema.ts";

export type Attributes = Readonly<Record<string, Attribute>>;

/** Set only by the service: computed and not configurable. */
export const isReadOnly = (attribute: Attribute): boolean =>
  Boolean(attribute.computed && !attribute.optional && !attribute.required);

/**
 * The Terraform attribute path of a member pointer, as far as Terraform can address it: a set's elements have
 * no path of their own, so a pointer into a set stops at the set.
 */
export function stepsOf(path: string, type: CtyType): AttributePathStep[] {
  const steps: AttributePathStep[] = [];
  let current: CtyType | undefined = type;
  for (const token of tokensOf(path)) {
    if (current === undefined || typeof current === "string") break;
    if (current.kind === "object") {
      const name = snakeCase(token);
      steps.push({ attribute_name: name });
      current = current.attributes[name];
    } else if (current.kind === "list") {
      steps.push({ element_key_int: Number(token) });
      current = current.element;
    } else if (current.kind === "tuple") {
      steps.push({ element_key_int: Number(token) });
      current = current.elements[Number(token)];
    } else if (current.kind === "map") {
      steps.push({ element_key_string: token });
      current = current.element;
    } else break;
  }
  return steps;
}

/** The member pointer of a Terraform attribute path. */
export function pointerOf(steps: readonly AttributePathStep[]): string {
  return pointer(
    steps.map((step) =>
      "attribute_name" in step
        ? camelCase(step.attribute_name)
        : "element_key_string" in step
          ? step.element_key_string
          : String(step.element_key_int),
    ),
  );
}

/**
 * The live object as a value of the resource type: the members as the engine compares them (read-back shapes
 * undone), what the service alone sets, and null for credentials it reads back masked.
 */
export function liveValue(
  kind: EngineKind,
  type: ObjectType,
  attributes: Attributes,
  sensitive: readonly AttributePath[],
  row: Row,
): CtyObject {
  // A copy: the masked values are cleared in place, and the caller diffs the row itself afterwards (a read's
  // drift), where a cleared header value would look changed. normalizeLive shares nested objects with the row.
  const members: Members = structuredClone(kind.normalizeLive(row));
  for (const [name, attribute] of Object.entries(attributes)) {
    const member = camelCase(name);
    if (isReadOnly(attribute) && row[member] !== undefined) members[member] = row[member];
  }
  for (const path of sensitive)
    clearMasked(
      members,
      path.map((step) => (step === "*" ? step : camelCase(step))),
    );
  return fromMembers(members, type);
}

/** Removes the masked values at a sensitive attribute path (`*`: every item of a list). */
function clearMasked(value: unknown, path: readonly string[]): void {
  const [step, ...rest] = path;
  if (step === undefined) return;
  const children = step === "*" ? (Array.isArray(value) ? value.keys() : []) : isObject(value) ? [step] : [];
  for (const key of children) {
    const container = value as Record<string | number, unknown>;
    if (rest.length === 0) {
      if (isMaskedCredential(container[key])) container[key] = undefined;
    } else clearMasked(container[key], rest);
  }
}

/**
 * The state after a refresh. `drift` lists the pointers where the engine finds the live object different from
 * the state.
 */
export function refreshedValue(
  state: CtyValue,
  live: CtyValue,
  attributes: Attributes,
  drift: readonly string[],
  at = "",
): CtyObject {
  const prior = isObjectValue(state) ? state : {};
  const now = isObjectValue(live) ? live : {};
  return objectValue(
    Object.entries(attributes).map(([name, attribute]) => {
      const p = `${at}/${camelCase(name)}`;
      const s = prior[name] ?? null;
      const l = now[name] ?? null;
      if (isReadOnly(attribute)) return [name, l];
      // Unset: only what the service fills in is shown; an optional member the config leaves out stays unset.
      if (s === null) return [name, attribute.computed ? l : null];
      if (drift.some((d) => isUnder(p, d))) return [name, l];
      const nested = attribute.nested_type;
      if (nested?.nesting_mode === "single" && isObjectValue(s))
        return [name, refreshedValue(s, l, nested.attributes, drift, p)];
      return [name, drift.some((d) => isUnder(d, p)) ? l : s];
    }),
  );
}

/**
 * The proposed value with the prior value wherever the config leaves an optional+computed attribute unset, in
 * nested objects too. Terraform proposes the prior value there itself, except for a nested attribute whose
 * prior value holds a member that is not computed: that, it reasons, only the config can have set, so it
 * proposes null (objchange's optionalValueNotComputable). Here the service filled it in (a ping monitor's
 * `settings.attached`), and the engine's diff, which knows what the config set, decides what changes.
 */
export function keepUnsetComputed(
  proposed: CtyValue,
  prior: CtyValue,
  config: CtyValue,
  attributes: Attributes,
): CtyValue {
  if (!isObjectValue(proposed) || !isObjectValue(prior) || !isObjectValue(config)) return proposed;
  return objectValue(
    Object.entries(proposed).map(([name, value]) => {
      const attribute = attributes[name];
      const configured = config[name] ?? null;
      if (!attribute) return [name, value];
      if (configured === null && attribute.optional && attribute.computed) return [name, prior[name] ?? null];
      if (attribute.nested_type?.nesting_mode === "single")
        return [
          name,
          keepUnsetComputed(value, prior[name] ?? null, configured, attribute.nested_type.attributes),
        ];
      return [name, value];
    }),
  );
}

/** A planned value with its unknowns taken from the live object, once it exists. */
export function settledValue(planned: CtyValue, live: CtyValue | undefined): CtyValue {
  if (planned instanceof Unknown) return live ?? null;
  if (Array.isArray(planned))
    return planned.map((v, i) => settledValue(v, Array.isArray(live) ? (live as CtyValue[])[i] : undefined));
  if (isObjectValue(planned)) {
    const from = isObjectValue(live) ? live : {};
    return objectValue(Object.entries(planned).map(([k, v]) => [k, settledValue(v, from[k])]));
  }
  return planned;
}

/**
 * What a member the config dropped is reset to: the engine sends a top-level member's default itself, so the
 * value is known (through the kind's own normalisation, which knows fixed intervals and caps); anything else
 * the service decides (a setting's default depends on the monitor type), so it is unknown until apply.
 */
export function resetValue(kind: EngineKind, members: Members, path: string, type: CtyType): CtyValue {
  const tokens = tokensOf(path);
  if (tokens.length !== 1) return unknown;
  const traits = traitsAt(kind.schemaFor(members), tokens, members);
  const value =
    traits.default !== undefined
      ? traits.default
      : traits.defaultFrom
        ? members[traits.defaultFrom]
        : undefined;
  if (value === undefined) return unknown;
  const stored = kind.normalizeDesired({ ...members, [tokens[0]!]: value })[tokens[0]!];
  return stored === undefined ? unknown : memberToCty(stored, type);
}

/**
 * A configured value as planned for a new object: what the service sets, and what the config leaves out, is
 * unknown until the object exists (defaults depend on the type, the account and the service), at every level
 * of nested objects.
 */
export function plannedNew(config: CtyValue, attributes: Attributes): CtyObject {
  const values = isObjectValue(config) ? config : {};
  return objectValue(
    Object.entries(attributes).map(([name, attribute]) => {
      const c = values[name] ?? null;
      if (c instanceof Unknown) return [name, c];
      if (isReadOnly(attribute)) return [name, unknown];
      if (c === null) return [name, attribute.computed ? unknown : null];
      return [name, plannedNested(c, attribute)];
    }),
  );
}

/** Inside a configured nested attribute: each object planned as new. */
function plannedNested(value: CtyValue, attribute: Attribute): CtyValue {
  const nested = attribute.nested_type;
  if (!nested || value === null || value instanceof Unknown) return value;
  if (nested.nesting_mode === "single") return plannedNew(value, nested.attributes);
  if (Array.isArray(value)) return value.map((item) => plannedNew(item, nested.attributes));
  if (isObjectValue(value))
    return objectValue(Object.entries(value).map(([k, item]) => [k, plannedNew(item, nested.attributes)]));
  return value;
}

/** The cty type of one attribute, for converting a member value to it. */
export function typeOfAttribute(attribute: Attribute): CtyType {
  let type = attributeTypes.get(attribute);
  if (!type) {
    type = schemaAttributeType(attribute);
    attributeTypes.set(attribute, type);
  }
  return type;
}
const attributeTypes = new WeakMap<Attribute, CtyType>();

/** The members of a resource value (known parts only), for the engine. */
export function ctyMembersOf(value: CtyValue, type: ObjectType): Members {
  return (value === null ? {} : (ctyToMember(value, type) as Members)) ?? {};
}
