import { createHash, createHmac, randomUUID } from "node:crypto";
import { z } from "zod";
import { issuesToEntries, kinds } from "../../kinds/index.ts";
import { type KindName, type State, stateFormatVersion } from "../model.ts";
import { StateFileError } from "./errors.ts";

/** A fresh, empty state with a new lineage. */
export function newState(): State {
  return {
    format_version: stateFormatVersion,
    lineage: randomUUID(),
    serial: 0,
    syncCursors: {},
    resources: {},
  };
}

const kindNames = kinds.map((k) => k.name) as [KindName, ...KindName[]];
const kindName = z.enum(kindNames);
const hash = z
  .string()
  .refine((s) => /^sha256:[0-9a-f]{64}$/.test(s), "expected sha256: followed by 64 hex digits");

const pendingOperationSchema = z.strictObject({
  action: z.enum(["create", "update", "delete"]),
  idempotencyKey: z.string().min(1),
  bodyDigest: hash,
  startedAt: z.number(),
  jobId: z.string().min(1).optional(),
});

const resourceStateSchema = z.strictObject({
  kind: kindName,
  id: z.string().min(1).optional(),
  naturalKey: z.record(z.string(), z.unknown()),
  managed: z.record(z.string(), z.unknown()),
  secrets: z.record(z.string(), hash).optional(),
  lifecycle: z
    .strictObject({ protect: z.boolean().optional(), retainOnDelete: z.boolean().optional() })
    .optional(),
  pending: pendingOperationSchema.optional(),
});

/**
 * The saved state, strictly: an unknown member means a foreign file or one
 * written by another version, and rewriting it would silently drop data.
 */
export const stateSchema: z.ZodType<State> = z.strictObject({
  format_version: z.literal(stateFormatVersion),
  lineage: z.string().min(1),
  serial: z.int().nonnegative(),
  accountId: z.string().min(1).optional(),
  syncCursors: z.partialRecord(kindName, z.string()),
  resources: z.record(z.string().min(1), resourceStateSchema),
});

/** Validates a parsed state file; the error names the file, the first bad member and what was expected. */
export function validateState(value: unknown, file: string): State {
  const parsed = stateSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const version = (value as { format_version?: unknown } | null)?.format_version;
  if (typeof version === "number" && version > stateFormatVersion) {
    throw new StateFileError(
      file,
      `state file ${file} has format_version ${version}, written by a newer vigil; this one reads ${stateFormatVersion}`,
      { pointer: "/format_version" },
    );
  }
  const [first] = issuesToEntries(parsed.error.issues, value, stateSchema as z.ZodType);
  const pointer = first?.pointer ?? "";
  const allowed =
    first?.reason === "unknown_member" && pointer.startsWith("/syncCursors/") ? kindNames : first?.allowed;
  let expected = first?.message ?? "invalid";
  if (Array.isArray(allowed) && allowed.length > 0) {
    if (first?.reason === "unknown_member") expected += `; allowed: ${allowed.join(", ")}`;
    else if (first?.reason === "required")
      expected += `; expected ${allowed.map((v) => JSON.stringify(v)).join(" or ")}`;
  }
  throw new StateFileError(
    file,
    `state file ${file} is not a valid vigil state: at ${pointer === "" ? "the document root" : pointer}: ${expected}`,
    { pointer },
  );
}

/** JSON with object keys sorted at every depth, so equal values always give the same text. */
export function canonicalJson(value: unknown): string {
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== "object" || Array.isArray(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(v).sort()) sorted[key] = (v as Record<string, unknown>)[key];
    return sorted;
  });
  if (text === undefined) throw new TypeError("canonicalJson: the value has no JSON form");
  return text;
}

/** `sha256:` + hex SHA-256 of the value's canonical JSON. */
export function digestOf(value: unknown): string {
  return "sha256:" + createHash("sha256").update(canonicalJson(value)).digest("hex");
}

/**
 * Salted hash of a credential value: HMAC-SHA256 keyed by the state's lineage,
 * so equal values compare equal within one state while the hash cannot be
 * looked up across states and the value itself is never stored.
 */
export function hashSecret(lineage: string, value: unknown): string {
  return "sha256:" + createHmac("sha256", lineage).update(canonicalJson(value)).digest("hex");
}
