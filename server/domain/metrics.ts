import { iso, type Tx } from "./context.ts";
import type { Actor } from "../vocabulary/actors.ts";
import {
  countClaimsByStatus,
  countMerchantRefundedOrders,
  countPlansByStatus,
  countPerDay,
  countQuotesByStatus,
  findDecisionFigures,
  sumActivePlanFees,
  type DecisionScope,
  type MetricsScope,
} from "../store/metrics.ts";

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
  /** Fees of plans still active, and the merchant's share of them, per currency. */
  fees: { currency: string; feeCents: number; merchantShareCents: number }[];
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

const DAY_MS = 24 * 60 * 60 * 1000;

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
