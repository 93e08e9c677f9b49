// Shopify's order risk as a fraud signal (docs/shopify.md "Shopify's order risk"): when a claim is filed on a protected
// order (the outbox's claim.created, followed in order-states.server.ts) and when Shopify says the order's risk
// changed (orders/risk_assessment_changed), a job reads the order's risk from the Admin API and records it in the
// core, which assesses the plan's open claims again (server/domain/claim-risk-record.ts). A failed read (a missing
// scope, an Admin API error) fails only this job, which the queue logs and retries: the claim is filed and decided
// without it.
import type { OrderRisk } from "../../server/index.ts";
import { saveOrderRisk } from "./store/units/order-risk.ts";
import { orderRisk, type OrderRiskResult, type RiskAssessmentResult } from "./admin/order-risk.ts";
import { protectedOrderOwner } from "./deliveries.server.ts";
import type { ShopifyDeps } from "./deps.server.ts";
import type { JobHandlers } from "./named-jobs.ts";

export const orderRiskJobId = (claimId: string) => `job_order_risk_${claimId}`;

/** Lowest first: the order's level is its highest assessment's (a pending one says nothing yet). */
const LEVELS: readonly RiskAssessmentResult[] = ["PENDING", "NONE", "LOW", "MEDIUM", "HIGH"];

/** Shopify's risk summary as the core keeps it: the highest level, the recommendation, that level's negative facts. */
export function orderRiskOf(risk: NonNullable<OrderRiskResult["order"]>["risk"]): OrderRisk {
  const level = risk.assessments.reduce<RiskAssessmentResult>(
    (highest, assessment) =>
      LEVELS.indexOf(assessment.riskLevel) > LEVELS.indexOf(highest) ? assessment.riskLevel : highest,
    risk.assessments.length > 0 ? "PENDING" : "NONE",
  );
  return {
    level: level.toLowerCase() as OrderRisk["level"],
    recommendation: risk.recommendation.toLowerCase() as OrderRisk["recommendation"],
    reasons: risk.assessments
      .filter((assessment) => assessment.riskLevel === level)
      .flatMap((assessment) => assessment.facts)
      .filter((fact) => fact.sentiment === "NEGATIVE")
      .map((fact) => fact.description),
  };
}

async function readOrderRisk(deps: ShopifyDeps, shop: string, orderId: string): Promise<void> {
  if (!(await deps.installation(shop))) return;
  const owner = await protectedOrderOwner(deps, shop, orderId);
  if (!owner) return;
  const { order } = await orderRisk(await deps.adminApi(shop), { id: `gid://shopify/Order/${orderId}` });
  // The order is gone from the shop (deleted): nothing to weigh.
  if (!order) return;
  const risk = orderRiskOf(order.risk);
  await saveOrderRisk(deps.db, deps.services, owner, orderId, risk);
}

export function orderRiskHandlers(
  deps: ShopifyDeps,
): Pick<JobHandlers, "orders/risk_assessment_changed" | "read_order_risk"> {
  return {
    "orders/risk_assessment_changed": (job) => readOrderRisk(deps, job.shop, job.payload.orderId),
    read_order_risk: (job) => readOrderRisk(deps, job.shop, job.payload.orderId),
  };
}
