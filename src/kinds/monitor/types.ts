/** The monitor type catalogue: one row per type, read by validation and served by `GET /monitor/type`. */

export const monitorTypeNames = [
  "http",
  "api",
  "waterfall",
  "cntCheck",
  "tran",
  "ping",
  "port",
  "dnsbl",
  "domainExp",
  "sslExp",
  "webRisk",
  "counter",
  "database",
  "snmp",
] as const;
export type MonitorType = (typeof monitorTypeNames)[number];

const aliases = { pageSpeed: "waterfall" } as const satisfies Record<string, MonitorType>;

/** Input aliases accepted for `type` and stored as their canonical name. */
export const monitorTypeAliases: Record<string, MonitorType> = aliases;

/**
 * Every name a configuration may write for `type`: the canonical names, then their aliases. The one
 * vocabulary of every frontend (YAML loader and JSON Schema, Terraform, Pulumi, CDKTF, the engine): the
 * monitor kind's `type` is this enum, and each frontend derives its own from the kind.
 */
export const monitorTypeVocabulary = [
  ...monitorTypeNames,
  ...(Object.keys(aliases) as (keyof typeof aliases)[]),
] as const;

/**
 * Types that existed once and can no longer be created (422 `monitor_type_discontinued`). Not part of the
 * vocabulary: only the API names them, in its catalogue and in that refusal.
 */
export const discontinuedMonitorTypes = ["keyword", "rum"] as const;

export const isDiscontinuedMonitorType = (
  value: unknown,
): value is (typeof discontinuedMonitorTypes)[number] =>
  (discontinuedMonitorTypes as readonly unknown[]).includes(value);

export type AttachedKind = "dnsbl" | "sslExp" | "domainExp" | "webRisk";

/** Types that refuse `recheck` outright (422); other types where it has no effect accept it with a warning. */
export const recheckRefusedTypes: readonly MonitorType[] = ["cntCheck"];

export interface MonitorTypeInfo {
  label: string;
  /** Lowest interval in seconds; ignored for fixed-cadence types. */
  minInterval: number;
  /** Fixed cadence in seconds (the interval is ignored with a warning), or null. */
  fixedInterval: number | null;
  /** `required`: location-based; `refused`: no locations; `none`: private network, takes none. */
  locations: "required" | "refused" | "none";
  /** Which fleet runs the checks: `waterfall` locations drive a browser, `net` ones do not; null without locations. */
  fleet: "net" | "waterfall" | null;
  /** How `url` is used: a full http(s) URL, a host, `host:port`, or not at all. */
  url: "http" | "httpOrDomain" | "host" | "hostPort" | "hostOrUrl" | "none";
  /** Attached sub-checks this type can carry. */
  attached: readonly AttachedKind[];
  /** Plan feature that gates the type, if any. */
  feature: string | null;
  /**
   * Whether `recheck` has an effect. Without one it is still accepted (with a
   * warning) unless the type is in `recheckRefusedTypes`.
   */
  recheck: boolean;
  /** Settings members a create must carry (a counter reads its probe's URL). */
  requiredSettings?: readonly string[];
}

const allAttached = ["dnsbl", "sslExp", "domainExp", "webRisk"] as const;
const fixed6h = 6 * 3600;
const fixed12h = 12 * 3600;

export const monitorTypes: Record<MonitorType, MonitorTypeInfo> = {
  http: {
    label: "HTTP(S)",
    minInterval: 10,
    fixedInterval: null,
    locations: "required",
    fleet: "net",
    url: "httpOrDomain",
    attached: allAttached,
    feature: null,
    recheck: true,
  },
  api: {
    label: "API",
    minInterval: 30,
    fixedInterval: null,
    locations: "required",
    fleet: "net",
    url: "http",
    attached: allAttached,
    feature: "apiTask",
    recheck: true,
  },
  waterfall: {
    label: "Page load (waterfall)",
    minInterval: 600,
    fixedInterval: null,
    locations: "required",
    fleet: "waterfall",
    url: "http",
    attached: [],
    feature: "waterfall",
    recheck: true,
  },
  cntCheck: {
    label: "Rendered content",
    minInterval: 300,
    fixedInterval: null,
    locations: "required",
    fleet: "waterfall",
    url: "http",
    attached: [],
    feature: "contentCheck",
    recheck: false,
  },
  tran: {
    label: "Transaction (scripted browser flow)",
    minInterval: 300,
    fixedInterval: null,
    locations: "required",
    fleet: "waterfall",
    url: "http",
    attached: [],
    feature: "tranCount",
    recheck: true,
  },
  ping: {
    label: "Ping",
    minInterval: 10,
    fixedInterval: null,
    locations: "required",
    fleet: "net",
    url: "host",
    attached: ["dnsbl"],
    feature: null,
    recheck: true,
  },
  port: {
    label: "TCP port",
    minInterval: 10,
    fixedInterval: null,
    locations: "required",
    fleet: "net",
    url: "hostPort",
    attached: ["dnsbl"],
    feature: null,
    recheck: true,
  },
  dnsbl: {
    label: "DNS blacklist",
    minInterval: fixed6h,
    fixedInterval: fixed6h,
    locations: "refused",
    fleet: null,
    url: "hostOrUrl",
    attached: [],
    feature: null,
    recheck: false,
  },
  domainExp: {
    label: "Domain expiry",
    minInterval: fixed6h,
    fixedInterval: fixed6h,
    locations: "refused",
    fleet: null,
    url: "hostOrUrl",
    attached: [],
    feature: null,
    recheck: false,
  },
  sslExp: {
    label: "Certificate expiry",
    minInterval: fixed6h,
    fixedInterval: fixed6h,
    locations: "refused",
    fleet: null,
    url: "hostOrUrl",
    attached: [],
    feature: null,
    recheck: false,
  },
  webRisk: {
    label: "Web risk",
    minInterval: fixed12h,
    fixedInterval: fixed12h,
    locations: "refused",
    fleet: null,
    url: "hostOrUrl",
    attached: [],
    feature: "webRisk",
    recheck: false,
  },
  counter: {
    label: "Counter (private probe)",
    minInterval: 60,
    fixedInterval: null,
    locations: "none",
    fleet: null,
    url: "none",
    attached: [],
    feature: "privateChecks",
    recheck: false,
    requiredSettings: ["probeUrl"],
  },
  database: {
    label: "Database (private probe)",
    minInterval: 60,
    fixedInterval: null,
    locations: "none",
    fleet: null,
    url: "none",
    attached: [],
    feature: "privateChecks",
    recheck: true,
  },
  snmp: {
    label: "SNMP (private probe)",
    minInterval: 60,
    fixedInterval: null,
    locations: "none",
    fleet: null,
    url: "none",
    attached: [],
    feature: "privateChecks",
    recheck: true,
  },
};
