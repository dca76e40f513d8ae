/**
 * The provider's output boundary: every error a handler throws (Pulumi prints and keeps its message in
 * plain text) and every check failure's reason pass through the secrets the provider has seen, so a
 * refusal that echoes a member (`url: got "https://…?token=…"`) never shows a secret. What the provider has
 * seen: each value a program passed as a secret, each credential of a resource's properties, and the API
 * token. The properties themselves are answered as they are: `values.ts` wraps their secrets.
 */
import { type SecretValues, secretValuesOf } from "../../engine/index.ts";
import { getAt } from "../../engine/pointer.ts";
import { kindOfToken } from "../tokens.ts";
import { type Props, unwrapSecrets } from "./values.ts";

/** What names a resource in a request: its URN, and its type on newer engines. */
interface ResourceRequest {
  urn: string;
  type?: string;
}

/** The request members that carry a resource's properties. */
const propertyMembers = ["news", "olds", "properties", "inputs", "oldInputs", "args"] as const;

/** What a request tells of secrets: its secret values, and the credentials of its resource's properties. */
function learn(secrets: SecretValues, request: unknown, typeOf: (r: ResourceRequest) => string): void {
  if (typeof request !== "object" || request === null) return;
  const r = request as Partial<Record<(typeof propertyMembers)[number], Props>> & Partial<ResourceRequest>;
  const kind = typeof r.urn === "string" ? kindOfToken(typeOf(r as ResourceRequest)) : undefined;
  for (const member of propertyMembers) {
    const props = r[member];
    if (typeof props !== "object" || props === null) continue;
    const { members, secrets: pointers } = unwrapSecrets(props);
    for (const p of pointers) secrets.add(getAt(members, p));
    if (kind) secretValuesOf([{ address: "", kind, members }], secrets);
  }
}

/** `handlers` with what each one answers or throws redacted of every secret the provider has seen. */
export function redactingHandlers<H extends object>(
  handlers: H,
  secrets: SecretValues,
  typeOf: (r: ResourceRequest) => string,
): H {
  const redactAnswer = (answer: unknown): unknown => {
    if (typeof answer !== "object" || answer === null || !("failures" in answer)) return answer;
    const failures = (answer as { failures: { property: string; reason: string }[] }).failures;
    return { ...answer, failures: failures.map((f) => ({ ...f, reason: secrets.redact(f.reason) })) };
  };
  const wrapped = {} as Record<string, (request: unknown) => unknown>;
  for (const [name, handler] of Object.entries(handlers) as [string, (request: unknown) => unknown][]) {
    wrapped[name] = (request: unknown) => {
      learn(secrets, request, typeOf);
      let answer: unknown;
      try {
        answer = handler(request);
      } catch (error) {
        throw secrets.redactError(error);
      }
      if (answer instanceof Promise)
        return answer.then(redactAnswer, (error: unknown) => {
          throw secrets.redactError(error);
        });
      return redactAnswer(answer);
    };
  }
  return wrapped as H;
}
