import { randomFillSync, randomUUID } from "node:crypto";

export const newGuid = (): string => randomUUID();
export const newPrefixedId = (prefix: string): string => `${prefix}${randomHex(12)}`;
export const newRequestId = (): string => `req_${randomHex(10)}`;

/**
 * Random bytes taken from a pool filled 4 KB at a time: one `randomBytes` call per id (each request and
 * each check record has one) cost more than the rest of an id's making.
 */
const pool = Buffer.alloc(4096);
let used = pool.length;

function randomHex(bytes: number): string {
  if (used + bytes > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  used += bytes;
  return pool.toString("hex", used - bytes, used);
}
