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

  /** The document, cut to the echo bounds (see `bounded`): wherever it goes, it renders. */
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
    return bounded(doc) as Record<string, unknown>;
  }
}

/**
 * Bounds on what a problem document echoes: a refused value may be the hostile input itself. A string
 * over any member limit of the API (2048 at most) still echoes whole.
 */
const echo = { maxString: 4096, maxItems: 100, maxDepth: 6 };

/**
 * A JSON value cut to the echo bounds: long strings end in "…", long arrays
 * keep their head, and deeper members are left out. Non-finite numbers and
 * anything JSON cannot carry are undefined (left out: members are never null).
 */
export function bounded(value: unknown, depth = 0): unknown {
  switch (typeof value) {
    case "string":
      return value.length > echo.maxString ? `${value.slice(0, echo.maxString)}…` : value;
    case "number":
      return Number.isFinite(value) ? value : undefined;
    case "boolean":
      return value;
    case "object": {
      if (value === null) return null;
      if (depth >= echo.maxDepth) return undefined;
      if (Array.isArray(value)) {
        return value
          .slice(0, echo.maxItems)
          .map((item) => bounded(item, depth + 1))
          .filter((item) => item !== undefined);
      }
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value).slice(0, echo.maxItems)) {
        const b = bounded(v, depth + 1);
        // defineProperty: a member named `__proto__` is data, not the prototype.
        if (b !== undefined) Object.defineProperty(out, k, { value: b, enumerable: true, writable: true });
      }
      return out;
    }
    default:
      return undefined;
  }
}

/** The problem document as sent: bounded, so rendering a refusal of any input cannot fail. */
export function renderProblem(problem: ApiProblem, baseUrl: string, instance: string): string {
  return JSON.stringify(problem.toDocument(baseUrl, instance));
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
