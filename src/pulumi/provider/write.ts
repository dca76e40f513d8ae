/**
 * The nonce of the write a resource's step may make (`writeNonce`), carried from Check to Create and Update
 * in the checked inputs: Pulumi hands Create and Update exactly what Check answered, and has no private data
 * per resource. Pulumi hides properties named `__…` from its displays, diffs and policy packs.
 */
import { isWriteNonce, writeNonce } from "../../engine/index.ts";
import type { Props } from "./values.ts";

export const writeProperty = "__vigilWrite";

/**
 * Checked inputs with the nonce of this step, made from Pulumi's `randomSeed` for it: random per step, and
 * the same when an update plan (`pulumi up --plan`) fixes the step's seed.
 */
export function withWrite(inputs: Props, seed: Uint8Array | undefined): Props {
  return { ...inputs, [writeProperty]: writeNonce(seed) };
}

/** Inputs as the program set them: the nonce is no member of the object. */
export function withoutWrite(props: Props): Props;
export function withoutWrite(props: Props | undefined): Props | undefined;
export function withoutWrite(props: Props | undefined): Props | undefined {
  if (!props || !(writeProperty in props)) return props;
  const { [writeProperty]: _, ...rest } = props;
  return rest;
}

/** The step's nonce and its inputs; inputs that carry none (checked by another version) write as their own. */
export function takeWrite(props: Props): { inputs: Props; nonce: string } {
  const nonce = props[writeProperty];
  return { inputs: withoutWrite(props), nonce: isWriteNonce(nonce) ? nonce : writeNonce() };
}
