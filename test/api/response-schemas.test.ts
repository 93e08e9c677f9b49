import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient, type ApiResponse } from "../support/client.ts";
import { protectOrder, protectOrderHeadless, sha256Hex } from "../support/protection-flows.ts";
import { startReceiver, type Receiver } from "../support/webhook-receiver.ts";
import { submitClaim } from "../../server/domain/claims.ts";
import { approveClaim } from "../../server/domain/claim-decisions.ts";
import { newPortalToken } from "../../server/domain/portal.ts";
import { insertPortalSession } from "../../server/store/portal-sessions.ts";
import { PLAIN_PNG } from "../support/evidence-images.ts";
import { coverageLinks } from "../../server/email/coverage-link.ts";
import { closeEndedPeriods } from "../../server/domain/settlements.ts";

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
    // A socket: a multipart upload and downloads read off the wire.
    t = await startTestApi({ dialect: "sqlite", allowPrivateWebhookUrls: true, transport: "socket" });
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
    const shipped = (await protectOrder(widget, programId)).confirmation.orderId;
    const shipment = await record(
      "reportShipment",
      secret.post(`/orders/${shipped}/shipments`, {
        carrier: "UPS",
        trackingNumber: "1Z-shapes",
        promisedDeliveryDate: "2026-11-30",
      }),
    );
    await record(
      "reportShipmentEvent",
      secret.post(`/shipments/${shipment.id}/events`, {
        status: "delivered",
        occurredAt: new Date(t.clock.now).toISOString(),
        location: "Leeds",
      }),
    );
    await record("getOrderDelivery", secret.get(`/orders/${shipped}/delivery`));
    const aftershipSecret = "shapes-aftership-secret";
    const connection = await record(
      "connectAftership",
      secret.post("/tracking/aftership", { secret: aftershipSecret }),
    );
    const callback = JSON.stringify({
      event: "tracking_update",
      msg: { tracking_number: "1Z-shapes", slug: "ups", tag: "Delivered", checkpoints: [] },
    });
    await record(
      "receiveAftershipCallback",
      secret.post((connection as { callbackPath: string }).callbackPath.replace("/api/v1", ""), undefined, {
        key: null,
        idempotencyKey: null,
        raw: callback,
        headers: { "aftership-hmac-sha256": createHmac("sha256", aftershipSecret).update(callback).digest("base64") },
      }),
    );
    await record("listClaims", secret.get("/merchant/claims"));
    await record("listMerchantClaims", secret.get(`/merchants/${merchantId}/claims`));
    // An approved claim (its resolution pending), then paid in part: the plan keeps coverage for the portal's claim below.
    const [listed] = (bodies.get("listClaims") as { data: { id: string }[] }).data;
    await t.database.db.transaction((tx) =>
      approveClaim(
        tx,
        t.services,
        { merchantId, mode: "test" },
        listed.id,
        { kind: "staff", staffId: "stf_shapes" },
        {},
      ),
    );
    await record("getClaim", secret.get(`/merchant/claims/${listed.id}`));
    await record(
      "resolveClaim",
      secret.post(`/merchant/claims/${listed.id}/resolution`, {
        kind: "refund",
        amountCents: 100,
        reference: "re_shapes",
      }),
    );
    await record("getMerchantMetrics", secret.get(`/merchants/${merchantId}/metrics`));
    const metricsCsv = await t.fetch(`${t.baseUrl}/merchants/${merchantId}/metrics.csv`, {
      headers: { Authorization: `Bearer ${t.merchant.secretKey}` },
    });
    await record(
      "getMerchantMetricsCsv",
      Promise.resolve({ status: metricsCsv.status, body: await metricsCsv.text() } as ApiResponse),
    );
    await record("listPrograms", secret.get("/programs"));
    await record("getProgram", secret.get(`/programs/${programId}`));
    await record("listPurchases", secret.get("/purchases"));
    await record("getPurchase", secret.get(`/purchases/${confirmation.planId}`));
    await record(
      "setPurchaseCustomerEmail",
      secret.post(`/purchases/${confirmation.planId}/customer-email`, { customer_email: "corrected@example.test" }),
    );

    // The buyer portal's sign-ins, coverage summary and free-look cancellation, and the merchant's fee-refund confirm.
    const bought = await protectOrder(widget, programId, { customer_email: "shapes@example.test" });
    const reference = bought.confirmation.referenceNumber;
    const anyone = apiClient(t.baseUrl);
    const signedIn = await record(
      "portalLookup",
      anyone.post(
        "/portal/lookup",
        { email: "shapes@example.test", referenceNumber: reference },
        { idempotencyKey: null },
      ),
    );
    await record(
      "portalCoverageLink",
      anyone.post(
        "/portal/coverage-link",
        { referenceNumber: reference, token: coverageLinks(t.encryptionKey).tokenFor(reference, t.clock.now) },
        { idempotencyKey: null },
      ),
    );
    await record("getPortalReasons", anyone.get("/portal/reasons"));
    const buyer = apiClient(t.baseUrl, signedIn.portalToken);
    await record("getPortalPlan", buyer.get("/portal/plan"));
    await record("cancelPortalPlan", buyer.post("/portal/cancel", { referenceNumber: reference }));
    await record(
      "confirmFeeRefund",
      secret.post(`/purchases/${bought.confirmation.planId}/fee-refund`, { reference: "re_shapes" }),
    );

    // The buyer's claim routes, through a portal session on the claimed plan (stored as a look-up stores one).
    const portalToken = newPortalToken();
    await t.database.db.transaction((tx) =>
      insertPortalSession(tx, {
        id: "pss_shapes",
        tokenHash: sha256Hex(portalToken),
        merchantId,
        mode: "test",
        planId: confirmation.planId,
        via: "lookup",
        createdAt: t.clock.now,
        expiresAt: t.clock.now + 60 * 60 * 1000,
      }),
    );
    const portal = apiClient(t.baseUrl, portalToken);
    const form = new FormData();
    for (const [name, value] of Object.entries({
      referenceNumber: confirmation.referenceNumber,
      reason: "damaged_in_transit",
      occurredAt: new Date(t.clock.now).toISOString().slice(0, 10),
      description: "The box arrived crushed.",
    }))
      form.append(name, value);
    form.append("evidence", new Blob([PLAIN_PNG as Uint8Array<ArrayBuffer>]), "box.png");
    const filedResponse = await fetch(`${t.baseUrl}/portal/claims`, {
      method: "POST",
      headers: { Authorization: `Bearer ${portalToken}`, "Idempotency-Key": "shapes-file-claim-0001" },
      body: form,
    });
    const filed = await record(
      "fileClaim",
      filedResponse.json().then((body) => ({ status: filedResponse.status, body }) as ApiResponse),
    );
    await record("listPortalClaims", portal.get("/claims"));
    await record("getPortalClaim", portal.get(`/portal/claims/${filed.id}`));
    await record("addClaimMessage", portal.post(`/portal/claims/${filed.id}/messages`, { message: "More detail." }));
    const evidencePath = `/claims/${filed.id}/evidence/${filed.evidence[0].id}`;
    for (const [operationId, path, key] of [
      ["getPortalClaimEvidence", `/portal${evidencePath}`, portalToken],
      ["getMerchantClaimEvidence", `/merchant${evidencePath}`, t.merchant.secretKey],
    ]) {
      const download = await fetch(`${t.baseUrl}${path}`, { headers: { Authorization: `Bearer ${key}` } });
      const body = Buffer.from(await download.arrayBuffer()).toString("latin1");
      await record(operationId, Promise.resolve({ status: download.status, body } as ApiResponse));
    }
    await record("portalSignOut", portal.post("/portal/sign-out", {}));

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

    // docs/api.md "Settlement": the week of the confirms above, closed once it has ended.
    t.clock.advance(8 * 24 * 60 * 60 * 1000);
    await closeEndedPeriods(t.database.db, t.services);
    const statements = await record("listSettlements", secret.get("/settlements"));
    await record("getSettlement", secret.get(`/settlements/${statements.data[0].id}`));
    await record("getSettlementBalance", secret.get("/settlements/balance"));
    const csv = await fetch(`${t.baseUrl}/settlements/${statements.data[0].id}/entries.csv`, {
      headers: { Authorization: `Bearer ${t.merchant.secretKey}` },
    });
    await record(
      "getSettlementEntriesCsv",
      Promise.resolve({ status: csv.status, body: await csv.text() } as ApiResponse),
    );
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  it("covers every route, each documenting a closed 200 body", () => {
    assert.deepEqual([...bodies.keys()].sort(), t.api.routes.map((route) => route.operationId).sort());
    for (const route of t.api.routes) {
      const operation = document.paths[route.path.replace(/:([A-Za-z]+)/g, "{$1}")][route.method.toLowerCase()];
      // A file download documents its bytes by content type, not a JSON body.
      if (!operation.responses["200"].content["application/json"]) continue;
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
      "listSettlements",
      "getSettlementBalance",
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
