import type { Refusal } from "../account-rules.ts";
import { membersOf } from "../field.ts";
import { devices, type Expectation, settingsByType, type TranStep } from "./settings.ts";
import { droppedHeaderNames } from "./settings-fields.ts";
import type { MonitorType } from "./types.ts";

/**
 * Cross-field rules of monitor settings that a per-field schema cannot
 * express. They run on the settings as they will be stored (stored members
 * merged with the request's), except `preset`'s "sent alone", which is about
 * the request itself. Each broken rule is reported; none stops the others.
 */

export interface SettingsIssue {
  /** Path inside `settings`. */
  path: Array<string | number>;
  reason: string;
  message: string;
  allowed?: unknown[];
  value?: unknown;
}

type Settings = Record<string, unknown>;

/** Members refused (and not read back) while `assertMode` is on. */
export const refusedInAssertMode: Record<string, readonly string[]> = {
  http: ["keywords", "keywordMode", "ignoredStatuses", "errorStatuses", "errorOnRedirect", "preset"],
  api: ["contentType", "valueSelector", "expectation", "ignoredStatuses", "errorStatuses", "errorOnRedirect"],
};

export function checkSettingsRules(type: MonitorType, merged: Settings, sent: Settings): SettingsIssue[] {
  const issues: SettingsIssue[] = [];
  if (type === "http" || type === "api") checkHttpFamily(type, merged, sent, issues);
  if (type === "api") checkApi(merged, issues);
  if (type === "cntCheck" && merged.keyword === undefined) {
    issues.push({ path: ["keyword"], reason: "required", message: "cntCheck needs a keyword" });
  }
  if (type === "tran") checkTran(merged, issues);
  if (type === "waterfall") checkWaterfall(merged, issues);
  return issues;
}

/**
 * The settings rules as the API refuses them (422 `invalid_settings` at `/settings/...`): the monitor
 * kind's variant rules (`monitorKind.variants.rules`), run alike by `vigil validate` and the sandbox.
 */
export function settingsRuleRefusals(type: string, merged: Settings, sent: Settings): Refusal[] {
  if (!Object.hasOwn(settingsByType, type)) return [];
  return checkSettingsRules(type as MonitorType, merged, sent).map(({ path, ...issue }) => ({
    code: "invalid_settings",
    pointer: `/settings/${path.map((p) => String(p).replaceAll("~", "~0").replaceAll("/", "~1")).join("/")}`,
    ...issue,
  }));
}

function checkHttpFamily(type: "http" | "api", merged: Settings, sent: Settings, issues: SettingsIssue[]) {
  // Clearing a preset (null) may come with other members; setting one may not.
  if (sent.preset !== undefined && sent.preset !== null && Object.keys(sent).length > 1) {
    issues.push({
      path: ["preset"],
      reason: "must_be_alone",
      message: "preset builds the whole settings object and must be sent alone",
    });
  }
  if (merged.assertMode === true) {
    for (const member of refusedInAssertMode[type]!) {
      if (merged[member] !== undefined) {
        issues.push({
          path: [member],
          reason: "excluded_by_assert_mode",
          message: `${member} is refused while assertMode is on`,
          value: merged[member],
        });
      }
    }
  }
  if (sent.asserts !== undefined && sent.assertsSource !== undefined) {
    issues.push({
      path: ["assertsSource"],
      reason: "mutually_exclusive",
      message: "send asserts or assertsSource, not both",
    });
  }
  const headers = merged.headers as Array<{ name: string; value: string }> | undefined;
  if (headers) {
    const total = headers.reduce((n, h) => n + h.name.length + h.value.length, 0);
    if (total > 1023) {
      issues.push({
        path: ["headers"],
        reason: "too_long",
        message: `header names and values total ${total} characters; at most 1023`,
      });
    }
  }
}

function checkApi(merged: Settings, issues: SettingsIssue[]) {
  // An api monitor reads the body, assertMode or not.
  if (merged.method === "H") {
    issues.push({
      path: ["method"],
      reason: "no_body",
      message: "HEAD returns no body; use G, P, U or A",
      allowed: ["G", "P", "U", "A"],
    });
  }
  if (merged.assertMode === true) return;
  if (merged.contentType === undefined) {
    issues.push({
      path: ["contentType"],
      reason: "required",
      message: "api monitors need a contentType unless assertMode is on",
    });
  }
  const selector = merged.valueSelector;
  if (typeof selector === "string" && selector !== "" && typeof merged.contentType === "string") {
    const problem = selectorProblem(merged.contentType, selector);
    if (problem)
      issues.push({ path: ["valueSelector"], reason: "does_not_compile", message: problem, value: selector });
  }
  if (merged.expectation !== undefined) checkExpectation(merged.expectation as Expectation, issues);
}

/** Compiles a value selector the way the service does on save; returns why it fails, if it does. */
export function selectorProblem(contentType: string, selector: string): string | undefined {
  if (contentType === "text/plain") {
    try {
      const groups = new RegExp(`${selector}|`).exec("")!.length - 1;
      return groups >= 1 ? undefined : "a text/plain selector is a regex with a capture group";
    } catch (e) {
      return `not a valid regular expression: ${(e as Error).message}`;
    }
  }
  if (!balanced(selector)) return "unbalanced brackets or quotes";
  if (contentType === "application/json") {
    return /^\$(\.\.?[\w*-]+|\[[^\]]+\])*$/.test(selector) ||
      /^[A-Za-z_][\w-]*(\.[\w-]+|\[\d+\])*$/.test(selector)
      ? undefined
      : "a JSON selector is a JSONPath starting with $ or a property path such as data.items[0].status";
  }
  return selector.startsWith("/") || selector.startsWith("(") ? undefined : "an XPath starts with / or (";
}

function balanced(text: string): boolean {
  const stack: string[] = [];
  const pairs: Record<string, string> = { "]": "[", ")": "(" };
  let quote: string | null = null;
  for (const ch of text) {
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === "[" || ch === "(") stack.push(ch);
    else if (ch in pairs && stack.pop() !== pairs[ch]) return false;
  }
  return quote === null && stack.length === 0;
}

const argCounts: Record<string, [number, number]> = {
  eq: [1, 1],
  neq: [1, 1],
  ls: [1, 1],
  le: [1, 1],
  gt: [1, 1],
  ge: [1, 1],
  in: [1, Infinity],
  out: [1, Infinity],
  inr: [2, 2],
  outr: [2, 2],
  null: [0, 0],
  no: [0, 0],
};

function checkExpectation(e: Expectation, issues: SettingsIssue[]) {
  const args = e.args ?? [];
  const [min, max] = argCounts[e.func]!;
  if (args.length < min || args.length > max) {
    const wanted = min === max ? `${min}` : `at least ${min}`;
    issues.push({
      path: ["expectation", "args"],
      reason: "wrong_count",
      message: `${e.func} takes ${wanted} argument(s), got ${args.length}`,
      value: args,
    });
  }
  const numeric = !["eq", "neq", "in", "out", "null", "no"].includes(e.func) || (e.change ?? 0) !== 0;
  if (numeric && args.some((a) => a.trim() === "" || !Number.isFinite(Number(a)))) {
    issues.push({
      path: ["expectation", "args"],
      reason: "not_numeric",
      message: `${e.func}${e.change ? " with change" : ""} compares numbers`,
      value: args,
    });
  }
  if ((e.func === "inr" || e.func === "outr") && args.length === 2 && Number(args[0]) > Number(args[1])) {
    issues.push({
      path: ["expectation", "args"],
      reason: "not_ascending",
      message: "range bounds must be ascending",
      value: args,
    });
  }
  if (JSON.stringify(e).length > 1024) {
    issues.push({
      path: ["expectation"],
      reason: "too_long",
      message: "expectation is limited to 1024 characters serialised",
    });
  }
}

function checkTran(merged: Settings, issues: SettingsIssue[]) {
  const steps = merged.steps as TranStep[] | undefined;
  if (steps === undefined || steps.length === 0) {
    issues.push({ path: ["steps"], reason: "required", message: "tran monitors need 1 to 10 steps" });
    return;
  }
  if (steps.length > 10)
    issues.push({
      path: ["steps"],
      reason: "too_many",
      message: `at most 10 steps, got ${steps.length}`,
      value: steps.length,
    });
  steps.forEach((step, i) => {
    const need = stepNeeds[step.action];
    for (const member of need) {
      if (step[member] === undefined) {
        issues.push({
          path: ["steps", i, member],
          reason: "required",
          message: `${step.action} needs ${member}`,
        });
      }
    }
  });
}

const stepNeeds: Record<TranStep["action"], Array<keyof TranStep>> = {
  navigate: ["url"],
  click: ["selector"],
  type: ["selector", "value"],
  select: ["selector", "value"],
  wait: ["waitMs"],
  checkContent: ["keywords"],
};

function checkWaterfall(merged: Settings, issues: SettingsIssue[]) {
  const cpu = merged.onCpu as number | undefined;
  if (cpu !== undefined && cpu !== 0 && cpu < 80) {
    issues.push({
      path: ["onCpu"],
      reason: "out_of_range",
      message: "onCpu is 0 (off) or 80-100 percent",
      value: cpu,
    });
  }
  const device = merged.deviceEmulation as string | undefined;
  if (device !== undefined && !(devices as readonly string[]).includes(device)) {
    issues.push({
      path: ["deviceEmulation"],
      reason: "not_allowed",
      message: "unknown device",
      value: device,
      allowed: [...devices],
    });
  }
}

/**
 * What the service stores for sent settings: caps applied, dropped header
 * names removed, the synthesized opening step of a flow removed. The engine
 * applies the same function to desired settings, so a plan after apply is empty.
 */
export function normalizeSettings(type: MonitorType, settings: Settings): Settings {
  const out: Settings = { ...settings };
  for (const { name, traits } of membersOf(settingsByType[type])) {
    const value = out[name];
    if (traits.storedCap !== undefined && typeof value === "number" && value > traits.storedCap)
      out[name] = traits.storedCap;
  }
  if (Array.isArray(out.headers)) {
    out.headers = (out.headers as Array<{ name: string }>).filter(
      (h) => !(droppedHeaderNames as readonly string[]).includes(h.name.toLowerCase()),
    );
  }
  if (type === "tran" && Array.isArray(out.steps)) {
    out.steps = (out.steps as TranStep[]).filter((s) => s.synthesized !== true);
  }
  return out;
}
