// Overview: the last 30 or 90 days of the viewer's mode — offers quoted and purchases protected per UTC day, the
// attach rate, fees and the merchant's share per currency, claims by status, and how the claims decided in the window
// were decided (the share decided automatically, the median time to a decision).
import {
  claimDecisionStats,
  countBuyersRefusedForNoAddress,
  dailyActivity,
  DAY_MS,
  merchantMetrics,
} from "../../../server/index.ts";
import type { PageContext } from "../viewer.ts";
import { OVERVIEW_WINDOWS } from "./overview-windows.ts";
import { loadNeedsAction } from "./needs-action.server.ts";
import { loadBalances } from "../balance.server.ts";
import { loadGettingStarted } from "./getting-started.server.ts";

export async function loadOverview({ runtime, viewer, request }: PageContext) {
  const asked = Number(new URL(request.url).searchParams.get("days"));
  const days = OVERVIEW_WINDOWS.find((window) => window === asked) ?? 30;
  const actor = { merchantId: viewer.merchantId, mode: viewer.mode };
  const now = runtime.services.clock();
  const today = Math.floor(now / DAY_MS);
  const fromMs = (today - days + 1) * DAY_MS;
  const [metrics, activity, buyersWithoutAddress, decisions] = await Promise.all([
    merchantMetrics(runtime.db, actor, { fromMs }, now),
    dailyActivity(runtime.db, actor, days, now),
    // Always the last 30 days, whatever the window: a notice of something to fix, not a figure of the period.
    countBuyersRefusedForNoAddress(runtime.db, actor, now),
    claimDecisionStats(runtime.db, { ...actor, fromMs, toMs: now }),
  ]);
  const needsAction = await loadNeedsAction({ runtime, viewer, request });
  const gettingStarted = await loadGettingStarted({ runtime, viewer, request });
  return {
    gettingStarted,
    days,
    metrics,
    activity,
    buyersWithoutAddress,
    decisions,
    needsAction,
    ...(await loadBalances({ runtime, viewer })),
  };
}

export type OverviewData = Awaited<ReturnType<typeof loadOverview>>;
