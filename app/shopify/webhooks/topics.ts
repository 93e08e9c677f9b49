// The webhook topics the app handles: the one list shopify.app.toml's subscriptions are checked against
// (test/app/shopify-app-toml.test.ts) and the receiver looks topics up in.
import { appUninstalled } from "./app-uninstalled.ts";
import { appScopesUpdate } from "./app-scopes-update.ts";
import { ordersCreate } from "./orders-create.ts";
import { ordersCancelled } from "./orders-cancelled.ts";
import { ordersEdited } from "./orders-edited.ts";
import { refundsCreate } from "./refunds-create.ts";
import { fulfillmentsCreate } from "./fulfillments-create.ts";
import { fulfillmentsUpdate } from "./fulfillments-update.ts";
import { fulfillmentEventsCreate } from "./fulfillment-events-create.ts";
import { customersDataRequest } from "./customers-data-request.ts";
import { customersRedact } from "./customers-redact.ts";
import { shopRedact } from "./shop-redact.ts";
import { appSubscriptionsUpdate } from "./app-subscriptions-update.ts";
import { ordersRiskAssessmentChanged } from "./orders-risk-assessment-changed.ts";

export const HANDLED_WEBHOOKS = [
  appUninstalled,
  appScopesUpdate,
  ordersCreate,
  ordersCancelled,
  ordersEdited,
  refundsCreate,
  fulfillmentsCreate,
  fulfillmentsUpdate,
  fulfillmentEventsCreate,
  customersDataRequest,
  customersRedact,
  shopRedact,
  appSubscriptionsUpdate,
  ordersRiskAssessmentChanged,
];

export const HANDLED_TOPICS = HANDLED_WEBHOOKS.map((webhook) => webhook.topic);

export const handledWebhookFor = (topic: string) => HANDLED_WEBHOOKS.find((webhook) => webhook.topic === topic);
