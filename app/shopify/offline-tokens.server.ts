// Expiring offline access tokens, which Shopify requires of public apps (new ones since 2026-04-01, all from
// 2027-01-01, when it rejects the rest): shopifyApp's future.expiringOfflineAccessTokens asks for them and the Prisma
// Session row keeps the pair. An access token lasts an hour, its refresh token 90 days, and each refresh replaces both;
// the library refreshes a shop's pair whenever it loads the offline session within 5 minutes of expiry (every webhook,
// every job's Admin API call). A shop with no order and no visit for 90 days would lose its pair, and with it the
// Admin API its claim payouts and fee refunds need, until the merchant opened the app again: this task renews, ahead
// of time, the pair of every installed shop whose refresh token is running out. Loading the session is the renewal.
import type { ShopifyDeps } from "./deps.server.ts";
import type { PeriodicTask } from "./jobs.server.ts";

/** How often the app looks for refresh tokens running out. */
export const OFFLINE_TOKEN_SCAN_MS = 6 * 60 * 60_000;
/** A refresh token this close to its end is renewed: 60 days without a refresh, with a month left to retry. */
export const RENEW_AHEAD_MS = 30 * 24 * 60 * 60_000;

/** Renews the offline tokens of the installed shops whose refresh token ends within RENEW_AHEAD_MS. Returns how many. */
export async function renewAgingOfflineTokens(deps: ShopifyDeps): Promise<number> {
  let renewed = 0;
  for (const shop of await deps.agingOfflineSessions(new Date(deps.services.clock() + RENEW_AHEAD_MS))) {
    if (!(await deps.installation(shop))) continue;
    try {
      // The access token expired long before (an hour after the refresh token was issued): loading refreshes both.
      await deps.adminApi(shop);
      renewed += 1;
    } catch (error) {
      // Kept for the next scan; the merchant opening the app also gets the shop a fresh pair.
      deps.logger.warn({ shop, err: error }, "the shop's offline token could not be renewed");
    }
  }
  return renewed;
}

export function offlineTokenTask(deps: ShopifyDeps): PeriodicTask {
  return { name: "shopify-offline-tokens", everyMs: OFFLINE_TOKEN_SCAN_MS, task: () => renewAgingOfflineTokens(deps) };
}
