import type { z } from "zod";
import type { accountPatchSchema } from "../kinds/account.ts";
import {
  type alertSubscriptionSchema,
  contactGroupKind,
  contactKind,
  type contactMembership,
  maintenanceKind,
  monitorKind,
  type reportSubscriptionSchema,
  type statusPageComponentsBody,
  type statusPageDeleteReceipt,
  type statusPageIncidentSchema,
  statusPageKind,
  type statusPageSubscriberSchema,
  statusPageTemplateKind,
  type statusPageTimelineEntrySchema,
  type webhookDeliverySchema,
  webhookKind,
  type webhookReadSchema,
  type webhookSchema,
  type webhookTestResult,
} from "../kinds/index.ts";
import type { JobItemStatus } from "../kinds/job.ts";
import {
  type BulkOptions,
  type BulkValidation,
  childResource,
  type DeleteReceipt,
  invoke,
  job,
  listOf,
  type ReadOptions,
  resource,
  respond,
  type WriteOptions,
  withCallback,
} from "./calls.ts";
import {
  type Job,
  type JobAccepted,
  type JobOutcome,
  type JobRunOptions,
  jobResults,
  waitForJob,
} from "./jobs.ts";
import type { Caller, QueryValue } from "./types.ts";

type MonitorBody = z.input<typeof monitorKind.schema>;
type ContactBody = z.input<typeof contactKind.schema>;
type Monitor = z.output<typeof monitorKind.schema>;

function monitors(caller: Caller) {
  return {
    ...resource(caller, monitorKind),
    /** Judges every item as the job would, changing nothing. */
    bulkValidate: (items: MonitorBody[], options: WriteOptions = {}) =>
      invoke<BulkValidation>(caller, "POST", "/monitor/bulk-validate", { body: { items }, ...options }),
    bulkCreate: (items: MonitorBody[], options: BulkOptions = {}) =>
      job(caller, "/monitor/bulk", [], withCallback({ items }, options), options),
    bulkUpdateValidate: (items: (MonitorBody & { id: string })[], options: WriteOptions = {}) =>
      invoke<BulkValidation>(caller, "POST", "/monitor/bulk-update-validate", {
        body: { items },
        ...options,
      }),
    bulkUpdate: (items: (MonitorBody & { id: string })[], options: BulkOptions = {}) =>
      job(caller, "/monitor/bulk-update", [], withCallback({ items }, options), options),
    /** Phase one of the safe delete: what the filter selects now. */
    bulkDeleteValidate: (filter: Record<string, QueryValue>, options: WriteOptions = {}) =>
      invoke<{ matched: number; sample: Monitor[] }>(caller, "POST", "/monitor/bulk-delete-validate", {
        body: { filter },
        ...options,
      }),
    /** Phase two: deletes only when the selection still counts `expectedCount` (else 409 selection_mismatch). */
    bulkDelete: (filter: Record<string, QueryValue>, expectedCount: number, options: BulkOptions = {}) =>
      job(caller, "/monitor/bulk-delete", [], withCallback({ filter, expectedCount }, options), options),
    resetStats: (id: string, options: BulkOptions = {}) =>
      job(caller, "/monitor/{id}/reset-stats", [id], withCallback({}, options), options),
    /** Copies a monitor to new addresses: at once up to 10, as a job above. */
    copy: async (
      id: string,
      urls: string[],
      options: BulkOptions & { onOverlimit?: "fail" | "disable" } = {},
    ): Promise<{ monitors: Monitor[] } | { job: JobOutcome }> => {
      const body = withCallback(
        { urls, ...(options.onOverlimit && { onOverlimit: options.onOverlimit }) },
        options,
      );
      const res = await respond<{ data: Monitor[] } | JobAccepted>(caller, "POST", "/monitor/{id}/copy", {
        params: [id],
        body,
        idempotencyKey: options.idempotencyKey,
        signal: options.signal,
      });
      if (res.status !== 202) return { monitors: (res.body as { data: Monitor[] }).data };
      return { job: await waitForJob(caller, (res.body as JobAccepted).jobId, options) };
    },
    validateCron: (cronSchedule: string, options: ReadOptions = {}) =>
      invoke<Record<string, unknown>>(caller, "POST", "/monitor/validate-cron", {
        body: { cronSchedule },
        quotaClass: "read",
        signal: options.signal,
      }),
    /** The monitor's maintenance windows. */
    maintenance: (id: string) => listOf<Maintenance>(caller, "/monitor/{id}/maintenance", [id]),
  };
}

type Maintenance = z.output<typeof maintenanceKind.schema>;

function contacts(caller: Caller) {
  return {
    ...resource(caller, contactKind),
    bulkValidate: (items: ContactBody[], options: WriteOptions = {}) =>
      invoke<BulkValidation>(caller, "POST", "/contact/bulk-validate", { body: { items }, ...options }),
    bulkWrite: (items: ContactBody[], options: BulkOptions = {}) =>
      job(caller, "/contact/bulk", [], withCallback({ items }, options), options),
    bulkDeleteValidate: (filter: Record<string, QueryValue>, options: WriteOptions = {}) =>
      invoke<{ matched: number; sample: unknown[] }>(caller, "POST", "/contact/bulk-delete-validate", {
        body: { filter },
        ...options,
      }),
    bulkDelete: (filter: Record<string, QueryValue>, expectedCount: number, options: BulkOptions = {}) =>
      job(caller, "/contact/bulk-delete", [], withCallback({ filter, expectedCount }, options), options),
    /** Replaces the contact's group memberships. */
    setGroups: (id: string, groups: z.input<typeof contactMembership>[], options: WriteOptions = {}) =>
      invoke<unknown>(caller, "PUT", "/contact/{id}/group", { params: [id], body: { groups }, ...options }),
  };
}

function contactGroups(caller: Caller) {
  return {
    ...resource(caller, contactGroupKind),
    /** Applies the group's members to monitors as subscriptions. */
    apply: (id: string, body: Record<string, unknown>, options: WriteOptions = {}) =>
      invoke<unknown>(caller, "POST", "/contact/group/{id}/apply", { params: [id], body, ...options }),
  };
}

/**
 * One kind of subscription (`alert` or `report`): nested under a monitor or a
 * contact (PUT/GET/DELETE one pair, list and clear one side), and the flat
 * account-wide lists.
 */
function subscriptions<Row, Body>(caller: Caller, name: "alert" | "report") {
  const side = (parent: "monitor" | "contact", other: string) => {
    const pair = `/${parent}/{id}/${name}/{${other}}`;
    const all = `/${parent}/{id}/${name}`;
    return {
      put: (id: string, otherId: string, body: Body, options: WriteOptions = {}) =>
        invoke<Row>(caller, "PUT", pair, { params: [id, otherId], body, ...options }),
      get: (id: string, otherId: string, options: ReadOptions = {}) =>
        invoke<Row>(caller, "GET", pair, { params: [id, otherId], signal: options.signal }),
      delete: (id: string, otherId: string, options: WriteOptions = {}) =>
        invoke<unknown>(caller, "DELETE", pair, { params: [id, otherId], ...options }),
      list: (id: string) => listOf<Row>(caller, all, [id]),
      /** Removes every subscription of this side. */
      clear: (id: string, options: WriteOptions = {}) =>
        invoke<unknown>(caller, "DELETE", all, { params: [id], ...options }),
    };
  };
  return {
    ofMonitor: side("monitor", "contactId"),
    ofContact: side("contact", "monitorId"),
    /** Every subscription of the account. */
    list: listOf<Row>(caller, `/${name}`),
    byMonitor: listOf<Record<string, unknown>>(caller, `/${name}/by-monitor`),
    byContact: listOf<Record<string, unknown>>(caller, `/${name}/by-contact`),
    get: (id: string, options: ReadOptions = {}) =>
      invoke<Row>(caller, "GET", `/${name}/{id}`, { params: [id], signal: options.signal }),
    bulk: (body: Record<string, unknown>, options: WriteOptions = {}) =>
      invoke<unknown>(caller, "POST", `/${name}/bulk`, { body, ...options }),
  };
}

type Incident = z.output<typeof statusPageIncidentSchema>;
type Subscriber = z.output<typeof statusPageSubscriberSchema>;
type StatusPage = z.output<typeof statusPageKind.schema>;

function statusPages(caller: Caller) {
  const base = resource(caller, statusPageKind);
  const incident = "/statuspage/{id}/incident/{incidentId}";
  const subscriber = "/statuspage/{id}/subscriber/{subscriberId}";
  return {
    ...base,
    delete: (id: string, options: WriteOptions = {}) =>
      invoke<z.output<typeof statusPageDeleteReceipt>>(caller, "DELETE", "/statuspage/{id}", {
        params: [id],
        ...options,
      }),
    /** Replaces the page's whole component set. */
    putComponents: (id: string, body: z.input<typeof statusPageComponentsBody>, options: WriteOptions = {}) =>
      invoke<StatusPage>(caller, "PUT", "/statuspage/{id}/component", { params: [id], body, ...options }),
    incidents: {
      list: (pageId: string) => listOf<Incident>(caller, "/statuspage/{id}/incident", [pageId]),
      create: (pageId: string, body: z.input<typeof statusPageIncidentSchema>, options: WriteOptions = {}) =>
        invoke<Incident>(caller, "POST", "/statuspage/{id}/incident", { params: [pageId], body, ...options }),
      get: (pageId: string, id: string, options: ReadOptions = {}) =>
        invoke<Incident>(caller, "GET", incident, { params: [pageId, id], signal: options.signal }),
      update: (
        pageId: string,
        id: string,
        body: z.input<typeof statusPageIncidentSchema>,
        options: WriteOptions = {},
      ) => invoke<Incident>(caller, "PATCH", incident, { params: [pageId, id], body, ...options }),
      delete: (pageId: string, id: string, options: WriteOptions = {}) =>
        invoke<DeleteReceipt>(caller, "DELETE", incident, { params: [pageId, id], ...options }),
      /** Appends a timeline post (and moves the incident to its state). */
      post: (
        pageId: string,
        id: string,
        body: z.input<typeof statusPageTimelineEntrySchema>,
        options: WriteOptions = {},
      ) =>
        invoke<Incident>(caller, "POST", `${incident}/timeline`, { params: [pageId, id], body, ...options }),
    },
    templates: childResource(caller, statusPageTemplateKind),
    subscribers: {
      list: (pageId: string) => listOf<Subscriber>(caller, "/statuspage/{id}/subscriber", [pageId]),
      create: (
        pageId: string,
        body: z.input<typeof statusPageSubscriberSchema>,
        options: WriteOptions = {},
      ) =>
        invoke<Subscriber>(caller, "POST", "/statuspage/{id}/subscriber", {
          params: [pageId],
          body,
          ...options,
        }),
      get: (pageId: string, id: string, options: ReadOptions = {}) =>
        invoke<Subscriber>(caller, "GET", subscriber, { params: [pageId, id], signal: options.signal }),
      delete: (pageId: string, id: string, options: WriteOptions = {}) =>
        invoke<DeleteReceipt>(caller, "DELETE", subscriber, { params: [pageId, id], ...options }),
    },
  };
}

type Webhook = z.output<typeof webhookReadSchema>;
type Delivery = z.output<typeof webhookDeliverySchema>;

function webhooks(caller: Caller) {
  const base = resource(caller, webhookKind);
  return {
    ...base,
    // Webhooks read back with their scope's monitorCount and the secret masked (in full once, on create and rotate).
    get: (id: string, options: ReadOptions = {}) => base.get(id, options) as Promise<Webhook>,
    create: (body: z.input<typeof webhookSchema>, options: WriteOptions = {}) =>
      base.create(body, options) as Promise<Webhook>,
    update: (id: string, body: z.input<typeof webhookSchema>, options: WriteOptions = {}) =>
      base.update(id, body, options) as Promise<Webhook>,
    /** A new secret, answered once; the old one keeps signing for 24 hours. */
    rotateSecret: (id: string, options: WriteOptions = {}) =>
      base.update(id, { secret: { rotate: true } }, options) as Promise<Webhook>,
    deliveries: (id: string) => listOf<Delivery>(caller, "/webhook/{id}/delivery", [id]),
    redeliver: (id: string, deliveryId: string, options: WriteOptions = {}) =>
      invoke<Delivery>(caller, "POST", "/webhook/{id}/delivery/{deliveryId}/redeliver", {
        params: [id, deliveryId],
        ...options,
      }),
    test: (id: string, options: WriteOptions = {}) =>
      invoke<z.output<typeof webhookTestResult>>(caller, "POST", "/webhook/{id}/test", {
        params: [id],
        ...options,
      }),
  };
}

function jobs(caller: Caller) {
  return {
    ...listOf<Job>(caller, "/job"),
    get: (id: string, query: { limit?: number; cursor?: string; status?: readonly JobItemStatus[] } = {}) =>
      invoke<Job>(caller, "GET", "/job/{id}", { params: [id], query: { ...query } }),
    results: (id: string, options: { pageSize?: number; status?: readonly JobItemStatus[] } = {}) =>
      jobResults(caller, id, options),
    /** Waits for a job submitted earlier (say, before a crash) and reads its results. */
    wait: (id: string, options: JobRunOptions = {}) => waitForJob(caller, id, options),
    cancel: (id: string, options: WriteOptions = {}) =>
      invoke<Job>(caller, "POST", "/job/{id}/cancel", { params: [id], ...options }),
    /** Resumes an `interrupted` job and waits for it. */
    resume: async (id: string, options: WriteOptions & JobRunOptions = {}) => {
      await invoke<JobAccepted>(caller, "POST", "/job/{id}/resume", { params: [id], ...options });
      return waitForJob(caller, id, options);
    },
  };
}

type Json = Record<string, unknown>;

function account(caller: Caller) {
  return {
    get: () => invoke<Json>(caller, "GET", "/account"),
    update: (body: z.input<typeof accountPatchSchema>, options: WriteOptions = {}) =>
      invoke<Json>(caller, "PATCH", "/account", { body, ...options }),
    usage: () => invoke<Json>(caller, "GET", "/account/usage"),
    /** The quota windows now; reading them spends nothing. */
    // Spends nothing, so it is not paced (and must not teach the pacer that reads are unmetered).
    quota: () => invoke<Json>(caller, "GET", "/account/quota", { unpaced: true }),
    members: () => invoke<Json>(caller, "GET", "/account/member"),
  };
}

/** The public catalogues: anonymous calls, paced by their own per-address bucket. */
function catalogue(caller: Caller) {
  const get = (template: string, params: string[] = []) =>
    invoke<Json>(caller, "GET", template, { params, quotaClass: "anonymous" });
  return {
    monitorTypes: () => get("/monitor/type"),
    monitorType: (type: string) => get("/monitor/type/{type}", [type]),
    monitorTypeSchema: () => get("/monitor/type/schema"),
    agents: listOf<Json>(caller, "/agent", [], "anonymous"),
    agentIps: listOf<Json>(caller, "/agent/ip", [], "anonymous"),
    agentPools: () => get("/agent/pool"),
    contactTypes: () => get("/contact/type"),
    alertTypes: () => get("/alert/type"),
    reportTypes: () => get("/report/type"),
    checkTypes: () => get("/check/type"),
    problem: (code: string) => get("/problems/{code}", [code]),
  };
}

/** Every typed operation, on one caller. */
export function operations(caller: Caller) {
  return {
    monitors: monitors(caller),
    contacts: contacts(caller),
    contactGroups: contactGroups(caller),
    alertSubscriptions: subscriptions<
      z.output<typeof alertSubscriptionSchema>,
      Pick<z.input<typeof alertSubscriptionSchema>, "alertTypes">
    >(caller, "alert"),
    reportSubscriptions: subscriptions<
      z.output<typeof reportSubscriptionSchema>,
      Pick<z.input<typeof reportSubscriptionSchema>, "frequencies">
    >(caller, "report"),
    maintenance: resource(caller, maintenanceKind),
    statusPages: statusPages(caller),
    webhooks: webhooks(caller),
    jobs: jobs(caller),
    account: account(caller),
    catalogue: catalogue(caller),
  };
}

export type Operations = ReturnType<typeof operations>;
