import { dashboardSuite } from "./dashboard-flows.ts";

dashboardSuite("postgres");
