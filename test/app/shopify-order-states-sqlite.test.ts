import { shopifyOrderStatesSuite } from "./shopify-order-states-flows.ts";

shopifyOrderStatesSuite("sqlite");
