/**
 * A caller that notes which idempotency keys the service answered with the stored answer of an earlier call
 * (`Idempotency-Replayed: true`). The providers need it after a create: a replayed answer is as old as its
 * key, so the object is read again, and an id answered twice in one run means two resources hold one object.
 */
import type { ApiResponse, Caller, RequestSpec } from "./types.ts";

export class ReplayWatch implements Caller {
  readonly keys = new Set<string>();
  readonly #inner: Caller;
  constructor(inner: Caller) {
    this.#inner = inner;
  }
  async call<T>(spec: RequestSpec): Promise<ApiResponse<T>> {
    const response = await this.#inner.call<T>(spec);
    if (response.replayed && spec.idempotencyKey) this.keys.add(spec.idempotencyKey);
    return response;
  }
}
