import { shopifyMarketsSuite } from "./shopify-markets-flows.ts";

shopifyMarketsSuite("postgres");
