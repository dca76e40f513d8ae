import { createHash, createHmac } from "node:crypto";
import { ApiProblem } from "./problem.ts";
import { sameSecret } from "./secrets.ts";

/**
 * Opaque, checksummed tokens: page cursors (bound to their list, sort, query
 * and account) and delta-sync cursors (bound to their list and account). A
 * tampered or foreign token is refused.
 */
export class CursorCodec {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    this.#key = key;
  }

  encode(payload: unknown): string {
    const body = Buffer.from(JSON.stringify(payload)).toString("base64url");
    return `${body}.${this.#mac(body)}`;
  }

  /** The payload of a token this codec issued, or a 422 `invalid_cursor` naming the parameter. */
  decode<T>(token: string, parameter: string): T {
    // Exactly body.mac: anything appended (`.x.y`) makes the cursor malformed, not ignored.
    const parts = token.split(".");
    const [body, mac] = parts;
    const fail = () =>
      new ApiProblem("invalid_cursor", `The ${parameter} is not one this API issued for this request.`, {
        errors: [{ pointer: `/${parameter}`, parameter, reason: "invalid" }],
      });
    if (parts.length !== 2 || !body || !mac || !sameSecret(mac, this.#mac(body))) throw fail();
    try {
      return JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as T;
    } catch {
      throw fail();
    }
  }

  #mac(body: string): string {
    return createHmac("sha256", this.#key).update(body).digest("base64url").slice(0, 16);
  }
}

const digest = (value: unknown) =>
  createHash("sha256").update(JSON.stringify(value)).digest("base64url").slice(0, 16);

/**
 * A stable digest of the query that produced a cursor: everything but
 * `cursor`, `limit` (a page may change size) and `sort` (bound separately, in canonical form).
 */
export function queryDigest(query: Record<string, unknown>, accountId: string): string {
  const canonical = Object.keys(query)
    .filter((k) => k !== "cursor" && k !== "limit" && k !== "sort")
    .sort()
    .map((k) => [k, query[k]]);
  return digest([accountId, canonical]);
}

/**
 * A digest naming one list: its id (shared by the GET and its `/q` twin) and
 * its path parameters, so `/monitor/A/alert` cursors never page `/monitor/B/alert`.
 */
export function listDigest(listId: string, params: Record<string, string>): string {
  return digest([listId, Object.entries(params).sort(([a], [b]) => (a < b ? -1 : 1))]);
}
