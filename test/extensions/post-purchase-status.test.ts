// GET /extensions/protection-status on SQLite (test/extensions/post-purchase-status-flows.ts).
import { statusRouteTests } from "./post-purchase-status-flows.ts";

statusRouteTests("sqlite");
