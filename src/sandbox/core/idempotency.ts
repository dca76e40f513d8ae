import { createHash } from "node:crypto";
import type { Doc, Store } from "./store.ts";

/**
 * Idempotency records: the first answer to a key, kept 24 hours per account
 * and replayed byte for byte. They are written in the same transaction as the
 * change they describe, so a crash can never keep one without the other.
 */
export interface IdempotencyRecord extends Doc {
  fingerprint: string;
  status: number;
  headers: Record<string, string>;
  body: string;
  expiresAt: number;
}

const table = "idempotency";
export const idempotencyTtl = 24 * 3600;

export const recordId = (accountId: string, key: string) => `${accountId}:${key}`;

export function fingerprint(method: string, path: string, body: unknown): string {
  return createHash("sha256")
    .update(`${method} ${path}\n${canonicalJson(body ?? null)}`)
    .digest("hex");
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.keys(value as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value);
}

export function findRecord(
  store: Store,
  accountId: string,
  key: string,
  now: number,
): IdempotencyRecord | undefined {
  const record = store.get<IdempotencyRecord>(table, recordId(accountId, key));
  return record && record.expiresAt > now ? record : undefined;
}

export function saveRecord(store: Store, record: IdempotencyRecord): void {
  store.put(table, record);
}

/** Deletes records past their 24 hours, so the store does not grow with every key ever sent. */
export function purgeExpired(store: Store, now: number): number {
  const expired = store.scan<IdempotencyRecord>(table).filter((r) => r.expiresAt <= now);
  store.transaction(() => {
    for (const r of expired) store.remove(table, r.id);
  });
  return expired.length;
}
