import { claimsOnEvidenceSuite } from "./claims-on-evidence-flows.ts";

claimsOnEvidenceSuite("sqlite");
