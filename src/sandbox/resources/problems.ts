import { familyOf, type ProblemCodeName, problemCodes } from "../../kinds/index.ts";
import { defineOperations } from "../core/operation.ts";
import { ApiProblem } from "../core/problem.ts";

function describe(baseUrl: string, code: ProblemCodeName) {
  const c = problemCodes[code];
  return {
    code,
    type: `${baseUrl}/problems/${code}`,
    status: c.status,
    title: c.title,
    family: familyOf(c.status),
    description: c.description,
  };
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
    summary: "One error code.",
    scope: null,
    errors: ["not_found"],
    handle: (ctx, req) => {
      const code = req.params.code as ProblemCodeName;
      if (!Object.hasOwn(problemCodes, code)) throw new ApiProblem("not_found", `No error code ${code}.`);
      return { status: 200, body: describe(ctx.baseUrl, code) };
    },
  },
);
