import { familyOf, type ProblemCodeName, problemCodes } from "../../kinds/index.ts";
import { meteringOf, type Operation, takesIdempotencyKey } from "../core/operation.ts";
import { errorCodesOf, families } from "./error-codes.ts";
import type { JsonSchema, SchemaComponents } from "./json-schema.ts";

const header = (description: string, schema: JsonSchema = { type: "string" }) => ({ description, schema });

/** Response headers, published once under `components.headers`. */
export const responseHeaders: Record<string, JsonSchema> = {
  RequestId: header("Id of this request; a 500 repeats it as errors[0].traceId."),
  RateLimitLimit: header("Calls allowed in the tightest window.", { type: "integer" }),
  RateLimitRemaining: header("Calls left in that window.", { type: "integer" }),
  RateLimitReset: header("Seconds until that window resets.", { type: "integer" }),
  RateLimitPolicy: header(
    "Every window the call spends, its family's and its leaf's, e.g. read_per_minute;q=60;w=60;scope=\"monitor\".",
  ),
  Location: header("Address of the new resource or job."),
  RetryAfter: header("Seconds to wait before polling or retrying.", { type: "integer" }),
  IdempotencyReplayed: header("`true` when this is the stored answer to a repeated Idempotency-Key.", {
    type: "string",
    enum: ["true"],
  }),
  WwwAuthenticate: header("Bearer, or Bearer error=invalid_token."),
};

const ref = (name: keyof typeof responseHeaders) => ({ $ref: `#/components/headers/${name}` });

/**
 * Headers a status carries. Refusals carry `RateLimit-*` too; only 429 lists them, where they matter.
 * Where the Idempotency-Key is honoured, a stored answer may come back replayed, and a key still
 * in flight answers 409 with `Retry-After`.
 */
function headersFor(status: number, metered: boolean, idempotent: boolean): Record<string, unknown> {
  const headers: Record<string, unknown> = { "x-request-id": ref("RequestId") };
  // Handlers' answers are stored per key (successes and their refusals); the pipeline's own are not.
  if (idempotent && status < 500 && status !== 401 && status !== 429)
    headers["Idempotency-Replayed"] = ref("IdempotencyReplayed");
  if (idempotent && status === 409) headers["Retry-After"] = ref("RetryAfter");
  if (metered && (status < 400 || status === 429)) {
    headers["RateLimit-Limit"] = ref("RateLimitLimit");
    headers["RateLimit-Remaining"] = ref("RateLimitRemaining");
    headers["RateLimit-Reset"] = ref("RateLimitReset");
    headers["RateLimit-Policy"] = ref("RateLimitPolicy");
  }
  if (status === 201 || status === 202) headers.Location = ref("Location");
  if (status === 202 || status === 429 || status === 503) headers["Retry-After"] = ref("RetryAfter");
  if (status === 401) headers["www-authenticate"] = ref("WwwAuthenticate");
  return headers;
}

/** The success answer, then one problem answer per status the operation can fail with. */
export function responsesOf(op: Operation, components: SchemaComponents): Record<string, unknown> {
  const metered = meteringOf(op) === "quota";
  const idempotent = takesIdempotencyKey(op);
  const status = op.response?.status ?? 200;
  const paged = op.query?.cursor !== undefined && op.query.limit !== undefined;
  const schema = op.response?.schema
    ? components.convert(op.response.schema, "output")
    : paged
      ? { $ref: "#/components/schemas/Page" }
      : {};
  const responses: Record<string, unknown> = {
    [status]: {
      description: op.response?.description ?? (paged ? "One page of the list." : "Success."),
      headers: headersFor(status, metered, idempotent),
      ...(status !== 204 && {
        content: Object.fromEntries(
          (op.response?.mediaTypes ?? ["application/json"]).map((t) => [t, { schema }]),
        ),
      }),
    },
  };

  const byStatus = new Map<number, ProblemCodeName[]>();
  for (const code of errorCodesOf(op)) {
    const s = problemCodes[code].status;
    byStatus.set(s, [...(byStatus.get(s) ?? []), code]);
  }
  for (const [s, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[s] = {
      description: `${families[familyOf(s)].title}: ${codes.map((c) => `\`${c}\``).join(", ")}.`,
      headers: headersFor(s, metered, idempotent),
      content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } },
      "x-error-codes": codes,
    };
  }
  return responses;
}
