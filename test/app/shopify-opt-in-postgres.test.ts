import { shopifyOptInSuite } from "./shopify-opt-in-flows.ts";

shopifyOptInSuite("postgres");
