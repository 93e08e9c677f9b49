import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient, type ApiResponse } from "../support/client.ts";
import { protectOrder, protectOrderHeadless } from "../support/protection-flows.ts";
import { startReceiver, type Receiver } from "../support/webhook-receiver.ts";
import { submitClaim } from "../../server/domain/claims.ts";

// Every route's documented 200 body against one real successful call of that route: the route's zod schema (strict
// objects, so a field the handler returns and the document does not declare fails) must parse it. The body shapes do
// not depend on the store, so SQLite is enough.

type JsonSchemaNode = { properties?: Record<string, unknown>; additionalProperties?: unknown };

/** The part of the OpenAPI document read here: each operation's documented 200 body, by path and lower-case method. */
type DocumentedBodies = {
  paths: Record<
    string,
    Record<string, { responses: { "200": { content: { "application/json": { schema: unknown } } } } }>
  >;
};

/** Every object schema with declared properties anywhere in a JSON Schema (items, anyOf branches, nested fields). */
function objectsWithProperties(node: unknown): JsonSchemaNode[] {
  if (node === null || typeof node !== "object") return [];
  const nested = Object.values(node).flatMap(objectsWithProperties);
  return "properties" in node ? [node as JsonSchemaNode, ...nested] : nested;
}

describe("every route's real response parses with its documented schema", () => {
  let t: TestApi;
  let receiver: Receiver;
  let document: DocumentedBodies;
  const bodies = new Map<string, unknown>();
  beforeAll(async () => {
    t = await startTestApi({ dialect: "sqlite", allowPrivateWebhookUrls: true });
    receiver = await startReceiver();
    const widget = apiClient(t.baseUrl, t.merchant.publishableKey);
    const secret = apiClient(t.baseUrl, t.merchant.secretKey);
    const { merchantId, programId } = t.merchant;
    document = (await widget.get<DocumentedBodies>("/openapi.json")).body;
    const record = async (operationId: string, request: Promise<ApiResponse>) => {
      const response = await request;
      assert.equal(response.status, 200, `${operationId}: ${response.text}`);
      bodies.set(operationId, response.body);
      return response.body;
    };

    const quote = await record(
      "createQuote",
      widget.post("/offers/quote", {
        order_amount_cents: 4_200,
        order_id: "shape-1",
        protection_program_id: programId,
      }),
    );
    await record("declineQuote", widget.post("/offers/decline", { quoteId: quote.quoteId, reason: "not today" }));
    const { confirmation } = await protectOrder(widget, programId);
    bodies.set("confirmQuote", confirmation);
    await t.database.db.transaction((tx) =>
      submitClaim(
        tx,
        t.services,
        { merchantId, mode: "test" },
        { referenceNumber: confirmation.referenceNumber, reason: "lost_in_transit", description: "never came" },
      ),
    );
    const voided = await protectOrder(widget, programId);
    await record(
      "voidPlan",
      secret.post("/offers/void", { planId: voided.confirmation.planId, reason: "order cancelled" }),
    );
    const refunded = await protectOrder(widget, programId);
    await record("reportMerchantRefund", secret.post(`/orders/${refunded.confirmation.orderId}/refund`));
    await record("listClaims", secret.get("/merchant/claims"));
    await record("listMerchantClaims", secret.get(`/merchants/${merchantId}/claims`));
    await record("getMerchantMetrics", secret.get(`/merchants/${merchantId}/metrics`));
    await record("listPurchases", secret.get("/purchases"));
    await record("getPurchase", secret.get(`/purchases/${confirmation.planId}`));

    const headless = await protectOrderHeadless(secret, programId);
    bodies.set("headlessQuote", headless.quote);
    bodies.set("headlessConfirm", headless.confirmation);
    const open = await secret.post("/headless/quote", {
      order_amount_cents: 500,
      order_id: "shape-h",
      protection_program_id: programId,
    });
    await record("headlessDecline", secret.post("/headless/decline", { quote_id: open.body.quote_id }));

    const endpointPath = (id: string) => `/webhooks/endpoints/${id}`;
    const endpoint = await record(
      "createWebhookEndpoint",
      secret.post("/webhooks/endpoints", { url: receiver.url, events: ["*"] }),
    );
    await record("listWebhookEndpoints", secret.get("/webhooks/endpoints"));
    await record("getWebhookEndpoint", secret.get(endpointPath(endpoint.id)));
    await record(
      "updateWebhookEndpoint",
      secret.call("PATCH", endpointPath(endpoint.id), { events: ["claim.created", "protection.confirmed"] }),
    );
    await record("rotateWebhookSecret", secret.post(`${endpointPath(endpoint.id)}/secret/rotate`, {}));
    const events = await record("listEvents", secret.get("/events"));
    const confirmed = events.data.find((event: { type: string }) => event.type === "protection.confirmed");
    await record("getEvent", secret.get(`/events/${confirmed.id}`));
    await record("redeliverEvent", secret.post(`/events/${confirmed.id}/redeliver`, {}));
    await t.api.webhooks.runOnce();
    await record("listWebhookDeliveries", secret.get(`${endpointPath(endpoint.id)}/deliveries`));
    await record("deleteWebhookEndpoint", secret.call("DELETE", endpointPath(endpoint.id), {}));
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  it("covers every route, each documenting a closed 200 body", () => {
    assert.deepEqual([...bodies.keys()].sort(), t.api.routes.map((route) => route.operationId).sort());
    for (const route of t.api.routes) {
      const operation = document.paths[route.path.replace(/:([A-Za-z]+)/g, "{$1}")][route.method.toLowerCase()];
      const schema = operation.responses["200"].content["application/json"].schema;
      assert.notDeepEqual(objectsWithProperties(schema), [], route.operationId);
      for (const object of objectsWithProperties(schema))
        assert.equal(
          object.additionalProperties,
          false,
          `${route.operationId}: ${Object.keys(object.properties ?? {})}`,
        );
    }
  });

  it("each real body parses with its route's schema", () => {
    for (const route of t.api.routes) {
      const parsed = route.response.schema.safeParse(bodies.get(route.operationId));
      assert.ok(
        parsed.success,
        `${route.operationId}: ${parsed.error?.message} in ${JSON.stringify(bodies.get(route.operationId))}`,
      );
    }
  });

  it("lists that carry items were checked item by item (none of them is empty)", () => {
    for (const operationId of [
      "listClaims",
      "listPurchases",
      "listEvents",
      "listWebhookEndpoints",
      "listWebhookDeliveries",
    ]) {
      assert.ok((bodies.get(operationId) as { data: unknown[] }).data.length > 0, operationId);
    }
  });

  it("a field the document does not declare fails, at the top and nested", () => {
    const schemaOf = (operationId: string) =>
      t.api.routes.find((route) => route.operationId === operationId)!.response.schema;
    const purchase = bodies.get("getPurchase") as { consent: object };
    assert.equal(schemaOf("getPurchase").safeParse({ ...purchase, extra: 1 }).success, false);
    assert.equal(
      schemaOf("getPurchase").safeParse({ ...purchase, consent: { ...purchase.consent, extra: 1 } }).success,
      false,
    );
    const page = bodies.get("listEvents") as { data: object[] };
    assert.equal(schemaOf("listEvents").safeParse({ ...page, data: [{ ...page.data[0], extra: 1 }] }).success, false);
  });
});
