import { reportFrequencies } from "../../kinds/index.ts";

/**
 * Plan tiers. Quotas are the spec's; feature sets and counts are ours (the
 * spec says plans control them but shows no numbers). `feature` names are the
 * ones 403 `package_limit` reports.
 */
export type PlanName = "trial" | "business" | "enterprise";
export const planNames: PlanName[] = ["trial", "business", "enterprise"];

export interface QuotaLimits {
  readPerMinute: number;
  readPerMonth: number;
  writePerMinute: number;
  writePerMonth: number;
}

export interface Plan {
  name: PlanName;
  quotas: { account: QuotaLimits; check: QuotaLimits };
  /** Entitlements; booleans gate a feature, numbers cap a count. */
  features: {
    monitors: number;
    apiTask: boolean;
    waterfall: boolean;
    contentCheck: boolean;
    tranCount: number;
    webRisk: boolean;
    privateChecks: boolean;
    cron: boolean;
    fullLog: boolean;
    /** `GET /monitor/incident/{id}/check`: the failing checks of an incident. */
    incidentChecks: boolean;
    dnsManual: boolean;
    dnsPublic: boolean;
    sslPolicy: boolean;
    certRevocation: boolean;
    assertions: number;
    attachedChecks: boolean;
    statusPages: number;
    webhooks: number;
    smsContacts: boolean;
    voiceContacts: boolean;
    reportFrequencies: readonly string[];
    subaccounts: number;
    apiEnabled: boolean;
  };
  limits: { intervals: number[]; maxBulkItems: number; maxInlineContacts: number };
  smsBalance: number;
}

export const plans: Record<PlanName, Plan> = {
  trial: {
    name: "trial",
    quotas: {
      account: { readPerMinute: 10, readPerMonth: 10000, writePerMinute: 5, writePerMonth: 500 },
      check: { readPerMinute: 5, readPerMonth: 1000, writePerMinute: 2, writePerMonth: 100 },
    },
    features: {
      monitors: 50,
      apiTask: false,
      waterfall: false,
      contentCheck: false,
      tranCount: 0,
      webRisk: false,
      privateChecks: false,
      cron: false,
      fullLog: false,
      incidentChecks: false,
      dnsManual: false,
      dnsPublic: false,
      sslPolicy: false,
      certRevocation: false,
      assertions: 0,
      attachedChecks: false,
      statusPages: 1,
      webhooks: 20,
      smsContacts: true,
      voiceContacts: false,
      reportFrequencies: ["weekly", "monthly"],
      subaccounts: 0,
      apiEnabled: true,
    },
    limits: { intervals: [180, 300, 600, 900, 1800, 3600], maxBulkItems: 100, maxInlineContacts: 5 },
    smsBalance: 0,
  },
  business: {
    name: "business",
    quotas: {
      account: { readPerMinute: 60, readPerMonth: 100000, writePerMinute: 30, writePerMonth: 20000 },
      check: { readPerMinute: 30, readPerMonth: 20000, writePerMinute: 10, writePerMonth: 5000 },
    },
    features: {
      monitors: 20000,
      apiTask: true,
      waterfall: true,
      contentCheck: true,
      tranCount: 25,
      webRisk: true,
      privateChecks: false,
      cron: true,
      fullLog: true,
      incidentChecks: true,
      dnsManual: true,
      dnsPublic: true,
      sslPolicy: true,
      certRevocation: false,
      assertions: 10,
      attachedChecks: true,
      statusPages: 10,
      webhooks: 20,
      smsContacts: true,
      voiceContacts: true,
      reportFrequencies: ["daily", "weekly", "monthly", "quarterly"],
      subaccounts: 10,
      apiEnabled: true,
    },
    limits: {
      intervals: [30, 60, 120, 180, 300, 600, 900, 1800, 3600],
      maxBulkItems: 1000,
      maxInlineContacts: 10,
    },
    smsBalance: 100,
  },
  enterprise: {
    name: "enterprise",
    quotas: {
      account: { readPerMinute: 120, readPerMonth: 1000000, writePerMinute: 60, writePerMonth: 100000 },
      check: { readPerMinute: 60, readPerMonth: 100000, writePerMinute: 30, writePerMonth: 20000 },
    },
    features: {
      monitors: 100000,
      apiTask: true,
      waterfall: true,
      contentCheck: true,
      tranCount: 250,
      webRisk: true,
      privateChecks: true,
      cron: true,
      fullLog: true,
      incidentChecks: true,
      dnsManual: true,
      dnsPublic: true,
      sslPolicy: true,
      certRevocation: true,
      assertions: 20,
      attachedChecks: true,
      statusPages: 100,
      webhooks: 20,
      smsContacts: true,
      voiceContacts: true,
      reportFrequencies,
      subaccounts: 100,
      apiEnabled: true,
    },
    limits: {
      intervals: [10, 20, 30, 60, 120, 180, 300, 600, 900, 1800, 3600],
      maxBulkItems: 5000,
      maxInlineContacts: 20,
    },
    smsBalance: 1000,
  },
};
