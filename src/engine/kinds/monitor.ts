import type { z } from "zod";
import {
  type MonitorType,
  membersOf,
  monitorKind,
  monitorTypes,
  normalizeSettings,
  traitsOf,
  variantOf,
  variantSchemaOf,
} from "../../kinds/index.ts";
import { isObject } from "../pointer.ts";
import { keyFrom, type Members, plainKind, readOnlyMembers, withoutMembers } from "./engine-kind.ts";

/** The monitor schema with `settings` typed for the monitor's type, so settings members carry their traits. */
const schemaFor = (members: Members): z.ZodObject => variantSchemaOf(monitorKind, members);

/** The type's canonical name (an alias resolved); a type outside the catalogue as written. */
function canonicalType(members: Members): string {
  return variantOf(monitorKind, members) ?? (typeof members.type === "string" ? members.type : "");
}

/**
 * The address as checks use it, the way the service normalises it: WHATWG URL
 * form for web addresses (a bare domain gets `http://`), lower case for hosts.
 */
function comparableAddress(type: string, url: unknown): unknown {
  if (typeof url !== "string") return url;
  const info = monitorTypes[type as MonitorType];
  if (!info) return url;
  if (info.url === "host" || info.url === "hostPort") return url.toLowerCase();
  if (info.url === "none") return url;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `http://${url}`;
  return URL.canParse(withScheme) ? new URL(withScheme).href : url;
}

/** `true`, `false` or `{enabled}` → `{enabled}`, the shape `settings.attached` reads back in. */
function attachedToggles(value: unknown): unknown {
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, { enabled: isObject(v) ? v.enabled : v }]),
  );
}

const readOnly = readOnlyMembers(monitorKind);

/** Settings members the service computes (`assertsText`, `forceRecheck`): never compared. */
function settingsReadOnly(members: Members): string[] {
  const variant = variantOf(monitorKind, members);
  const schema = variant === undefined ? undefined : monitorKind.variants?.schemas[variant];
  return schema
    ? membersOf(schema)
        .filter((m) => m.traits.readOnly)
        .map((m) => m.name)
    : [];
}

function normalize(members: Members, live: boolean): Members {
  const type = canonicalType(members);
  const info = monitorTypes[type as MonitorType];
  const out: Members = live ? withoutMembers(members, readOnly) : { ...members };
  if (members.type !== undefined) out.type = type;
  if (out.url !== undefined)
    out.url = comparableAddress(type, live ? (members.effectiveUrl ?? members.url) : out.url);
  // Fixed-cadence types ignore the interval (the service keeps its own).
  if (info?.fixedInterval) delete out.interval;
  if (isObject(out.locations)) {
    const locations = { ...out.locations };
    if (Array.isArray(locations.pools)) locations.pools = locations.pools.map((p) => String(p).toLowerCase());
    out.locations = locations;
  }
  let settings = isObject(out.settings) ? { ...out.settings } : undefined;
  // `attached` is an alias of `settings.attached`; both read back inside settings.
  if (!live && out.attached !== undefined) {
    settings = {
      ...settings,
      attached: { ...(isObject(settings?.attached) ? settings.attached : {}), ...(out.attached as Members) },
    };
    delete out.attached;
  }
  if (settings) {
    if (info) settings = normalizeSettings(type as MonitorType, settings);
    if (settings.attached !== undefined) settings.attached = attachedToggles(settings.attached);
    if (live) {
      for (const name of settingsReadOnly({ type })) delete settings[name];
    }
    out.settings = settings;
  }
  return out;
}

export const monitorEngineKind = plainKind(monitorKind, "monitors", {
  expand: ["settings"],
  schemaFor,
  normalizeDesired: (members) => normalize(members, false),
  normalizeLive: (row) => normalize(row, true),
  storedDefaults(members) {
    const info = monitorTypes[canonicalType(members) as MonitorType];
    const interval = traitsOf(monitorKind.schema.shape.interval).default;
    // A preset builds the whole settings object: its members are the preset's, not the declared defaults.
    const preset = isObject(members.settings) && members.settings.preset !== undefined;
    const out: Members = preset ? { settings: undefined } : {};
    // A fixed cadence is no interval of the monitor's (normalize drops it); otherwise the floor wins.
    if (info && !info.fixedInterval && typeof interval === "number")
      out.interval = Math.max(interval, info.minInterval);
    return out;
  },
  merging: ["settings"],
  // Types without an address (database, snmp, counter) have no natural key: they are never adopted. The
  // state records an absent url as null, and a crashed create is then found only by replaying its key.
  naturalKey: (members) => (members.url == null ? undefined : keyFrom([members.type, members.url])),
});
