import { iso, type Actor, type Tx } from "./context.ts";

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

export async function merchantMetrics(db: Tx, actor: Actor, window: { fromMs?: number; toMs?: number }, nowMs: number): Promise<MerchantMetrics> {
  const from = window.fromMs ?? 0;
  const to = window.toMs ?? Number.MAX_SAFE_INTEGER;
  const scope = [actor.merchantId, actor.mode, from, to];
  const inWindow = "merchant_id = ? AND mode = ? AND created_at >= ? AND created_at < ?";

  const quoteRows = await db.all<{ status: string; expired: number; n: number }>(
    `SELECT status, CASE WHEN status = 'open' AND expires_at <= ? THEN 1 ELSE 0 END AS expired, COUNT(*) AS n
     FROM quotes WHERE ${inWindow} GROUP BY 1, 2`,
    // By ordinal: PostgreSQL does not see a CASE repeated with its own placeholder as the selected expression.
    [nowMs, ...scope],
  );
  const quotes = { total: 0, confirmed: 0, declined: 0, open: 0, expired: 0 };
  for (const row of quoteRows) {
    const n = Number(row.n);
    quotes.total += n;
    const bucket = Number(row.expired) === 1 ? "expired" : (row.status as "open" | "confirmed" | "declined");
    quotes[bucket] += n;
  }
  const decided = quotes.confirmed + quotes.declined + quotes.expired;

  const plans = { active: 0, voided: 0, cancelled: 0 };
  for (const row of await db.all<{ status: keyof typeof plans; n: number }>(`SELECT status, COUNT(*) AS n FROM plans WHERE ${inWindow} GROUP BY status`, scope)) {
    plans[row.status] = Number(row.n);
  }

  const refunded = await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM orders WHERE ${inWindow} AND status = 'merchant_refunded'`, scope);

  const claims = { total: 0, byStatus: {} as Record<string, number> };
  for (const row of await db.all<{ status: string; n: number }>(`SELECT status, COUNT(*) AS n FROM claims WHERE ${inWindow} GROUP BY status`, scope)) {
    claims.byStatus[row.status] = Number(row.n);
    claims.total += Number(row.n);
  }

  const fees = await db.all<{ currency: string; fee_cents: number; share_cents: number }>(
    `SELECT p.currency, SUM(p.fee_cents) AS fee_cents, SUM((p.fee_cents * pp.merchant_share_bps + 5000) / 10000) AS share_cents
     FROM plans p JOIN quotes q ON q.id = p.quote_id JOIN protection_programs pp ON pp.id = q.program_id
     WHERE p.merchant_id = ? AND p.mode = ? AND p.created_at >= ? AND p.created_at < ? AND p.status = 'active'
     GROUP BY p.currency ORDER BY p.currency`,
    scope,
  );

  return {
    object: "merchant_metrics",
    merchantId: actor.merchantId,
    livemode: actor.mode === "live",
    period: { from: window.fromMs === undefined ? null : iso(window.fromMs), to: window.toMs === undefined ? null : iso(window.toMs) },
    quotes,
    attachRate: decided === 0 ? null : quotes.confirmed / decided,
    plans,
    ordersMerchantRefunded: Number(refunded?.n ?? 0),
    claims,
    fees: fees.map((row) => ({ currency: row.currency, feeCents: Number(row.fee_cents), merchantShareCents: Number(row.share_cents) })),
  };
}
