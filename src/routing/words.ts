import { deliveryRefusalText, wallTimeAt } from "../kinds/index.ts";
import type { Hold, RouteReason } from "./matrix.ts";

/** Why a route sends nothing or is blocked, in words. */
export function describeReason(reason: RouteReason): string {
  if (reason === "paused") return "the monitor is paused: it runs no checks and alerts nobody";
  if (reason === "webhook_disabled") return "the webhook is disabled";
  return deliveryRefusalText[reason];
}

const days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/**
 * The hours a window holds alerts, on the wall clock of the account's time zone (the one a weekly window
 * keeps across daylight-saving changes): `weekly-deploy (Weekly deploy): weekly, Sun 02:00 to Sun 03:00
 * Europe/Berlin, from 2027-01-03`, or `2027-06-05 20:00 to 2027-06-06 02:00 UTC`.
 */
export function describeHold(hold: Hold): string {
  let words = holdWords.get(hold);
  if (words === undefined) {
    words = holdHours(hold);
    holdWords.set(hold, words);
  }
  return words;
}

/** A window holds many monitors (one object for all): its words are made once. */
const holdWords = new WeakMap<Hold, string>();

function holdHours(hold: Hold): string {
  const named = hold.title === hold.maintenance ? hold.maintenance : `${hold.maintenance} (${hold.title})`;
  const local = (unix: number) => new Date(wallTimeAt(hold.timeZone, unix) * 1000);
  const clock = (unix: number) => local(unix).toISOString().slice(11, 16);
  const day = (unix: number) => local(unix).toISOString().slice(0, 10);
  const weekday = (unix: number) => days[local(unix).getUTCDay()];
  if (hold.repeat === "weekly")
    return `${named}: weekly, ${weekday(hold.from)} ${clock(hold.from)} to ${weekday(hold.to)} ${clock(hold.to)} ${hold.timeZone}, from ${day(hold.from)}`;
  return `${named}: ${day(hold.from)} ${clock(hold.from)} to ${day(hold.to)} ${clock(hold.to)} ${hold.timeZone}`;
}
