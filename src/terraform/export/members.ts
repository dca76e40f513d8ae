/**
 * The one walk of an exported object's members through its resource's Terraform schema, shared by the HCL
 * and the CDKTF writers: nested attributes (single, list, set, map), map-typed attributes (their keys are
 * data), lists of scalars, a timestamp's ISO time as a comment, unset members (null) and credentials the
 * export cannot know left out. What each writer keeps is its syntax (`MemberSyntax`).
 */
import { isoSeconds } from "../../api/problem-text.ts";
import type { ExportObject } from "../../engine/export/graph.ts";
import { isObject, pointer } from "../../engine/pointer.ts";
import { type Attribute, attributeName, resourceSchema, resourceTypeName } from "../schema.ts";

/** A member as written: `comment` goes after a one-line value (a timestamp's time). */
export interface MemberEntry<V> {
  name: string;
  value: V;
  comment?: string;
}

/** How a writer spells what the walk finds. */
export interface MemberSyntax<V> {
  /** An attribute (`cron_schedule`) as the writer names it. */
  name(attribute: string): string;
  /** A map's key, which is data. */
  key(key: string): string;
  object(entries: MemberEntry<V>[]): V;
  /** A list or set of nested objects. */
  list(items: V[]): V;
  /** A list or set of scalars. */
  scalars(object: ExportObject, values: unknown[]): V;
  /** A reference, a credential variable, a string, a number or a boolean. */
  scalar(object: ExportObject, value: unknown): V;
}

export class MemberWalker<V> {
  readonly #syntax: MemberSyntax<V>;
  readonly #addressOf: (object: ExportObject) => string;
  readonly #isLeftOut: (object: ExportObject, member: string) => boolean;

  constructor(
    syntax: MemberSyntax<V>,
    addressOf: (object: ExportObject) => string,
    isLeftOut: (object: ExportObject, member: string) => boolean,
  ) {
    this.#syntax = syntax;
    this.#addressOf = addressOf;
    this.#isLeftOut = isLeftOut;
  }

  /** An object's members as the entries of its resource's configuration. */
  entries(object: ExportObject): MemberEntry<V>[] {
    const attributes = resourceSchema(resourceTypeName(object.kind.name)).block.attributes;
    return this.#entries(object, object.members, attributes, []);
  }

  #entries(
    object: ExportObject,
    members: Record<string, unknown>,
    attributes: Readonly<Record<string, Attribute>>,
    at: (string | number)[],
  ): MemberEntry<V>[] {
    const out: MemberEntry<V>[] = [];
    for (const [member, value] of Object.entries(members)) {
      if (value === null || value === undefined || (at.length === 0 && this.#isLeftOut(object, member)))
        continue;
      const name = attributeName(member);
      const attribute = attributes[name];
      if (!attribute)
        throw new Error(
          `${this.#addressOf(object)}: the provider's schema has no attribute ${[...at, member].join(".")}`,
        );
      const path = [...at, member];
      const timestamp = typeof value === "number" && object.timestamps.includes(pointer(path));
      out.push({
        name: this.#syntax.name(name),
        value: this.#value(object, value, attribute, path),
        ...(timestamp && { comment: isoSeconds(value as number) }),
      });
    }
    return out;
  }

  #value(object: ExportObject, value: unknown, attribute: Attribute, at: (string | number)[]): V {
    const syntax = this.#syntax;
    const map = (item: (v: unknown, key: string) => V): V =>
      syntax.object(
        Object.entries(isObject(value) ? value : {}).map(([key, v]) => ({
          name: syntax.key(key),
          value: item(v, key),
        })),
      );
    const nested = attribute.nested_type;
    if (nested) {
      const item = (v: unknown, path: (string | number)[]): V =>
        syntax.object(this.#entries(object, isObject(v) ? v : {}, nested.attributes, path));
      if (nested.nesting_mode === "single") return item(value, at);
      if (nested.nesting_mode === "map") return map((v, key) => item(v, [...at, key]));
      return syntax.list((value as unknown[]).map((v, i) => item(v, [...at, i])));
    }
    if (Array.isArray(attribute.type) && attribute.type[0] === "map")
      return map((v) => syntax.scalar(object, v));
    if (Array.isArray(value)) return syntax.scalars(object, value);
    return syntax.scalar(object, value);
  }
}
