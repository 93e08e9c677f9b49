import { shopifyFeeRefundSuite } from "./shopify-fee-refund-flows.ts";

shopifyFeeRefundSuite("postgres");
