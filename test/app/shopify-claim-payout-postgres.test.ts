import { shopifyClaimPayoutSuite } from "./shopify-claim-payout-flows.ts";

shopifyClaimPayoutSuite("postgres");
