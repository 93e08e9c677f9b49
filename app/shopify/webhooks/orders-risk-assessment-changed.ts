// orders/risk_assessment_changed: Shopify or a fraud app assessed an order's risk (again). The payload names the
// order and one assessment's level, not Shopify's recommendation, so the job reads the order's whole risk from the
// Admin API (app/shopify/order-risk.server.ts); only the order's id is kept.
import { handledWebhook } from "./webhook.ts";

/** The topic's payload as Shopify documents it (the fields the app reads). */
export interface ShopifyOrderRiskAssessmentChanged {
  order_id: number;
  admin_graphql_api_order_id?: string;
  risk_level?: string;
  provider_id?: number | null;
  provider_title?: string | null;
  created_at?: string | null;
}

export const ordersRiskAssessmentChanged = handledWebhook({
  topic: "orders/risk_assessment_changed",
  job: "orders/risk_assessment_changed",
  jobPayload: (payload: ShopifyOrderRiskAssessmentChanged) => ({ orderId: String(payload.order_id) }),
  subject: (payload: ShopifyOrderRiskAssessmentChanged) => String(payload.order_id),
});
