import { createHash, timingSafeEqual } from "node:crypto";

const sha256 = (text: string) => createHash("sha256").update(text).digest();

/**
 * Whether a presented secret (a token, a signature) equals the expected one, in time that depends on
 * neither: both are hashed to one length first, so not even the length of the match leaks.
 */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(sha256(given), sha256(expected));
}
