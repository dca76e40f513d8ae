/**
 * The credentials of a configuration whose frontend imports from `importedMembers` (Terraform: HCL and
 * CDKTF; Pulumi). A credential the API reads back masked (a webhook's header values) cannot be shown
 * unchanged at import, since nobody knows it: the member holding it is left out, as those imports leave it
 * unset, and the object keeps its value. Every other credential is a variable of the configuration.
 */
import { tokensOf } from "../pointer.ts";
import type { ExportGraph, ExportObject, ExportVariable } from "./graph.ts";

export interface ImportCredentials {
  /** The graph's `leftOut`, and each top-level member holding a masked credential. */
  leftOut: { object: ExportObject; member: string }[];
  /** The credentials written as sensitive variables. */
  variables: ExportVariable[];
  isLeftOut(object: ExportObject, member: string): boolean;
}

export function importCredentials(graph: ExportGraph): ImportCredentials {
  const masked = new Map<ExportObject, Set<string>>();
  for (const v of graph.variables.filter((v) => v.masked)) {
    const members = masked.get(v.object) ?? new Set<string>();
    members.add(tokensOf(v.pointer)[0]!);
    masked.set(v.object, members);
  }
  const isLeftOut = (object: ExportObject, member: string) => masked.get(object)?.has(member) ?? false;
  return {
    leftOut: [
      ...graph.leftOut,
      ...[...masked].flatMap(([object, members]) => [...members].map((member) => ({ object, member }))),
    ],
    variables: graph.variables.filter((v) => !isLeftOut(v.object, tokensOf(v.pointer)[0]!)),
    isLeftOut,
  };
}
