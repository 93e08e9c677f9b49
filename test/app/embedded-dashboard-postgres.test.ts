import { embeddedDashboardSuite } from "./embedded-dashboard-flows.ts";

embeddedDashboardSuite("postgres");
