import { shopifyDeliveriesSuite } from "./shopify-deliveries-flows.ts";

shopifyDeliveriesSuite("postgres");
