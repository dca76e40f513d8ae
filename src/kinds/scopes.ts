/** Token scopes of API v2: leaves, families, and the retired names the mint refuses. */

export const scopeFamilies = [
  "monitor",
  "contact",
  "subs",
  "webhook",
  "statuspage",
  "account",
  "check",
] as const;
export type ScopeFamily = (typeof scopeFamilies)[number];

export const leafScopes = [
  "monitor:read",
  "monitor:write",
  "contact:read",
  "contact:write",
  "subs:read",
  "webhook:read",
  "webhook:write",
  "statuspage:read",
  "statuspage:write",
  "account:read",
  "account:write",
  "check:read",
  "check:write",
] as const;
export type LeafScope = (typeof leafScopes)[number];
export type Scope = LeafScope | ScopeFamily;

/** Refused when minting; satisfy nothing when presented. */
export const retiredScopes = ["ic", "ic:read", "ic:write", "subs:write"] as const;

export const scopeDescriptions: Record<Scope, string> = {
  monitor: "Every monitor scope.",
  "monitor:read": "Read monitors, results, incidents, maintenance, subscriptions of a monitor.",
  "monitor:write": "Create, change and delete monitors, maintenance and their subscriptions.",
  contact: "Every contact scope.",
  "contact:read": "Read contacts, groups and notifications.",
  "contact:write": "Create, change and delete contacts, groups and their subscriptions.",
  subs: "Every subscription-list scope.",
  "subs:read": "Read the account-wide flat subscription lists.",
  webhook: "Every webhook scope.",
  "webhook:read": "Read webhooks and deliveries.",
  "webhook:write": "Create, change, test and delete webhooks.",
  statuspage: "Every status page scope.",
  "statuspage:read": "Read status pages and their children.",
  "statuspage:write": "Create, change and delete status pages and their children.",
  account: "Every account scope.",
  "account:read": "Read the account, usage, quota and members.",
  "account:write": "Change account settings.",
  check: "Every instant-check scope.",
  "check:read": "Read instant checks.",
  "check:write": "Run instant checks.",
};

/** Rule 1 and 2: a scope family satisfies every leaf under it; a leaf satisfies only itself. */
export function scopeSatisfies(granted: readonly string[], required: LeafScope): boolean {
  const scopeFamily = required.slice(0, required.indexOf(":"));
  return granted.includes(required) || granted.includes(scopeFamily);
}

export function isMintableScope(scope: string): scope is Scope {
  return (
    (scopeFamilies as readonly string[]).includes(scope) || (leafScopes as readonly string[]).includes(scope)
  );
}
