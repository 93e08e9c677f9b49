// Shopify's own risk assessment of an order (Shopify's and fraud apps' assessments, and what Shopify recommends):
// read when a claim is filed on the order and when Shopify says the assessment changed (app/shopify/order-risk.server.ts).
// Needs read_orders.
import { adminOperation } from "./graphql.ts";

export type RiskAssessmentResult = "HIGH" | "MEDIUM" | "LOW" | "NONE" | "PENDING";

export interface OrderRiskResult {
  order: {
    risk: {
      recommendation: "ACCEPT" | "INVESTIGATE" | "CANCEL" | "NONE";
      assessments: {
        riskLevel: RiskAssessmentResult;
        facts: { description: string; sentiment: "NEGATIVE" | "NEUTRAL" | "POSITIVE" }[];
      }[];
    };
  } | null;
}

export const orderRisk = adminOperation<{ id: string }, OrderRiskResult>(
  `query OrderRisk($id: ID!) {
    order(id: $id) { risk { recommendation assessments { riskLevel facts { description sentiment } } } }
  }`,
);
