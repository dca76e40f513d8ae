import { type ProblemCodeName, problemCodes } from "../../kinds/index.ts";
import { type Ctx, defineOperations, type OpRequest, type Reply } from "../core/operation.ts";
import { ApiProblem } from "../core/problem.ts";
import { errorCodesOf, families } from "../openapi/error-codes.ts";

function describe(baseUrl: string, code: ProblemCodeName) {
  const c = problemCodes[code];
  const family = c.family;
  return {
    code,
    type: `${baseUrl}/problems/${code}`,
    status: c.status,
    title: c.title,
    family,
    familyTitle: families[family].title,
    action: families[family].action,
    description: c.description,
  };
}

/** The public operations that can answer a code, in table order. */
function operationsAnswering(ctx: Ctx, code: ProblemCodeName) {
  return ctx.services.operations.filter((op) => !op.internal && errorCodesOf(op).includes(code));
}

/** True when the caller prefers HTML to JSON (a browser following a problem's `type`). */
function wantsHtml(req: OpRequest): boolean {
  const accept = req.headers.accept;
  const quality = (range: RegExp) => {
    let best = 0;
    for (const part of String(accept ?? "").split(",")) {
      const [media = "", ...params] = part.trim().split(";");
      if (!range.test(media.trim())) continue;
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      best = Math.max(best, q === undefined ? 1 : Number(q));
    }
    return best;
  };
  return quality(/^text\/html$/i) > quality(/^(application\/json|application\/\*|\*\/\*)$/i);
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`).replace(/`([^`]+)`/g, "<code>$1</code>");

function page(body: ReturnType<typeof describe>, operations: string[]): Reply {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(body.code)}: ${escapeHtml(body.title)}</title></head>
<body>
<h1><code>${escapeHtml(body.code)}</code>: ${escapeHtml(body.title)}</h1>
<p>HTTP ${body.status}. ${escapeHtml(body.familyTitle)}. ${escapeHtml(body.action)}</p>
<p>${escapeHtml(body.description)}</p>
<h2>Operations that can answer it</h2>
<ul>${operations.map((o) => `<li><code>${escapeHtml(o)}</code></li>`).join("")}</ul>
<p><a href="../problems">Every code</a></p>
</body></html>
`;
  return { status: 200, text: html, headers: { "content-type": "text/html; charset=utf-8", Vary: "Accept" } };
}

/** Anonymous pages that explain every error code (`type` in problem documents points here). */
export const problemOperations = defineOperations(
  {
    id: "problems.list",
    method: "GET",
    path: "/problems",
    summary: "Every error code, with its status, family and meaning.",
    scope: null,
    errors: [],
    response: { status: 200, description: "{data: [{code, type, status, title, family, description}]}." },
    handle: (ctx) => ({
      status: 200,
      body: {
        data: (Object.keys(problemCodes) as ProblemCodeName[]).map((code) => describe(ctx.baseUrl, code)),
      },
    }),
  },
  {
    id: "problems.get",
    method: "GET",
    path: "/problems/{code}",
    summary: "One error code and the operations that can answer it; HTML when the caller prefers it.",
    scope: null,
    errors: ["not_found"],
    response: { status: 200, description: "The code's page, with operations (operationIds)." },
    handle: (ctx, req) => {
      const code = req.params.code as ProblemCodeName;
      if (!Object.hasOwn(problemCodes, code)) throw new ApiProblem("not_found", `No error code ${code}.`);
      const body = describe(ctx.baseUrl, code);
      const operations = operationsAnswering(ctx, code);
      if (wantsHtml(req))
        return page(
          body,
          operations.map((op) => `${op.method} ${op.path} (${op.id})`),
        );
      return {
        status: 200,
        body: { ...body, operations: operations.map((op) => op.id) },
        headers: { Vary: "Accept" },
      };
    },
  },
);
