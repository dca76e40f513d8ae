/**
 * Members of every kind but the monitor (which its frontends' tests cover on their own), and a change of each,
 * for the provider tests of both Terraform and Pulumi: one case per kind, written once. The table is keyed by
 * `KindName`, so a kind added to the registry fails to compile here until it has its case.
 */
import type { KindName } from "../../src/engine/index.ts";

const day = 86_400;
const future = () => Math.floor(Date.now() / 1000) + 30 * day;
const unique = () => Math.random().toString(36).slice(2, 10);

export interface KindCase {
  members: Record<string, unknown>;
  change: Record<string, unknown>;
  /** The members whose change replaces the object (a kind without an update); absent, it updates in place. */
  replaces?: readonly string[];
}

/** What the cases point at: a monitor, a contact and a status page. */
export interface CaseTargets {
  monitorId: string;
  contactId: string;
  pageId: string;
}

export const kindCases: Record<Exclude<KindName, "monitor">, (targets: CaseTargets) => KindCase> = {
  contact: () => ({
    members: {
      type: "http",
      address: `https://hooks.example.com/${unique()}`,
      name: "Pager",
      httpHeaders: [{ header: "Authorization", value: "Bearer secret-token" }],
    },
    change: { name: "Pager (night)" },
  }),
  contactGroup: ({ contactId }) => ({
    members: { name: `SRE ${unique()}`, members: [{ contactId, events: ["down", "up"] }] },
    change: { members: [{ contactId, events: ["down"] }] },
  }),
  alertSubscription: ({ monitorId, contactId }) => ({
    members: { monitorId, contactId, alertTypes: ["down", "up"] },
    change: { alertTypes: ["down"] },
  }),
  reportSubscription: ({ monitorId, contactId }) => ({
    members: { monitorId, contactId, frequencies: ["weekly"] },
    change: { frequencies: ["weekly", "monthly"] },
  }),
  maintenance: ({ monitorId }) => ({
    members: { name: "Deploy", from: future(), to: future() + 3600, monitorIds: [monitorId] },
    change: { name: "Deploy window", repeat: "weekly" },
  }),
  statusPage: ({ monitorId }) => ({
    members: {
      slug: `status-${unique()}`,
      title: "Status",
      components: [
        { name: "Shop", monitorId },
        { name: "Support", manualState: "operational" },
      ],
    },
    change: { title: "Shop status", components: [{ name: "Shop", monitorId }] },
  }),
  // Templates have no update: every member is immutable, so the change replaces.
  statusPageTemplate: ({ pageId }) => ({
    members: { pageId, title: `Checkout down ${unique()}`, message: "Payments fail." },
    change: { message: "Payments fail; a fix is on its way." },
    replaces: ["message"],
  }),
  webhook: ({ monitorId }) => ({
    members: {
      url: `https://hooks.example.com/${unique()}`,
      events: ["monitor.down", "monitor.up"],
      scope: { monitorIds: [monitorId] },
      secret: "sandbox-webhook-secret-0123456789",
    },
    change: { events: ["monitor.down"], secret: "another-webhook-secret-0123456789" },
  }),
};
