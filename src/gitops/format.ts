/**
 * The GitOps format `vigil/v1`, derived from the kinds: which sections a
 * file holds, how references and timestamps are written, and which kinds
 * nest in which (from the kinds' relations). The loader, the JSON Schema and export all read these
 * rules here, so the format cannot drift from the kinds.
 */

import { isoSeconds } from "../api/problem-text.ts";
import { engineKind } from "../engine/kinds/index.ts";
import {
  isAt,
  memberPositions,
  type ReferencePosition,
  type TimestampPosition,
} from "../engine/member-positions.ts";
import type { KindName } from "../engine/model.ts";
import { configExcludedMembers, kindNamed, kindsInOrder, parentOf, topLevelOf } from "../kinds/index.ts";
import { isoTimeSource } from "./syntax.ts";

export const formatVersion = "vigil/v1";

/** A logical name: the key of a resource in its section. */
export const namePattern = /^[a-z0-9][a-z0-9_-]*$/;

/** The kinds a file declares at its top level, in dependency order: every kind without a parent. */
export const topLevelKinds: readonly KindName[] = topLevelOf(kindsInOrder).map((k) => k.name);

/** A top-level key of a file: its kind's section (`monitors`), which is also the first step of its addresses. */
export function sectionOf(kind: KindName): string {
  return engineKind(kind).section;
}

export const topLevelSections: readonly string[] = topLevelKinds.map(sectionOf);

/** Keys a file may hold besides the sections. */
export const fileKeys = ["format", "imports"] as const;

/**
 * A kind written inside the entries of its parent, as its relations declare: alert subscriptions under a
 * monitor's `alerts`, one entry per contact (`keyedBy`); a child without `keyedBy` has a map of logical names
 * of its own, as a top-level section does.
 */
export interface NestedKind {
  kind: KindName;
  parent: KindName;
  /** The parent's member holding the entries: `alerts`. */
  member: string;
  /** The API member holding the parent's id (`monitorId`): the file's layout gives it, never written. */
  parentMember: string;
  /** The reference naming an entry within its parent (`contactId`, written `contact: <name>`). */
  keyedBy?: string;
}

/** Every nested kind, in dependency order. */
export const nestedKinds: readonly NestedKind[] = kindsInOrder.flatMap((k) => {
  const parent = parentOf(k);
  if (!parent) return [];
  return [
    {
      kind: k.name,
      parent: kindNamed(parent.kind),
      member: parent.nestedAs,
      parentMember: parent.member,
      ...(parent.keyedBy !== undefined && { keyedBy: parent.keyedBy }),
    },
  ];
});

/** The kinds nested in entries of `parent`. */
export function nestedIn(parent: KindName): NestedKind[] {
  return nestedKinds.filter((n) => n.parent === parent);
}

/** How a kind nests in its parent, or undefined for a top-level kind. */
export function nestingOf(kind: KindName): NestedKind | undefined {
  return nestedKinds.find((n) => n.kind === kind);
}

/** Members the format leaves out (a monitor's inline contacts and subscriptions): `configExcludedMembers`. */
export function excludedMembersOf(kind: KindName): string[] {
  return configExcludedMembers(engineKind(kind).definition);
}

export const lifecycleOptions = ["protect", "ignoreChanges", "retainOnDelete", "replaceOnChanges"] as const;

/** `monitors.<m>.alerts.<contact>`, `statusPages.<p>.templates.<name>`: the engine address of a nested object. */
export function nestedAddress(nested: NestedKind, parent: string, name: string): string {
  return `${sectionOf(nested.parent)}.${parent}.${nested.member}.${name}`;
}

/** How configs name a nested entry: `<contact>` for one keyed by a reference, else `<name>`. */
export function entryNameOf(nested: NestedKind): string {
  return nested.keyedBy === undefined ? "<name>" : `<${configNameOf(nested.kind, [], nested.keyedBy)}>`;
}

export type { SchemaPath } from "../engine/member-positions.ts";
export { isAt };

/** A member holding the id (or ids) of another kind's objects: configs write their logical names. */
export interface ReferenceMember extends ReferencePosition {
  /** The config's name: `contact`, `monitors`. */
  yamlName: string;
}

/** A member in Unix seconds that configs may write as ISO 8601. */
export type TimestampMember = TimestampPosition;

export interface KindFormat {
  references: ReferenceMember[];
  timestamps: TimestampMember[];
}

/** `contactId` → `contact`, `monitorIds` → `monitors`. */
export function yamlNameOf(member: string): string {
  return member.replace(/Ids$/, "s").replace(/Id$/, "");
}

const formats = new Map<KindName, KindFormat>();

/** The references and timestamps of a kind's members, found from the kinds' traits. */
export function formatOf(kind: KindName): KindFormat {
  let format = formats.get(kind);
  if (!format) {
    const { references, timestamps } = memberPositions(kind);
    format = { references: references.map((r) => ({ ...r, yamlName: yamlNameOf(r.member) })), timestamps };
    formats.set(kind, format);
  }
  return format;
}

/** The reference member written `key` in the config (or `member` in the API) in the object at `path`. */
export function referenceAt(
  kind: KindName,
  path: readonly (string | number)[],
  key: string,
  naming: "yaml" | "api",
): ReferenceMember | undefined {
  return formatOf(kind).references.find(
    (r) => isAt(path, r.at) && (naming === "yaml" ? r.yamlName : r.member) === key,
  );
}

export function isTimestampAt(kind: KindName, path: readonly (string | number)[], member: string): boolean {
  return formatOf(kind).timestamps.some((t) => t.member === member && isAt(path, t.at));
}

/** What a config member is called in the API's members, at an object path (`contact` → `contactId`). */
export function apiNameOf(kind: KindName, path: readonly (string | number)[], key: string): string {
  return referenceAt(kind, path, key, "yaml")?.member ?? key;
}

/** What an API member is called in configs, at an object path (`contactId` → `contact`). */
export function configNameOf(kind: KindName, path: readonly (string | number)[], member: string): string {
  return referenceAt(kind, path, member, "api")?.yamlName ?? member;
}

/** A dotted member path of a config (`scope.monitors`, `settings.timeout`) in API names, as path tokens. */
export function apiPathOf(kind: KindName, dotted: string): string[] {
  const tokens = dotted.split(".");
  const out: (string | number)[] = [];
  for (const token of tokens) {
    const index = /^\d+$/.test(token) ? Number(token) : undefined;
    out.push(index ?? apiNameOf(kind, out, token));
  }
  return out.map(String);
}

// One syntax for the loader and the JSON Schema's `pattern`.
const isoTime = new RegExp(isoTimeSource);

/** Unix seconds of an ISO 8601 time with a zone (`2026-12-01T02:00:00Z`), or undefined. */
export function parseIsoTime(text: string): number | undefined {
  if (!isoTime.test(text)) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}

/** How export writes a timestamp: ISO 8601 in UTC, without milliseconds. */
export const formatIsoTime: (seconds: number) => string = isoSeconds;
