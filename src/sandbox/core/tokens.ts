import { createHmac, randomBytes } from "node:crypto";
import { sameSecret } from "./secrets.ts";

/**
 * Bearer tokens carry their grant in signed claims; there is no token table
 * (so, as in the real service, a single token cannot be revoked).
 */
export interface TokenClaims {
  /** Account id. */
  acc: string;
  /** Scopes as minted. */
  scp: string[];
  /** Shared-access member id; absent for the owner. */
  mem?: string;
  /** IP allow-list: addresses or `from-to` ranges. */
  ips?: string[];
  /** Self-cap: most calls the token may spend. */
  cap?: number;
  /** Expiry, Unix seconds. */
  exp: number;
  iat: number;
  /** Token id, for the cap's counter. */
  jti: string;
}

const prefix = "vgl_";

export class TokenAuthority {
  readonly #key: Buffer;
  // Verifying a signature is cheap, but hot read paths see the same token thousands of times.
  readonly #verified = new Map<string, TokenClaims>();

  constructor(key: Buffer) {
    this.#key = key;
  }

  mint(claims: Omit<TokenClaims, "jti"> & { jti?: string }): string {
    const full: TokenClaims = { ...claims, jti: claims.jti ?? randomBytes(8).toString("hex") };
    const payload = Buffer.from(JSON.stringify(full)).toString("base64url");
    return `${prefix}${payload}.${this.#sign(payload)}`;
  }

  /** The claims of a well-signed token, or undefined. Expiry is the caller's to check against its clock. */
  verify(token: string): TokenClaims | undefined {
    const cached = this.#verified.get(token);
    if (cached) return cached;
    if (!token.startsWith(prefix)) return undefined;
    // Exactly payload.signature: anything appended (`.junk`) makes the token malformed, not ignored.
    const parts = token.slice(prefix.length).split(".");
    if (parts.length !== 2) return undefined;
    const [payload, signature] = parts as [string, string];
    if (!payload || !signature) return undefined;
    if (!sameSecret(signature, this.#sign(payload))) return undefined;
    let claims: TokenClaims;
    try {
      claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as TokenClaims;
    } catch {
      return undefined;
    }
    if (this.#verified.size > 10_000) this.#verified.clear();
    this.#verified.set(token, claims);
    return claims;
  }

  #sign(payload: string): string {
    return createHmac("sha256", this.#key).update(payload).digest("base64url");
  }
}

const tenYears = 10 * 365 * 24 * 3600;

export const defaultTokenLifetime = tenYears;
/** The longest lifetime a mint grants: the default is already the longest (docs/sandbox.md). */
export const maxTokenLifetime = tenYears;
