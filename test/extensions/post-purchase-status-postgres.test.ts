// GET /extensions/protection-status on PostgreSQL (test/extensions/post-purchase-status-flows.ts).
import { statusRouteTests } from "./post-purchase-status-flows.ts";

statusRouteTests("postgres");
