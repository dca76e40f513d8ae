/** Hand-built plans, shaped as the engine makes them (src/engine/model.ts, docs/plan-format.md). */
import type { Plan, PlannedAction, PlanSummary } from "../../../src/engine/model.ts";

export function planOf(actions: PlannedAction[], warnings: string[] = []): Plan {
  const summary: PlanSummary = {
    create: 0,
    update: 0,
    replace: 0,
    delete: 0,
    forget: 0,
    import: 0,
    "no-op": 0,
  };
  for (const a of actions) summary[a.action]++;
  return {
    format_version: "1.0",
    created: 1795252753,
    lineage: "5f0c2b1e-7d3a-4c8e-9f10-2a3b4c5d6e7f",
    serial: 12,
    accountId: "acc_7Hq2",
    configDigest: "sha256:0c1d",
    syncCursors: { monitor: "c_91", contact: "c_12" },
    liveCounts: { monitor: 14, contact: 4, alertSubscription: 6, reportSubscription: 2, webhook: 1 },
    actions,
    summary,
    warnings,
  };
}

const observed = { updated: 1795252001, digest: "sha256:9a" };

/** Every action type, in the engine's order: forgets and no-ops, then by kind, then deletes dependents first. */
export const everyAction: PlannedAction[] = [
  {
    address: "contacts.pager",
    kind: "contact",
    action: "forget",
    id: "c-0042",
    reasons: ["not in the config; retainOnDelete keeps the object"],
    changes: [],
  },
  {
    address: "contacts.old-sms",
    kind: "contact",
    action: "forget",
    id: "c-0043",
    reasons: ["already deleted outside vigil"],
    changes: [],
  },
  {
    address: "contacts.team-email",
    kind: "contact",
    action: "no-op",
    id: "c-0007",
    reasons: [],
    changes: [],
    observed,
  },
  {
    address: "contacts.oncall",
    kind: "contact",
    action: "create",
    reasons: [],
    changes: [
      { op: "add", path: "/type", value: "http" },
      { op: "add", path: "/address", value: "https://hooks.example.com/pager" },
      { op: "add", path: "/name", value: "On-call pager" },
    ],
  },
  {
    address: "contacts.ops-sms",
    kind: "contact",
    action: "replace",
    id: "c-0011",
    reasons: ["type cannot change in place"],
    replaceOrder: "delete-first",
    changes: [{ op: "replace", path: "/type", value: "sms", before: "voice" }],
    observed,
  },
  {
    address: "monitors.search-api",
    kind: "monitor",
    action: "create",
    reasons: [],
    changes: [
      { op: "add", path: "/type", value: "http" },
      { op: "add", path: "/url", value: "https://search.example.com/health" },
      { op: "add", path: "/name", value: "Search API" },
      { op: "add", path: "/tags", value: ["search", "prod"] },
      { op: "add", path: "/settings", value: { method: "G", timeout: 10000, keywords: "ok" } },
      { op: "add", path: "/locations", value: { pools: ["westeurope", "northamerica"] } },
    ],
  },
  {
    address: "monitors.billing",
    kind: "monitor",
    action: "create",
    reasons: [],
    changes: [
      { op: "add", path: "/type", value: "http" },
      { op: "add", path: "/url", value: "https://billing.example.com/health" },
      {
        op: "add",
        path: "/settings",
        value: { method: "G", username: "probe", password: "(sensitive)" },
        sensitive: true,
      },
    ],
  },
  {
    address: "monitors.checkout-api",
    kind: "monitor",
    action: "update",
    id: "9d1c0b7e-1111-4000-8000-000000000001",
    reasons: ["drift: changed outside vigil"],
    changes: [
      { op: "replace", path: "/interval", value: 60, before: 300, drift: true },
      { op: "remove", path: "/slaTarget", before: 99.9 },
      { op: "add", path: "/tags", value: ["shop", "prod"] },
      { op: "replace", path: "/settings/timeout", value: 10000, before: 30000 },
      {
        op: "replace",
        path: "/settings/password",
        value: "(sensitive)",
        before: "(sensitive, differs)",
        sensitive: true,
        drift: true,
      },
      {
        op: "add",
        path: "/settings/headers",
        value: [
          { name: "X-Probe", value: "vigil" },
          { name: "Accept-Language", value: "en" },
        ],
      },
      {
        op: "replace",
        path: "/settings/body",
        value: '{\n  "cart": "probe",\n  "items": 2,\n  "currency": "EUR"\n}',
        before: '{\n  "cart": "probe",\n  "items": 1,\n  "currency": "EUR"\n}',
      },
    ],
    observed,
  },
  {
    address: "monitors.status-ping",
    kind: "monitor",
    action: "replace",
    id: "5e6f0000-2222-4000-8000-000000000002",
    reasons: ["type cannot change in place"],
    replaceOrder: "create-first",
    changes: [{ op: "replace", path: "/type", value: "keyword", before: "http" }],
    observed,
  },
  {
    address: "monitors.legacy-home",
    kind: "monitor",
    action: "import",
    id: "0f8b6c1e-0000-4000-8000-000000000000",
    reasons: ["import of 0f8b6c1e-0000-4000-8000-000000000000"],
    changes: [{ op: "replace", path: "/name", value: "Legacy home", before: "Home page" }],
    observed,
  },
  {
    address: "monitors.checkout-api.reports.team-email",
    kind: "reportSubscription",
    action: "create",
    reasons: [],
    changes: [
      { op: "add", path: "/monitorId", value: "9d1c0b7e-1111-4000-8000-000000000001" },
      { op: "add", path: "/contactId", value: { $unknown: "contacts.oncall" }, unknown: true },
      { op: "add", path: "/frequencies", value: ["weekly"] },
    ],
  },
  {
    address: "monitors.status-ping.alerts.oncall",
    kind: "alertSubscription",
    action: "replace",
    id: "as-0031",
    reasons: ["monitorId cannot change in place"],
    replaceOrder: "create-first",
    cascadedBy: "monitors.status-ping",
    changes: [
      {
        op: "replace",
        path: "/monitorId",
        value: { $unknown: "monitors.status-ping" },
        before: "5e6f0000-2222-4000-8000-000000000002",
        unknown: true,
      },
    ],
    observed,
  },
  {
    address: "maintenance.weekly-deploy",
    kind: "maintenance",
    action: "update",
    id: "mw-0003",
    reasons: [],
    changes: [
      {
        op: "replace",
        path: "/monitorIds",
        value: [
          "9d1c0b7e-1111-4000-8000-000000000001",
          "5e6f0000-2222-4000-8000-000000000003",
          "5e6f0000-2222-4000-8000-000000000004",
          { $unknown: "monitors.search-api" },
        ],
        before: ["9d1c0b7e-1111-4000-8000-000000000001"],
        unknown: true,
      },
    ],
    observed,
  },
  {
    address: "webhooks.ops",
    kind: "webhook",
    action: "create",
    reasons: ["deleted outside vigil"],
    changes: [
      { op: "add", path: "/url", value: "https://hooks.example.com/vigil" },
      { op: "add", path: "/events", value: ["monitor.down", "monitor.up"] },
    ],
  },
  {
    address: "monitors.old-shop.alerts.oncall",
    kind: "alertSubscription",
    action: "delete",
    id: "as-0012",
    reasons: ["not in the config"],
    cascadedBy: "monitors.old-shop",
    changes: [],
    observed,
  },
  {
    address: "monitors.old-shop.reports.team-email",
    kind: "reportSubscription",
    action: "delete",
    id: "rs-0004",
    reasons: ["not in the config"],
    cascadedBy: "monitors.old-shop",
    changes: [],
    observed,
  },
  {
    address: "monitors.old-shop",
    kind: "monitor",
    action: "delete",
    id: "7a7a0000-3333-4000-8000-000000000005",
    reasons: ["not in the config"],
    changes: [],
    observed,
  },
];

export const noStateWarning =
  "No state: resources removed from the config cannot be deleted, since vigil does not know which objects it managed. Live objects matching the config are imported by their natural keys.";

export const fullPlan = planOf(everyAction, [noStateWarning]);

/** Where the config declares each address, as the CLI passes them. */
export const sources = new Map([
  ["contacts.oncall", "contacts.yaml:2"],
  ["contacts.ops-sms", "contacts.yaml:5"],
  ["monitors.search-api", "monitors/search.yaml:1"],
  ["monitors.billing", "monitors/billing.yaml:1"],
  ["monitors.checkout-api", "monitors/shop.yaml:3"],
  ["monitors.status-ping", "monitors/shop.yaml:24"],
  ["monitors.legacy-home", "monitors/legacy.yaml:1"],
  ["monitors.checkout-api.reports.team-email", "monitors/shop.yaml:19"],
  ["monitors.status-ping.alerts.oncall", "monitors/shop.yaml:31"],
  ["maintenance.weekly-deploy", "maintenance.yaml:2"],
  ["webhooks.ops", "webhooks.yaml:2"],
]);

/** A plan with nothing to do: every resource matches. */
export const emptyPlan = planOf([
  {
    address: "contacts.oncall",
    kind: "contact",
    action: "no-op",
    id: "c-0001",
    reasons: [],
    changes: [],
    observed,
  },
  {
    address: "monitors.checkout-api",
    kind: "monitor",
    action: "no-op",
    id: "9d1c0b7e-1111-4000-8000-000000000001",
    reasons: [],
    changes: [],
    observed,
  },
]);
