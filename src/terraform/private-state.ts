/** What a resource keeps beside its state (tfplugin6 `private`), as bytes Terraform hands back unread. */

/**
 * What the config set at the last apply, whether the state is an import not refreshed yet, and (in a planned
 * change only, never in the state) the nonce of the write the plan intends.
 */
export interface PrivateState {
  /** Member pointers the config set: removing one from the config resets it to the service's default. */
  configured?: string[];
  /** Imported and not refreshed yet: the first read takes every live value. */
  imported?: true;
  /**
   * The nonce of the create or update this planned change makes (`writeNonce`), made at plan time: the
   * write's idempotency keys carry it, so no other planned change (of this state or another) shares them.
   */
  write?: string;
}

export function readPrivate(bytes: Uint8Array | undefined): PrivateState {
  if (!bytes || bytes.length === 0) return {};
  try {
    const parsed = JSON.parse(Buffer.from(bytes).toString("utf8")) as unknown;
    return typeof parsed === "object" && parsed !== null ? (parsed as PrivateState) : {};
  } catch {
    return {};
  }
}

export const writePrivate = (state: PrivateState): Uint8Array => Buffer.from(JSON.stringify(state));
