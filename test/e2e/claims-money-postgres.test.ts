import { claimsMoneySuite } from "./claims-money-flows.ts";

claimsMoneySuite("postgres");
