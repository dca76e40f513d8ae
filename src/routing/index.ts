/**
 * The routing matrix: who a configuration's alerts reach, computed offline from the configuration as
 * written, with the alert rules the sandbox's incident machine decides by (`src/kinds/alerting.ts`,
 * `releasedAt` in `src/kinds/maintenance.ts`). `vigil routes` shows it; `vigil test` judges its `rules:` on
 * it. Names are configuration names throughout. docs/testing.md describes the rules.
 *
 * - `routingMatrix(resources, { confirmed?, now? })`: from `loadConfig(...).resources`. Answers
 *   `{ monitors: MonitorRouting[], routes: Route[] }`. A `Route` is one recipient of one monitor's alerts:
 *   `{ monitor, contact (null for a webhook), webhook?, channel, alertTypes, delayMinutes, confirmed,
 *   outcome: "sent" | "blocked" | "none", reason?, events?, missedNotices?, heldBy: Hold[] }`. `reason` says why not:
 *   `unconfirmed`, `no_gateway` (a plain http contact gets no certificate, domain, blocklist or web-risk
 *   notices), `paused`, `webhook_disabled`; `heldBy` names the suppressing maintenance windows
 *   (`{ maintenance, title, from, to, repeat }`) during which alerts wait. `MonitorRouting` adds the
 *   monitor's `title`, `type`, `enabled`, `notice`, `attachedNotices`, `downDelayMinutes` (when `monitor.down` goes out).
 *   `confirmed` lists the email/sms/voice contacts taken as confirmed (default: all).
 * - `pagesOnDown(route)`: a contact's `down` message goes out on this route (for `everyMonitorAlerts`);
 *   the smallest `delayMinutes` of those routes is the monitor's earliest `down` alert (for `maxDelay`).
 * - `expectedNotifications(monitorRouting, { downAt, upAt?, until })`: the notifications one outage sends
 *   by the matrix, with their times and outcomes (what the property test compares with the sandbox).
 * - `diffRoutes(before, after)`: `{ added, removed, changed: [{ before, after, members }], unpaged }` by `routeKey`
 *   (monitor and recipient); `diffIsEmpty(diff)`.
 * - `describeReason(reason)`, `describeHold(hold)`: the words the CLI shows for them.
 */
export { diffIsEmpty, diffRoutes, type RoutesDiff, routeKey } from "./diff.ts";
export {
  type AlertType,
  type Hold,
  type MonitorRouting,
  pagesOnDown,
  type Route,
  type RouteReason,
  type RoutingMatrix,
  type RoutingOptions,
  routingMatrix,
} from "./matrix.ts";
export { type ExpectedNotification, expectedNotifications, type Outage } from "./timeline.ts";
export { describeHold, describeReason } from "./words.ts";
