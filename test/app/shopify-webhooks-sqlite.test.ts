import { shopifyFlowsSuite } from "./shopify-flows.ts";

shopifyFlowsSuite("sqlite");
