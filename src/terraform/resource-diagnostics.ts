/** How a resource's failures reach Terraform: diagnostics, each at the attribute it concerns. */
import type { ServiceRefusal } from "../engine/resource-adapter.ts";
import type { AttributePathStep, CtyValue } from "./cty.ts";
import type { Diagnostic, AttributePathStep as ProtocolStep } from "./plugin/protocol.ts";
import type { PrivateState } from "./private-state.ts";

/** A failure Terraform shows as diagnostics (one per problem, each at its attribute). */
export class DiagnosticsError extends Error {
  readonly diagnostics: Diagnostic[];
  constructor(diagnostics: Diagnostic[]) {
    super(diagnostics.map((d) => d.summary).join("; "));
    this.diagnostics = diagnostics;
  }
}

/**
 * A create whose object exists but whose later writes failed (components, update-only members): Terraform
 * saves `state` beside the diagnostics, marked tainted, so the object is in the state and the next apply
 * replaces it, instead of being in the account and in no state.
 */
export class PartialCreateError extends DiagnosticsError {
  readonly state: CtyValue;
  readonly private: PrivateState;
  constructor(diagnostics: Diagnostic[], state: CtyValue, privateState: PrivateState) {
    super(diagnostics);
    this.state = state;
    this.private = privateState;
  }
}

/**
 * A refusal as diagnostics: each member the service names at its attribute (`at`: a pointer's diagnostic),
 * with every member of the problem said.
 */
export function refusalDiagnostics(
  refusal: ServiceRefusal,
  at: (pointer: string, message: string) => Diagnostic,
): DiagnosticsError {
  const { summary, existing } = refusal;
  if (existing)
    return new DiagnosticsError([
      {
        severity: "ERROR",
        summary,
        detail: `${refusal.error.message}\nThe object already exists as ${existing}. If it is this configuration's (made by an apply interrupted before Terraform saved it), import it: terraform import <address> ${existing}. If another configuration manages it, this resource must describe another object.`,
      },
    ]);
  if (refusal.members.length === 0)
    return new DiagnosticsError([{ severity: "ERROR", summary, detail: refusal.detail }]);
  // Each member at its attribute, with the code and the document's own members under it.
  return new DiagnosticsError(
    refusal.members.map((entry) => ({
      ...at(entry.pointer, `${entry.message}\n\n${refusal.head}`),
      summary,
    })),
  );
}

/** Attribute path steps as the protocol sends them (list indexes as numbers). */
export function protocolSteps(steps: readonly AttributePathStep[]): ProtocolStep[] {
  return steps.map((step) =>
    "element_key_int" in step ? { element_key_int: Number(step.element_key_int) } : step,
  );
}
