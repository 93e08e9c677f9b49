import { iso, type Tx } from "./context.ts";
import type { Actor } from "../vocabulary/actors.ts";
import { csvField } from "./settlements.ts";
import { experimentResults, type ExperimentResult } from "./experiments.ts";
import {
  claimFiguresPerDay,
  countClaimsByReason,
  countClaimsByStatus,
  countMerchantRefundedOrders,
  countPlansByStatus,
  countPerDay,
  countQuotesByStatus,
  feeFiguresPerDay,
  findDecisionFigures,
  quoteFiguresPerDay,
  sumActivePlanFees,
  type DayFigures,
  type DecisionScope,
  type MetricsScope,
} from "../store/metrics.ts";
import { DAY_MS } from "../vocabulary/time.ts";

export interface MerchantMetrics {
  object: "merchant_metrics";
  merchantId: string;
  livemode: boolean;
  period: { from: string | null; to: string | null };
  quotes: { total: number; confirmed: number; declined: number; open: number; expired: number };
  /** Confirmed quotes over all decided-or-expired quotes, 0..1 (null without any). */
  attachRate: number | null;
  plans: { active: number; voided: number; cancelled: number };
  ordersMerchantRefunded: number;
  claims: { total: number; byStatus: Record<string, number> };
  /**
   * Fees of plans still active per currency: the whole, what buyers paid of it and what the merchant paid itself,
   * and the merchant's share (earned on what buyers paid).
   */
  fees: {
    currency: string;
    feeCents: number;
    buyerFeeCents: number;
    merchantFeeCents: number;
    merchantShareCents: number;
  }[];
}

/** The analytics' period when the request names neither end (docs/api.md "Analytics"). */
export const DEFAULT_ANALYTICS_DAYS = 30;
/** The longest analytics period: two years, a year against the one before it in two calls. */
export const MAX_ANALYTICS_DAYS = 731;
export const METRICS_INTERVALS = ["day", "week", "month"] as const;
export type MetricsInterval = (typeof METRICS_INTERVALS)[number];

/** What the analytics count, summed over days: every figure is one of these or a ratio of two. */
interface Counts {
  shown: number;
  confirmed: number;
  declined: number;
  shownValue: number;
  confirmedValue: number;
  fee: number;
  buyerFee: number;
  merchantFee: number;
  share: number;
  filed: number;
  decided: number;
  approved: number;
  paid: number;
}
const NO_COUNTS: Counts = {
  shown: 0,
  confirmed: 0,
  declined: 0,
  shownValue: 0,
  confirmedValue: 0,
  fee: 0,
  buyerFee: 0,
  merchantFee: 0,
  share: 0,
  filed: 0,
  decided: 0,
  approved: 0,
  paid: 0,
};

/** The figures of one currency over a period or one bucket of its series (docs/api.md "Analytics"). */
export interface AnalyticsFigures {
  offersShown: number;
  confirmed: number;
  declined: number;
  /** Shown and neither confirmed nor declined (open or expired): part of the attach rates' denominators. */
  abandoned: number;
  /** confirmed / offersShown (abandoned offers included); null without offers. */
  attachRateByOrders: number | null;
  offeredValueCents: number;
  protectedOrderValueCents: number;
  /** protectedOrderValueCents / offeredValueCents; null without offers. */
  attachRateByValue: number | null;
  /** The whole fee of the plans protected (buyerFeeCents + merchantFeeCents): what claims are weighed against. */
  feeCents: number;
  /** What buyers paid of it: the program's revenue (docs/api.md "Who pays"). */
  buyerFeeCents: number;
  /** What the merchant paid itself, for merchant-paid and split plans: its cost. */
  merchantFeeCents: number;
  merchantShareCents: number;
  claimsFiled: number;
  /** claimsFiled / confirmed; null without protected orders. */
  claimRate: number | null;
  claimsDecided: number;
  claimsApproved: number;
  /** claimsApproved / claimsDecided; null without decisions. */
  approvalRate: number | null;
  paidCents: number;
  /** paidCents / feeCents; null without fees. */
  lossRatio: number | null;
}

export interface PeriodFigures extends AnalyticsFigures {
  /** Median filing-to-decision time of the claims decided in the period, in ms; null when none. */
  medianDecisionMs: number | null;
}

export interface MerchantAnalytics {
  period: { from: string; to: string };
  previousPeriod: { from: string; to: string };
  interval: MetricsInterval;
  currencies: {
    currency: string;
    current: PeriodFigures;
    previous: PeriodFigures;
    /** Every bucket of the period, oldest first; `start` is its first UTC day (YYYY-MM-DD). */
    series: (AnalyticsFigures & { start: string })[];
  }[];
  claimsByReason: { reason: string; count: number; previousCount: number }[];
  /** The offer experiments that ran in the period, each variant's figures over its offers quoted then. */
  experiments: ExperimentResult[];
}

const ratio = (part: number, whole: number) => (whole === 0 ? null : part / whole);

function figuresOf(c: Counts): AnalyticsFigures {
  return {
    offersShown: c.shown,
    confirmed: c.confirmed,
    declined: c.declined,
    abandoned: c.shown - c.confirmed - c.declined,
    attachRateByOrders: ratio(c.confirmed, c.shown),
    offeredValueCents: c.shownValue,
    protectedOrderValueCents: c.confirmedValue,
    attachRateByValue: ratio(c.confirmedValue, c.shownValue),
    feeCents: c.fee,
    buyerFeeCents: c.buyerFee,
    merchantFeeCents: c.merchantFee,
    merchantShareCents: c.share,
    claimsFiled: c.filed,
    claimRate: ratio(c.filed, c.confirmed),
    claimsDecided: c.decided,
    claimsApproved: c.approved,
    approvalRate: ratio(c.approved, c.decided),
    paidCents: c.paid,
    lossRatio: ratio(c.paid, c.fee),
  };
}

/**
 * The analytics' period: [from, to) as asked; one end missing, the other is 30 days away; neither, the last 30 UTC
 * days, today included.
 */
export function analyticsPeriod(window: { fromMs?: number; toMs?: number }, nowMs: number) {
  const span = DEFAULT_ANALYTICS_DAYS * DAY_MS;
  if (window.fromMs !== undefined) return { fromMs: window.fromMs, toMs: window.toMs ?? window.fromMs + span };
  const toMs = window.toMs ?? (Math.floor(nowMs / DAY_MS) + 1) * DAY_MS;
  return { fromMs: toMs - span, toMs };
}

/** The first day (epoch day number) of the bucket holding `day`: itself, its ISO week's Monday, its month's first. */
function bucketStart(day: number, interval: MetricsInterval): number {
  if (interval === "day") return day;
  if (interval === "week") return day - ((day + 3) % 7); // Epoch day 0 was a Thursday.
  const date = new Date(day * DAY_MS);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1) / DAY_MS;
}

function nextBucket(start: number, interval: MetricsInterval): number {
  if (interval !== "month") return start + (interval === "day" ? 1 : 7);
  const date = new Date(start * DAY_MS);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1) / DAY_MS;
}

const dayString = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** Each query's rows per day and currency, summed into one Counts per (bucket, currency). */
async function countsPerDay(db: Tx, scope: MetricsScope): Promise<DayFigures<keyof Counts>[]> {
  const [quotes, fees, claims] = await Promise.all([
    quoteFiguresPerDay(db, scope),
    feeFiguresPerDay(db, scope),
    claimFiguresPerDay(db, scope),
  ]);
  return [...quotes, ...fees, ...claims.filed, ...claims.decided, ...claims.paid] as DayFigures<keyof Counts>[];
}

function addInto(counts: Counts, row: Partial<Counts>): void {
  for (const key of Object.keys(NO_COUNTS) as (keyof Counts)[]) counts[key] += row[key] ?? 0;
}

/**
 * The merchant's analytics over [fromMs, toMs) (docs/api.md "Analytics"): per currency, the period's figures, the
 * previous period of equal length, and a series by `interval`; the claims filed per reason in both periods.
 */
export async function merchantAnalytics(
  db: Tx,
  actor: Actor,
  period: { fromMs: number; toMs: number },
  interval: MetricsInterval,
): Promise<MerchantAnalytics> {
  const current: MetricsScope = { merchantId: actor.merchantId, mode: actor.mode, ...period };
  const previous: MetricsScope = { ...current, fromMs: 2 * period.fromMs - period.toMs, toMs: period.fromMs };
  const [currentRows, previousRows, reasons, previousReasons] = await Promise.all([
    countsPerDay(db, current),
    countsPerDay(db, previous),
    countClaimsByReason(db, current),
    countClaimsByReason(db, previous),
  ]);

  const firstBucket = bucketStart(Math.floor(period.fromMs / DAY_MS), interval);
  const lastDay = Math.ceil(period.toMs / DAY_MS) - 1;
  const buckets: number[] = [];
  for (let start = firstBucket; start <= lastDay; start = nextBucket(start, interval)) buckets.push(start);
  const bucketIndex = new Map(buckets.map((start, i) => [start, i]));

  const currencies = [...new Set([...currentRows, ...previousRows].map((row) => row.currency))].sort();
  const byCurrency = await Promise.all(
    currencies.map(async (currency) => {
      const totals = { ...NO_COUNTS };
      const before = { ...NO_COUNTS };
      const series = buckets.map(() => ({ ...NO_COUNTS }));
      for (const row of currentRows.filter((r) => r.currency === currency)) {
        addInto(totals, row);
        addInto(series[bucketIndex.get(bucketStart(row.day, interval))!], row);
      }
      for (const row of previousRows.filter((r) => r.currency === currency)) addInto(before, row);
      const [medianNow, medianBefore] = await Promise.all(
        [current, previous].map(
          async (scope) => (await claimDecisionStats(db, { ...scope, currency })).medianDecisionMs,
        ),
      );
      return {
        currency,
        current: { ...figuresOf(totals), medianDecisionMs: medianNow },
        previous: { ...figuresOf(before), medianDecisionMs: medianBefore },
        series: series.map((counts, i) => ({ start: dayString(buckets[i]), ...figuresOf(counts) })),
      };
    }),
  );

  const previousCount = new Map(previousReasons.map((row) => [row.reason, row.count]));
  const reasonNames = [...new Set([...reasons, ...previousReasons].map((row) => row.reason))];
  const count = new Map(reasons.map((row) => [row.reason, row.count]));
  return {
    period: { from: iso(current.fromMs), to: iso(current.toMs) },
    previousPeriod: { from: iso(previous.fromMs), to: iso(previous.toMs) },
    interval,
    currencies: byCurrency,
    claimsByReason: reasonNames
      .map((reason) => ({ reason, count: count.get(reason) ?? 0, previousCount: previousCount.get(reason) ?? 0 }))
      .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason)),
    experiments: await experimentResults(db, actor, period),
  };
}

const CSV_COLUMNS: [string, keyof AnalyticsFigures][] = [
  ["offers_shown", "offersShown"],
  ["confirmed", "confirmed"],
  ["declined", "declined"],
  ["abandoned", "abandoned"],
  ["attach_rate_by_orders", "attachRateByOrders"],
  ["offered_value_cents", "offeredValueCents"],
  ["protected_order_value_cents", "protectedOrderValueCents"],
  ["attach_rate_by_value", "attachRateByValue"],
  ["fee_cents", "feeCents"],
  ["buyer_fee_cents", "buyerFeeCents"],
  ["merchant_fee_cents", "merchantFeeCents"],
  ["merchant_share_cents", "merchantShareCents"],
  ["claims_filed", "claimsFiled"],
  ["claim_rate", "claimRate"],
  ["claims_decided", "claimsDecided"],
  ["claims_approved", "claimsApproved"],
  ["approval_rate", "approvalRate"],
  ["paid_cents", "paidCents"],
  ["loss_ratio", "lossRatio"],
];

/** The analytics' series as CSV: one row per bucket and currency (header first, CRLF line ends; no ratio: empty). */
export async function merchantAnalyticsCsv(
  db: Tx,
  actor: Actor,
  window: { fromMs?: number; toMs?: number },
  nowMs: number,
  interval: MetricsInterval,
): Promise<{ bytes: Uint8Array; contentType: string; fileName: string }> {
  const analytics = await merchantAnalytics(db, actor, analyticsPeriod(window, nowMs), interval);
  const header = ["period_start", "currency", ...CSV_COLUMNS.map(([name]) => name)];
  const rows = analytics.currencies.flatMap(({ currency, series }) =>
    series.map((bucket) =>
      [bucket.start, currency, ...CSV_COLUMNS.map(([, key]) => bucket[key])].map(csvField).join(","),
    ),
  );
  const text = [header.join(","), ...rows].map((line) => `${line}\r\n`).join("");
  const [from, to] = [analytics.period.from, analytics.period.to].map((at) => at.slice(0, 10));
  return {
    bytes: new TextEncoder().encode(text),
    contentType: "text/csv; charset=utf-8",
    fileName: `metrics-${actor.merchantId}-${from}-${to}-${interval}.csv`,
  };
}

export async function merchantMetrics(
  db: Tx,
  actor: Actor,
  window: { fromMs?: number; toMs?: number },
  nowMs: number,
): Promise<MerchantMetrics> {
  const scope: MetricsScope = {
    merchantId: actor.merchantId,
    mode: actor.mode,
    fromMs: window.fromMs ?? 0,
    toMs: window.toMs ?? Number.MAX_SAFE_INTEGER,
  };

  const quotes = { total: 0, confirmed: 0, declined: 0, open: 0, expired: 0 };
  for (const row of await countQuotesByStatus(db, scope, nowMs)) {
    quotes.total += row.count;
    quotes[row.expired ? "expired" : (row.status as "open" | "confirmed" | "declined")] += row.count;
  }
  const decided = quotes.confirmed + quotes.declined + quotes.expired;

  const plans = { active: 0, voided: 0, cancelled: 0 };
  for (const row of await countPlansByStatus(db, scope)) plans[row.status as keyof typeof plans] = row.count;

  const claims = { total: 0, byStatus: {} as Record<string, number> };
  for (const row of await countClaimsByStatus(db, scope)) {
    claims.byStatus[row.status] = row.count;
    claims.total += row.count;
  }

  return {
    object: "merchant_metrics",
    merchantId: actor.merchantId,
    livemode: actor.mode === "live",
    period: {
      from: window.fromMs === undefined ? null : iso(window.fromMs),
      to: window.toMs === undefined ? null : iso(window.toMs),
    },
    quotes,
    attachRate: decided === 0 ? null : quotes.confirmed / decided,
    plans,
    ordersMerchantRefunded: await countMerchantRefundedOrders(db, scope),
    claims,
    fees: await sumActivePlanFees(db, scope),
  };
}

/**
 * GET /merchants/{id}/metrics: the report over the window and the analytics of its period (docs/api.md "Analytics").
 * The dashboard's overview reads the report alone.
 */
export async function merchantMetricsWithAnalytics(
  db: Tx,
  actor: Actor,
  window: { fromMs?: number; toMs?: number },
  nowMs: number,
  interval: MetricsInterval,
): Promise<MerchantMetrics & { analytics: MerchantAnalytics }> {
  return {
    ...(await merchantMetrics(db, actor, window, nowMs)),
    analytics: await merchantAnalytics(db, actor, analyticsPeriod(window, nowMs), interval),
  };
}

/** One UTC day of activity: offers quoted and purchases protected. */
export interface DailyActivity {
  /** YYYY-MM-DD (UTC). */
  date: string;
  quotes: number;
  protected: number;
}

/** The last `days` UTC days up to today, every day present (zero when nothing happened). */
export async function dailyActivity(db: Tx, actor: Actor, days: number, nowMs: number): Promise<DailyActivity[]> {
  const today = Math.floor(nowMs / DAY_MS);
  const scope: MetricsScope = { ...actor, fromMs: (today - days + 1) * DAY_MS, toMs: (today + 1) * DAY_MS };
  const [quotes, plans] = await Promise.all([countPerDay(db, "quotes", scope), countPerDay(db, "plans", scope)]);
  const quotesOn = new Map(quotes.map((row) => [row.day, row.count]));
  const plansOn = new Map(plans.map((row) => [row.day, row.count]));
  return Array.from({ length: days }, (_, i) => {
    const day = today - days + 1 + i;
    return {
      date: new Date(day * DAY_MS).toISOString().slice(0, 10),
      quotes: quotesOn.get(day) ?? 0,
      protected: plansOn.get(day) ?? 0,
    };
  });
}

/**
 * How claims were decided in a period (docs/dashboard.md "Claim decisions"): the claims whose standing decision
 * (approved or denied; a withdrawn approval's denial replaces it) was made in [from, to), the share a claim rule made
 * on its own, and the median time from filing to that decision.
 */
export interface ClaimDecisionStats {
  period: { from: string; to: string };
  decided: number;
  automatic: number;
  /** automatic / decided, 0..1; null when nothing was decided. */
  automaticShare: number | null;
  /** The median filing-to-decision time in ms (the mean of the middle two of an even count); null when none. */
  medianDecisionMs: number | null;
}

/** The decisions of one merchant in one mode (the dashboard), or of every merchant (the console: no merchant, mode). */
export async function claimDecisionStats(db: Tx, scope: DecisionScope): Promise<ClaimDecisionStats> {
  const figures = await findDecisionFigures(db, scope);
  const middle = figures.middleDecisionMs;
  return {
    period: { from: iso(scope.fromMs), to: iso(scope.toMs) },
    decided: figures.decided,
    automatic: figures.automatic,
    automaticShare: figures.decided === 0 ? null : figures.automatic / figures.decided,
    medianDecisionMs: middle.length === 0 ? null : Math.round(middle.reduce((sum, ms) => sum + ms, 0) / middle.length),
  };
}
