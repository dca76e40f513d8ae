import { type ProblemCodeName, type ProblemDetailEntry, problemCodes } from "../../kinds/index.ts";

/**
 * A failure to render as an RFC 9457 problem document. Handlers throw it;
 * the pipeline renders it once, in one place, with the code's status.
 */
export class ApiProblem extends Error {
  readonly code: ProblemCodeName;
  readonly status: number;
  readonly errors: ProblemDetailEntry[] | undefined;
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(
    code: ProblemCodeName,
    detail?: string,
    options: {
      errors?: ProblemDetailEntry[];
      extra?: Record<string, unknown>;
      headers?: Record<string, string>;
    } = {},
  ) {
    super(detail ?? problemCodes[code].title);
    this.code = code;
    this.status = problemCodes[code].status;
    this.errors = options.errors;
    this.extra = options.extra ?? {};
    this.headers = options.headers ?? {};
  }

  toDocument(baseUrl: string, instance: string): Record<string, unknown> {
    const doc: Record<string, unknown> = {
      type: `${baseUrl}/problems/${this.code}`,
      title: problemCodes[this.code].title,
      status: this.status,
      code: this.code,
      detail: this.message,
      instance,
      ...this.extra,
    };
    if (this.errors && this.errors.length > 0) doc.errors = this.errors;
    return doc;
  }
}

/** 404 `not_found` for a resource id: the same answer whether it is missing or another account's. */
export function notFound(what: string, id: string): ApiProblem {
  return new ApiProblem("not_found", `No ${what} with id ${id}.`);
}

/** 422 `validation_failed` (or a more specific code) for problems found in a body. */
export function invalid(
  entries: ProblemDetailEntry[],
  code: ProblemCodeName = "validation_failed",
  detail?: string,
): ApiProblem {
  return new ApiProblem(
    code,
    detail ?? entries.map((e) => `${e.pointer ?? ""} ${e.message ?? e.reason ?? ""}`.trim()).join("; "),
    {
      errors: entries,
    },
  );
}
