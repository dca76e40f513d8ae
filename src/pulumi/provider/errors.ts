/** How a resource's failures reach Pulumi: gRPC statuses with messages that name each property concerned. */
import type { ServiceRefusal } from "../../engine/resource-adapter.ts";
import type { Props } from "./values.ts";
import { propertyPath } from "./values.ts";

/** gRPC status codes the handlers answer with (numbers, so this module needs no gRPC). */
export const Status = {
  INVALID_ARGUMENT: 3,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
} as const;

/** A failure the server answers as a gRPC status with this message. */
export class ProviderError extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

/**
 * A create whose object exists but whose later writes failed (components, update-only members): Pulumi
 * records the object with these properties (pulumirpc.ErrorResourceInitFailed) instead of forgetting it, and
 * the next update finishes it. Without this, the object would be in the account and in no state.
 */
export class ResourceInitError extends ProviderError {
  readonly id: string;
  readonly properties: Props;
  constructor(id: string, properties: Props, cause: unknown) {
    super(
      cause instanceof ProviderError ? cause.code : Status.INTERNAL,
      `${cause instanceof Error ? cause.message : String(cause)} (the object ${id} was created: the next update finishes it)`,
    );
    this.id = id;
    this.properties = properties;
  }
}

/** A refusal as an error naming each property the service names, with every member of the problem said. */
export function refusalError(refusal: ServiceRefusal, token: string): ProviderError {
  const { summary, error, existing } = refusal;
  if (existing)
    return new ProviderError(
      Status.ALREADY_EXISTS,
      `${summary}: ${error.message}\nThe object already exists as ${existing}. If it is this program's (made by an update interrupted before Pulumi saved it), import it: pulumi import ${token} <name> ${existing}. If another stack manages it, this resource must describe another object.`,
    );
  const details = refusal.members.map(
    (e) => `\n  ${propertyPath(e.pointer) || "(the resource)"}: ${e.message}`,
  );
  const code =
    error.status === 404 ? Status.NOT_FOUND : error.status < 500 ? Status.INVALID_ARGUMENT : Status.INTERNAL;
  return new ProviderError(
    code,
    details.length > 0 ? `${summary}: ${refusal.head}${details.join("")}` : `${summary}: ${refusal.detail}`,
  );
}
