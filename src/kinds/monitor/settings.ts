import { z } from "zod";
import { httpUrl } from "../common.ts";
import { field, list } from "../field.ts";
import { attached, certWatchDays, dnsFields, httpRequestFields, tlsPolicyFields } from "./settings-fields.ts";
import type { MonitorType } from "./types.ts";

/** Per-type `settings` schemas. Every member is optional: defaults are traits, applied by the service. */

export const httpSettings = z
  .strictObject({
    ...httpRequestFields,
    keywords: field(z.string().max(255), { description: "Comma-separated words searched in the body." }),
    keywordMode: field(
      z.enum(["PresentAny", "PresentAll", "ReverseAny", "ReverseAll", "ReverseWithResult"]),
      {
        default: "PresentAny",
      },
    ),
    preset: field(z.enum(["bl:ru"]), {
      description: "Builds the entire settings object and pins locations; sent alone.",
    }),
  })
  .partial();

export const expectation = z.strictObject({
  func: z.enum(["eq", "neq", "in", "out", "ls", "le", "gt", "ge", "inr", "outr", "null", "no"]),
  args: field(list(z.string()), { default: [] }).optional(),
  change: field(z.literal([0, 1, 2]), { default: 0 }).optional(),
  cpt: field(z.enum(["", "ms", "s", "m", "h"]), { default: "" }).optional(),
});
export type Expectation = z.infer<typeof expectation>;

export const apiSettings = z
  .strictObject({
    ...httpRequestFields,
    // No preset: a preset builds http settings, which an api monitor (needing a contentType) cannot use.
    contentType: field(z.enum(["application/json", "text/xml", "text/plain"]), {
      description: "How `valueSelector` reads the body. Required unless `assertMode` is on.",
    }),
    valueSelector: field(z.string().max(1023), {
      default: "",
      description: "JSONPath/property, XPath or regex; empty = whole body.",
    }),
    expectation: field(expectation, {
      description: "Condition on the selected value; none = no validation.",
    }),
  })
  .partial();

/** Devices offered by `GET /check/device` for browser checks. */
export const devices = ["Desktop", "Laptop", "iPhone 15", "Pixel 8", "iPad"] as const;

const threshold = (max: number, description: string) =>
  field(z.number().int().min(0).max(max), { default: 0, description: `${description} 0 = off.` });

export const waterfallSettings = z
  .strictObject({
    timeout: threshold(40000, "Page load of at least this many ms fails."),
    xhr: threshold(40000, "Page load excluding XHR/fetch of at least this many ms fails."),
    totalCount: threshold(50, "Failed resources of any kind reaching this count fail."),
    onDocument: threshold(50, "Failed documents."),
    onScript: threshold(50, "Failed scripts."),
    onStylesheet: threshold(50, "Failed stylesheets."),
    onImage: threshold(50, "Failed images."),
    onFont: threshold(50, "Failed fonts."),
    onAjax: threshold(50, "Failed XHR/fetch requests."),
    onCpu: field(z.number().int().min(0).max(100), {
      default: 0,
      description: "Sustained CPU percent (80-100) above which the check fails. 0 = off.",
    }),
    onRam: threshold(1000, "Sustained memory in MB above which the check fails."),
    onConsoleWarning: threshold(50, "Console warnings."),
    onConsoleError: threshold(50, "Console errors."),
    deviceEmulation: field(z.string(), {
      default: "Desktop",
      description: "A device name from `GET /check/device`.",
    }),
  })
  .partial();

export const cntCheckSettings = z
  .strictObject({
    keyword: field(z.string().min(1).max(255), {
      description: "Required. Several keywords are separated by `;`.",
    }),
    keywordPresent: field(z.boolean(), {
      default: true,
      description: "true: must be present; false: must be absent.",
    }),
    keywordAny: field(z.boolean(), {
      default: false,
      description:
        "How the keywords combine. Despite its name, true needs every keyword and false (the default) any one: with keywordPresent true, the check fails when any keyword is missing (true) or none is found (false); with keywordPresent false, when any is found (true) or all are found (false).",
    }),
    caseSensitive: field(z.boolean(), { default: false }),
    onlyVisible: field(z.boolean(), { default: true }),
    timeout: field(z.number().int().min(50).max(120000), { default: 40000 }),
  })
  .partial();

/** A step of a scripted browser flow (shape ours; the spec shows only `checkContent`). */
export const tranStep = z.strictObject({
  action: z.enum(["navigate", "click", "type", "select", "wait", "checkContent"]),
  selector: z.string().max(1023).optional(),
  value: z.string().max(2047).optional(),
  url: httpUrl.optional(),
  keywords: z.array(z.string().min(1).max(255)).min(1).max(20).optional(),
  waitMs: z.number().int().min(0).max(40000).optional(),
  synthesized: field(z.boolean(), {
    readOnly: true,
    description: "The implicit opening step; dropped on write.",
  }).optional(),
});
export type TranStep = z.infer<typeof tranStep>;

export const tranSettings = z
  .strictObject({
    steps: field(list(tranStep), { description: "1-10 steps run in order; replaced whole on PATCH." }),
    timeout: field(z.number().int().min(0).max(40000), {
      default: 40000,
      description: "Above 40000 is refused, not clamped.",
    }),
    skipMedia: field(z.boolean(), { default: true }),
    finalScreenshot: field(z.boolean(), { default: true }),
    consoleError: field(z.boolean(), { default: false, description: "Fail on a console error." }),
    expectedConsoleErrors: field(list(z.string().max(127)).max(10), {
      default: [],
      description: "Tolerated console errors.",
    }),
  })
  .partial();

export const pingSettings = z.strictObject({ ...dnsFields, attached }).partial();

export const portSettings = z
  .strictObject({
    pattern: field(z.string().max(1023), { description: "Text expected in the banner." }),
    ssl: field(z.boolean(), { default: false, description: "Negotiate TLS." }),
    ...dnsFields,
    ...tlsPolicyFields,
    certWatchDays,
    attached,
  })
  .partial();

/** Types whose settings the spec does not show take an open object. */
export const openSettings = z.looseObject({});
export const counterSettings = z.looseObject({
  probeUrl: field(httpUrl, { description: "Address of the private probe." }).optional(),
});

/**
 * The private-probe types' settings are open too, but the spec names their
 * credentials (connection strings, community strings, keys): those members
 * are declared so they are masked like any other credential. Names are ours.
 */
const credential = (description: string) =>
  field(z.string().max(4096), { writeOnly: true, description: `Credential. ${description}` }).optional();

export const databaseSettings = z.looseObject({
  connectionString: credential("Connection string the probe uses."),
  password: credential("Password, when not part of the connection string."),
});

export const snmpSettings = z.looseObject({
  community: credential("SNMP v1/v2c community string."),
  authKey: credential("SNMP v3 authentication key."),
  privKey: credential("SNMP v3 privacy key."),
});

export const settingsByType: Record<MonitorType, z.ZodObject> = {
  http: httpSettings,
  api: apiSettings,
  waterfall: waterfallSettings,
  cntCheck: cntCheckSettings,
  tran: tranSettings,
  ping: pingSettings,
  port: portSettings,
  dnsbl: openSettings,
  domainExp: openSettings,
  sslExp: openSettings,
  webRisk: openSettings,
  counter: counterSettings,
  database: databaseSettings,
  snmp: snmpSettings,
};
