/** Why a plan cannot be made: a stable `code` and its `data`, for frontends to decide on, and the words. */
export interface PlanProblem {
  /** The resource's address (`""` for a problem of the request, such as an unknown target). */
  address: string;
  /**
   * `unknown_target` `{target}`, `import_not_declared`, `import_not_found` `{kind, id}`,
   * `import_managed_elsewhere` `{id, owner}`, `ambiguous_natural_key` `{kind}`, `import_differs`
   * `{replaceReasons}`, `protected_replace` `{replaceReasons}`, `protected_delete`.
   */
  code: string;
  data: Readonly<Record<string, unknown>>;
  message: string;
}

/** The reason of a create whose object was deleted outside vigil (refresh-only plans forget it instead). */
export const deletedOutside = "deleted outside vigil";
/** The reason of a forget whose object had gone already. */
export const alreadyDeletedOutside = "already deleted outside vigil";
