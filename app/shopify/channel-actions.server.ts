// The Shopify app's side of the core's "needs your action" port (server/domain/context.ts ChannelActions): a shop's
// claim payouts and fee refunds whose job gave up, read from the app's own tables. One still retrying is the app's to
// finish, so only the dead ones are the merchant's.
import type { ChannelActions } from "../../server/index.ts";
import { listShopifyClaimPayoutsNeedingAttention } from "./store/claim-payouts.ts";
import { FEE_REFUND_JOB, listShopifyFeeRefundsNeedingAttention } from "./store/fee-refunds.ts";

export const shopifyChannelActions: ChannelActions = {
  async stuckPayouts(db, shop, limit) {
    const [claims, fees] = await Promise.all([
      listShopifyClaimPayoutsNeedingAttention(db, { shop, limit }),
      listShopifyFeeRefundsNeedingAttention(db, { shop, kind: FEE_REFUND_JOB, limit }),
    ]);
    return {
      claims: claims.filter((payout) => payout.jobStatus === "dead"),
      fees: fees.filter((refund) => refund.jobStatus === "dead"),
    };
  },
};
