import { deliveryRefusalText } from "../kinds/index.ts";
import type { Hold, RouteReason } from "./matrix.ts";

/** Why a route sends nothing or is blocked, in words. */
export function describeReason(reason: RouteReason): string {
  if (reason === "paused") return "the monitor is paused: it runs no checks and alerts nobody";
  if (reason === "webhook_disabled") return "the webhook is disabled";
  return deliveryRefusalText[reason];
}

const days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const iso = (unix: number) => new Date(unix * 1000).toISOString();
const clock = (unix: number) => iso(unix).slice(11, 16);
const day = (unix: number) => iso(unix).slice(0, 10);

/**
 * The hours a window holds alerts, in UTC (the service's times are Unix seconds; a weekly window repeats
 * every 7 days from its start): `weekly-deploy (Weekly deploy): weekly, Sun 02:00 to Sun 03:00 UTC, from
 * 2027-01-03`, or `2027-06-05 20:00 to 2027-06-06 02:00 UTC`.
 */
export function describeHold(hold: Hold): string {
  const named = hold.title === hold.maintenance ? hold.maintenance : `${hold.maintenance} (${hold.title})`;
  const weekday = (unix: number) => days[new Date(unix * 1000).getUTCDay()];
  if (hold.repeat === "weekly")
    return `${named}: weekly, ${weekday(hold.from)} ${clock(hold.from)} to ${weekday(hold.to)} ${clock(hold.to)} UTC, from ${day(hold.from)}`;
  return `${named}: ${day(hold.from)} ${clock(hold.from)} to ${day(hold.to)} ${clock(hold.to)} UTC`;
}
