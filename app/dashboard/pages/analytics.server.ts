// Analytics: the viewer's figures per currency over a period (the last 7/30/90/365 UTC days, or from–to UTC days),
// against the period of equal length before it, with a series by day, week or month and the claims by reason — the
// API's GET /merchants/{id}/metrics (docs/api.md "Analytics"); the same series as CSV for the signed-in member.
import {
  DAY_MS,
  MAX_ANALYTICS_DAYS,
  METRICS_INTERVALS,
  MIN_OFFERS_TO_CALL,
  merchantAnalytics,
  merchantAnalyticsCsv,
  type MetricsInterval,
} from "../../../server/index.ts";
import { downloadResponse } from "../../downloads.server.ts";
import type { PageContext } from "../viewer.ts";
import { ANALYTICS_WINDOWS } from "./analytics-windows.ts";
import { REASON_NAMES } from "../reason-names.server.ts";
import { utcDayFilter } from "../list-filters.server.ts";

/** The period and interval the URL asks for, with a sentence per field it gets wrong (then the last 30 days). */
function parsePeriod(request: Request, nowMs: number) {
  const params = new URL(request.url).searchParams;
  const form = {
    days: params.get("days") ?? "",
    from: params.get("from") ?? "",
    to: params.get("to") ?? "",
    interval: params.get("interval") ?? "",
  };
  const errors: { from?: string; to?: string } = {};
  const interval: MetricsInterval = (METRICS_INTERVALS as readonly string[]).includes(form.interval)
    ? (form.interval as MetricsInterval)
    : "day";
  const tomorrow = (Math.floor(nowMs / DAY_MS) + 1) * DAY_MS;
  const lastDays = (days: number) => ({ days, fromMs: tomorrow - days * DAY_MS, toMs: tomorrow });
  if (form.from || form.to) {
    const from = utcDayFilter.safeParse(form.from);
    const last = utcDayFilter.safeParse(form.to);
    if (!from.success) errors.from = from.error.issues[0].message;
    if (!last.success) errors.to = last.error.issues[0].message;
    else if (from.success && last.data < from.data) errors.to = "Choose a day on or after the first day.";
    else if (from.success && last.data - from.data >= MAX_ANALYTICS_DAYS * DAY_MS)
      errors.to = `The period may span at most ${MAX_ANALYTICS_DAYS} days.`;
    if (from.success && last.success && !errors.to)
      return { form, errors, interval, days: null, fromMs: from.data, toMs: last.data + DAY_MS };
    return { form, errors, interval, ...lastDays(30) };
  }
  const days = ANALYTICS_WINDOWS.find((window) => String(window) === form.days) ?? 30;
  return { form, errors, interval, ...lastDays(days) };
}

export async function loadAnalytics({ runtime, viewer, request }: PageContext) {
  const { form: asked, errors, interval, days, fromMs, toMs } = parsePeriod(request, runtime.services.clock());
  // The form shows the period in effect: a from–to period wins over the days the URL also carries.
  const form = { ...asked, days: days === null ? "" : String(days) };
  const actor = { merchantId: viewer.merchantId, mode: viewer.mode };
  const analytics = await merchantAnalytics(runtime.db, actor, { fromMs, toMs }, interval);
  const query = new URLSearchParams({ from: analytics.period.from, to: analytics.period.to, interval });
  return {
    form,
    errors,
    days,
    analytics,
    csvQuery: `?${query.toString()}`,
    reasonNames: REASON_NAMES,
    minOffersToCall: MIN_OFFERS_TO_CALL,
  };
}

export type AnalyticsData = Awaited<ReturnType<typeof loadAnalytics>>;

/** The series as CSV (the API's GET /merchants/{id}/metrics.csv): from/to are the period's ISO instants. */
export async function loadAnalyticsCsv({ runtime, viewer, request }: PageContext): Promise<Response> {
  const params = new URL(request.url).searchParams;
  const instant = (name: string) => {
    const ms = Date.parse(params.get(name) ?? "");
    return Number.isNaN(ms) ? undefined : ms;
  };
  const asked = params.get("interval") ?? "";
  const interval = (METRICS_INTERVALS as readonly string[]).includes(asked) ? (asked as MetricsInterval) : "day";
  const period = { fromMs: instant("from"), toMs: instant("to") };
  // The page links only periods it showed; a hand-edited URL outside the API's limits gets the last 30 days.
  const span = (period.toMs ?? Infinity) - (period.fromMs ?? -Infinity);
  const window = span > 0 && span <= MAX_ANALYTICS_DAYS * DAY_MS ? period : {};
  return downloadResponse(
    await merchantAnalyticsCsv(
      runtime.db,
      { merchantId: viewer.merchantId, mode: viewer.mode },
      window,
      runtime.services.clock(),
      interval,
    ),
  );
}
