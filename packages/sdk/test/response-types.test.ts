// The SDK's response types against the API's OpenAPI document: src/responses.ts must be what
// scripts/generate-responses.ts writes from the document today, and every documented operation has an SDK method
// whose result is that operation's documented response (the type check is tsc's, the coverage check runs).
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import { expectTypeOf } from "expect-type";
import {
  callbackOperationIds,
  documentedResponses,
  generateResponses,
  portalOperationIds,
  RESPONSES_FILE,
} from "../scripts/generate-responses.ts";
import { ProtectionClient, type OperationResponses, type QuoteWithToken } from "../src/index.ts";
import type { CallbackOperation, PortalOperation } from "../src/responses.ts";

/** The SDK method of each documented operation. */
const methodsOf = (client: ProtectionClient) => ({
  createQuote: client.offers.quote,
  confirmQuote: client.offers.confirm,
  declineQuote: client.offers.decline,
  voidPlan: client.offers.void,
  reportMerchantRefund: client.refunds.create,
  reportShipment: client.shipments.create,
  reportShipmentEvent: client.shipments.createEvent,
  getOrderDelivery: client.shipments.orderDelivery,
  connectAftership: client.shipments.connectAftership,
  listClaims: client.claims.list,
  listMerchantClaims: client.claims.list, // the same listing under the merchant's id; the SDK uses /merchant/claims
  getClaim: client.claims.retrieve,
  resolveClaim: client.claims.resolve,
  getMerchantMetrics: client.merchants.metrics,
  listPurchases: client.purchases.list,
  getPurchase: client.purchases.retrieve,
  confirmFeeRefund: client.purchases.confirmFeeRefund,
  setPurchaseCustomerEmail: client.purchases.setCustomerEmail,
  headlessQuote: client.headless.quote,
  headlessConfirm: client.headless.confirm,
  headlessDecline: client.headless.decline,
  listEvents: client.events.list,
  getEvent: client.events.retrieve,
  listSettlements: client.settlements.list,
  getSettlement: client.settlements.retrieve,
  getSettlementBalance: client.settlements.balance,
  listPrograms: client.programs.list,
  getProgram: client.programs.retrieve,
  redeliverEvent: client.events.redeliver,
  createWebhookEndpoint: client.webhookEndpoints.create,
  listWebhookEndpoints: client.webhookEndpoints.list,
  getWebhookEndpoint: client.webhookEndpoints.retrieve,
  updateWebhookEndpoint: client.webhookEndpoints.update,
  deleteWebhookEndpoint: client.webhookEndpoints.delete,
  rotateWebhookSecret: client.webhookEndpoints.rotateSecret,
  listWebhookDeliveries: client.webhookEndpoints.deliveries("we_0").list,
});

type Methods = ReturnType<typeof methodsOf>;
type Results = { [Operation in keyof Methods]: Awaited<ReturnType<Methods[Operation]>> };
/**
 * What each method resolves to: the documented body, and for a quote the token from its header beside it. The buyer
 * portal's operations take a portal session, never a merchant key, and the tracking aggregator calls its callbacks:
 * they are not this SDK's.
 */
type Expected = {
  [Operation in Exclude<keyof OperationResponses, PortalOperation | CallbackOperation>]: Operation extends "createQuote"
    ? QuoteWithToken
    : OperationResponses[Operation];
};

describe("the SDK's response types and the API's OpenAPI document", () => {
  it("src/responses.ts is what scripts/generate-responses.ts writes from the document", async () => {
    assert.equal(
      fs.readFileSync(RESPONSES_FILE, "utf8"),
      await generateResponses(),
      "run `node packages/sdk/scripts/generate-responses.ts`",
    );
  });

  it("every documented operation has an SDK method resolving to its documented response", () => {
    expectTypeOf<Results>().toEqualTypeOf<Expected>();
    const methods = methodsOf(new ProtectionClient({ apiKey: "mch_test_x" }));
    const portal = new Set([...portalOperationIds(), ...callbackOperationIds()]);
    assert.deepEqual(
      Object.keys(methods).sort(),
      [...documentedResponses().keys()].filter((operationId) => !portal.has(operationId)).sort(),
    );
  });
});
