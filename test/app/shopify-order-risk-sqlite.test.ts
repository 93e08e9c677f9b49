import { shopifyOrderRiskSuite } from "./shopify-order-risk-flows.ts";

shopifyOrderRiskSuite("sqlite");
