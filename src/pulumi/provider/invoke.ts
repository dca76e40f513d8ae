/**
 * The package's functions (Invoke): the monitor type catalogue, the location pools and the account, read as
 * Terraform's data sources read them and shaped by the same result schemas, which drop what they do not
 * declare so the SDK's types hold.
 */
import type { z } from "zod";
import type { Operations } from "../../api/index.ts";
import { type CatalogueName, readCatalogue } from "../../engine/catalogue.ts";
import { isObject } from "../../engine/pointer.ts";
import { accountResult, agentPoolsResult, monitorTypesResult } from "../../kinds/data-sources.ts";
import { shapeOf } from "../../kinds/walk.ts";
import { functionTokens } from "../tokens.ts";
import { ProviderError, Status } from "./errors.ts";
import { type Props, withoutUndefined } from "./values.ts";

const functions: Record<string, { reads: CatalogueName; result: z.ZodObject }> = {
  [functionTokens.getMonitorTypes]: { reads: "monitorTypes", result: monitorTypesResult },
  [functionTokens.getAgentPools]: { reads: "agentPools", result: agentPoolsResult },
  [functionTokens.getAccount]: { reads: "account", result: accountResult },
};

export async function invoke(ops: Operations, token: string): Promise<Props> {
  const fn = functions[token];
  if (!fn)
    throw new ProviderError(
      Status.INVALID_ARGUMENT,
      `vigil has no function ${token}; it has ${Object.keys(functions).join(", ")}`,
    );
  return withoutUndefined(shaped(fn.result, await readCatalogue(ops, fn.reads))) as Props;
}

/**
 * The value as the result declares it: members it does not declare dropped (the SDK's types hold), and a
 * member the service leaves out where the result declares null (a type's `replacedBy`) null, as Terraform's
 * data sources show it. Not a validation: a discontinued type's row lacks most members, and is still
 * answered.
 */
function shaped(schema: z.ZodType, value: unknown): unknown {
  const shape = shapeOf(schema);
  if (shape.type === "object" && isObject(value)) {
    const out: Props = {};
    for (const [key, member] of Object.entries(shape.members)) {
      if (value[key] !== undefined) out[key] = shaped(member, value[key]);
      else if (member.safeParse(null).success) out[key] = null;
    }
    return out;
  }
  if (shape.type === "array" && Array.isArray(value)) return value.map((item) => shaped(shape.element, item));
  if (shape.type === "record" && isObject(value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shaped(shape.value, v)]));
  return value;
}
