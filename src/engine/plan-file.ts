/**
 * Saved plans: versioned JSON (docs/plan-format.md). Reading one checks its
 * shape and version, so a hand-edited or foreign file is refused with the
 * pointer of what is wrong instead of being half-applied.
 */
import { z } from "zod";
import { kinds } from "../kinds/index.ts";
import { type Plan, planFormatVersion } from "./model.ts";
import { pointer } from "./pointer.ts";

const kindName = z.enum(kinds.map((k) => k.name) as [string, ...string[]]);
const actionType = z.enum(["create", "update", "replace", "delete", "forget", "import", "no-op"]);

const changeSchema = z.strictObject({
  op: z.enum(["add", "remove", "replace"]),
  path: z.string(),
  value: z.unknown().optional(),
  before: z.unknown().optional(),
  drift: z.boolean().optional(),
  sensitive: z.boolean().optional(),
  unknown: z.boolean().optional(),
});

const actionSchema = z.strictObject({
  address: z.string(),
  kind: kindName,
  action: actionType,
  id: z.string().optional(),
  reasons: z.array(z.string()),
  changes: z.array(changeSchema),
  replaceOrder: z.enum(["create-first", "delete-first"]).optional(),
  cascadedBy: z.string().optional(),
  observed: z.strictObject({ updated: z.number().optional(), digest: z.string().optional() }).optional(),
});

const noteSchema = z.strictObject({
  type: z.literal("unmanaged_drift"),
  address: z.string(),
  kind: kindName,
  id: z.string(),
  path: z.string(),
  live: z.unknown(),
  default: z.unknown(),
});

const counts = z.strictObject(
  Object.fromEntries(actionType.options.map((a) => [a, z.number().int().min(0)])),
);

export const planSchema = z.strictObject({
  format_version: z.literal(planFormatVersion),
  created: z.number().int(),
  lineage: z.string(),
  serial: z.number().int().min(0),
  accountId: z.string(),
  configDigest: z.string(),
  // partialRecord: zod 4's record over an enum demands every key, and a plan holds only the kinds it listed.
  syncCursors: z.partialRecord(kindName, z.string()),
  liveCounts: z.partialRecord(kindName, z.number().int().min(0)).optional(),
  actions: z.array(actionSchema),
  summary: counts,
  warnings: z.array(z.string()),
  notes: z.array(noteSchema).optional(),
  refreshOnly: z.literal(true).optional(),
  sandbox: z.literal(true).optional(),
  config: z
    .strictObject({
      dir: z.string(),
      paths: z.array(z.string()).min(1),
      files: z.array(z.strictObject({ path: z.string(), digest: z.string() })),
    })
    .optional(),
});

export class PlanFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PlanFileError";
  }
}

/** The counts come first, so what a plan deletes is seen at the top of the file. */
export function serializePlan(plan: Plan): string {
  const { format_version, summary, ...rest } = plan;
  return `${JSON.stringify({ format_version, summary, ...rest }, null, 2)}\n`;
}

export function parsePlan(text: string, file = "plan"): Plan {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new PlanFileError(`${file} is not JSON: ${(error as Error).message}`);
  }
  const version = (value as { format_version?: unknown } | null)?.format_version;
  if (typeof version === "string" && version !== planFormatVersion) {
    throw new PlanFileError(
      `${file} has format_version ${version}; this vigil reads ${planFormatVersion}. Make the plan again.`,
    );
  }
  const parsed = planSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const at = pointer(issue.path.map(String));
    throw new PlanFileError(`${file} is not a vigil plan: at ${at || "/"}: ${issue.message}`);
  }
  return parsed.data as unknown as Plan;
}
