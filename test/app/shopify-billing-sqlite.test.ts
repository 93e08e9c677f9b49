import { shopifyBillingSuite } from "./shopify-billing-flows.ts";

shopifyBillingSuite("sqlite");
