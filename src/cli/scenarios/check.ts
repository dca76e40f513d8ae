/**
 * What a test file means, checked against the configuration: names it declares (with a did-you-mean),
 * durations and times, steps in time order, a scenario that expects something, an expectation that can
 * match at all. Every mistake is an error at its file:line:column: a test that cannot fail is no test.
 */
import { DurationError, formatDurationMs, parseDuration } from "../../duration.ts";
import { quote, type YamlPath } from "../../gitops/files.ts";
import { parseIsoTime } from "../../gitops/format.ts";
import { closest, confirmableContactTypes } from "../../kinds/index.ts";
import { defaultStart, defaultWithinSec } from "./format.ts";
import type { ConfigNames, Expectation, Match, Never, Rules, Scenario, Step } from "./model.ts";
import type { ExpectEntry, NeverEntry, ShapedScenario, ShapeReader } from "./shape.ts";

/** A scenario spans at most this long: its checks and timers are simulated one by one. */
export const maxScenarioSec = 31 * 86400;

type Collection = "monitor" | "contact" | "webhook";

export class SuiteChecker {
  readonly #reader: ShapeReader;
  readonly #names: ConfigNames;

  constructor(reader: ShapeReader, names: ConfigNames) {
    this.#reader = reader;
    this.#names = names;
  }

  #problem(path: YamlPath, message: string) {
    this.#reader.problem(path, message);
  }

  /** Seconds of a duration member, or undefined after saying why not. */
  duration(value: string | number, path: YamlPath, what: string): number | undefined {
    if (typeof value === "number") {
      if (value > maxScenarioSec)
        this.#problem(path, `${what} is at most 31d (a scenario's longest span); got ${value}`);
      return value <= maxScenarioSec ? value : undefined;
    }
    try {
      const ms = parseDuration(value, {
        name: what,
        forms: ["units", "seconds"],
        zero: "no time",
        maxMs: maxScenarioSec * 1000,
      });
      if (ms % 1000 === 0) return ms / 1000;
      this.#problem(path, `${what} counts whole seconds; got ${quote(value)}`);
    } catch (error) {
      if (!(error instanceof DurationError)) throw error;
      this.#problem(
        path,
        error.message.replace(/ is at most (\S+);/, " is at most $1 (a scenario's longest span);"),
      );
    }
    return undefined;
  }

  /** Unix seconds of a time member, or undefined after saying why not. */
  time(value: string | number, path: YamlPath): number | undefined {
    const seconds = typeof value === "number" ? value : parseIsoTime(value);
    if (seconds !== undefined) return seconds;
    this.#problem(
      path,
      `${quote(String(value))} is not a time; write ISO 8601 with a zone (2026-03-02T09:00:00Z) or Unix seconds`,
    );
    return undefined;
  }

  /** Whether the configuration declares `name` as a monitor, contact or webhook; said with a did-you-mean if not. */
  known(collection: Collection, name: string, path: YamlPath): boolean {
    const declared = this.#declared(collection);
    if (declared.has(name)) return true;
    const all = [...declared.keys()];
    const hint = closest(name, all);
    const list =
      all.length > 0
        ? `the configuration's ${collection}s: ${shortList(all)}`
        : `the configuration declares no ${collection}s`;
    this.#problem(
      path,
      `${quote(name)} is not a ${collection} of the configuration; ${list}${hint ? `; did you mean "${hint}"?` : ""}`,
    );
    return false;
  }

  #declared(collection: Collection): Map<string, unknown> {
    return collection === "monitor"
      ? this.#names.monitors
      : collection === "contact"
        ? this.#names.contacts
        : this.#names.webhooks;
  }

  confirmed(list: string[] | undefined, path: YamlPath): string[] | undefined {
    if (list === undefined) return undefined;
    list.forEach((name, i) => {
      if (!this.known("contact", name, [...path, i])) return;
      const type = this.#names.contacts.get(name)!.type;
      if (!(confirmableContactTypes as readonly string[]).includes(type))
        this.#problem(
          [...path, i],
          `${name} is ${article(type)} ${type} contact: only ${confirmableContactTypes.join(", ")} contacts are confirmed, the others need no confirmation`,
        );
    });
    return list;
  }

  rules(raw: { everyMonitorAlerts?: boolean; maxDelay?: string | number } | undefined): Rules {
    const rules: Rules = {};
    if (raw?.everyMonitorAlerts !== undefined)
      rules.everyMonitorAlerts = {
        value: raw.everyMonitorAlerts,
        ...withPlace(this.#place(["rules", "everyMonitorAlerts"])),
      };
    if (raw?.maxDelay !== undefined) {
      const value = this.duration(raw.maxDelay, ["rules", "maxDelay"], "maxDelay");
      if (value !== undefined) rules.maxDelay = { value, ...withPlace(this.#place(["rules", "maxDelay"])) };
    }
    return rules;
  }

  /** A scenario's meaning, or undefined when it has a mistake (each said). */
  scenario(
    shaped: ShapedScenario,
    index: number,
    fileStart: number | undefined,
    seen: Map<string, number>,
  ): Scenario | undefined {
    const { scenario } = shaped;
    const base: YamlPath = ["scenarios", index];
    let sound = true;
    const first = seen.get(scenario.name);
    if (first !== undefined) {
      this.#problem(
        [...base, "name"],
        `another scenario of this file is named ${quote(scenario.name)} (scenarios[${first}]); names are unique per file`,
      );
      sound = false;
    } else seen.set(scenario.name, index);

    const start =
      scenario.start === undefined
        ? (fileStart ?? defaultStart)
        : this.time(scenario.start, [...base, "start"]);
    const parsed = this.#steps(shaped.steps, base);
    const steps = parsed.steps;
    if (!parsed.sound) sound = false;

    const expect = shaped.expect.map((e, j) =>
      e ? this.#expectation(e, [...base, "expect", j]) : undefined,
    );
    const never = shaped.never.map((e, j) => (e ? this.#never(e, [...base, "never", j]) : undefined));
    if (expect.length === 0 && never.length === 0) {
      this.#problem(
        base,
        `the scenario ${quote(scenario.name)} expects nothing: give it expect: or never: entries, or it passes whatever happens`,
      );
      sound = false;
    }
    if (expect.includes(undefined) || never.includes(undefined)) sound = false;

    let end = Math.max(steps.at(-1)?.at ?? 0, ...expect.map((e) => (e ? e.at + e.within : 0)));
    let untilGiven = false;
    if (scenario.until !== undefined) {
      const until = this.duration(scenario.until, [...base, "until"], "until");
      if (until === undefined) sound = false;
      else {
        const lastStep = steps.at(-1)?.at ?? 0;
        const lastExpect = Math.max(0, ...expect.map((e) => e?.at ?? 0));
        if (until < Math.max(lastStep, lastExpect)) {
          this.#problem(
            [...base, "until"],
            `the scenario would end (${shown(until)}) before its last ${lastStep >= lastExpect ? "step" : "expectation"} (${shown(Math.max(lastStep, lastExpect))})`,
          );
          sound = false;
        }
        end = until;
        untilGiven = true;
      }
    } else if (end > maxScenarioSec) {
      this.#problem(base, `the scenario would run ${shown(end)}; a scenario spans at most 31d`);
      sound = false;
    }
    if (!sound || start === undefined) return undefined;
    return {
      name: scenario.name,
      ...withPlace(this.#place(base)),
      start,
      end,
      untilGiven,
      steps,
      expect: expect as Expectation[],
      never: never as Never[],
    };
  }

  /** A scenario's steps, in time order; `sound` is false when one has a mistake (each said). */
  #steps(raws: ShapedScenario["steps"], base: YamlPath): { steps: Step[]; sound: boolean } {
    const steps: Step[] = [];
    let sound = true;
    raws.forEach((raw, i) => {
      const at = [...base, "steps", i];
      if (!raw) {
        sound = false;
        return;
      }
      const offset = this.duration(raw.at, [...at, "at"], "at");
      const down = raw.down ?? [];
      const up = raw.up ?? [];
      let ok = offset !== undefined;
      if (down.length === 0 && up.length === 0) {
        this.#problem(
          at,
          "a step takes monitors down or up: { at: 0m, down: [NAME] } or { at: 10m, up: [NAME] }",
        );
        ok = false;
      }
      for (const [list, key] of [
        [down, "down"],
        [up, "up"],
      ] as const)
        list.forEach((name, j) => {
          if (!this.known("monitor", name, [...at, key, j])) ok = false;
        });
      for (const name of down.filter((n) => up.includes(n))) {
        this.#problem(
          [...at, "up"],
          `${name} is taken both down and up in one step; one step gives a monitor one state`,
        );
        ok = false;
      }
      const previous = steps.at(-1);
      if (ok && previous && offset! < previous.at) {
        this.#problem(
          [...at, "at"],
          `steps go in time order: this one (${shown(offset!)}) comes after one at ${shown(previous.at)}`,
        );
        ok = false;
      }
      if (ok) steps.push({ at: offset!, down, up, ...withPlace(this.#place(at)) });
      else sound = false;
    });
    return { steps, sound };
  }

  #place(path: YamlPath) {
    return this.#reader.placeOf(path);
  }

  #match(entry: ExpectEntry | NeverEntry, at: YamlPath, strict: boolean): Match | undefined {
    let ok = entry.monitor === undefined || this.known("monitor", entry.monitor, [...at, "monitor"]);
    if ("webhook" in entry) {
      if (!this.known("webhook", entry.webhook, [...at, "webhook"])) return undefined;
      const events = this.#names.webhooks.get(entry.webhook)!.events;
      if (strict && entry.event !== undefined && !events.includes(entry.event)) {
        this.#problem(
          [...at, "event"],
          `${entry.webhook} does not subscribe to ${entry.event}, so no delivery of it can come; it subscribes to ${events.join(", ")}`,
        );
        ok = false;
      }
      return ok
        ? {
            webhook: entry.webhook,
            ...(entry.event !== undefined && { event: entry.event }),
            ...(entry.monitor !== undefined && { monitor: entry.monitor }),
          }
        : undefined;
    }
    if (!this.known("contact", entry.contact, [...at, "contact"])) return undefined;
    const type = this.#names.contacts.get(entry.contact)!.type;
    if (strict && entry.channel !== undefined && entry.channel !== type) {
      this.#problem(
        [...at, "channel"],
        `${entry.contact} is ${article(type)} ${type} contact: its notifications go by ${type}, never by ${entry.channel}`,
      );
      ok = false;
    }
    // Only confirmation (email, sms, voice) and the gateway rule (http) block a notification.
    const blockable = type === "http" || (confirmableContactTypes as readonly string[]).includes(type);
    if (strict && entry.outcome === "blocked" && !blockable) {
      this.#problem(
        [...at, "outcome"],
        `${entry.contact} is ${article(type)} ${type} contact: nothing blocks its notifications`,
      );
      ok = false;
    }
    if (!ok) return undefined;
    return {
      contact: entry.contact,
      ...(entry.alert !== undefined && { alert: entry.alert }),
      ...(entry.outcome !== undefined && { outcome: entry.outcome }),
      ...(entry.channel !== undefined && { channel: entry.channel }),
      ...(entry.monitor !== undefined && { monitor: entry.monitor }),
    };
  }

  #expectation(entry: ExpectEntry, at: YamlPath): Expectation | undefined {
    const match = this.#match(entry, at, true);
    const offset = this.duration(entry.at, [...at, "at"], "at");
    const within =
      entry.within === undefined
        ? defaultWithinSec
        : this.duration(entry.within, [...at, "within"], "within");
    if (!match || offset === undefined || within === undefined) return undefined;
    return { at: offset, within, match, ...withPlace(this.#place(at)) };
  }

  #never(entry: NeverEntry, at: YamlPath): Never | undefined {
    const match = this.#match(entry, at, false);
    return match && { match, ...withPlace(this.#place(at)) };
  }
}

/** `an` before a word said with a vowel sound (`an sms`, `an http`, `an email`), else `a`. */
export const article = (word: string) => (/^([aeiou]|sms|http|mms)/i.test(word) ? "an" : "a");

const withPlace = <P>(place: P | undefined) => (place === undefined ? {} : { place });

/** Seconds as a duration (`1h30m`, `0`). */
export const shown = (seconds: number) => formatDurationMs(seconds * 1000);

function shortList(names: string[]): string {
  return names.length > 20
    ? `${names.slice(0, 20).join(", ")} and ${names.length - 20} more`
    : names.join(", ");
}
