// Happy paths (and a few refusals) of every resource against the real API: over loopback HTTP, and through
// createInProcessFetch (no socket), on both databases.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { DIALECTS } from "../../../test/support/databases.ts";
import { startTestApi, type TestApi } from "../../../test/support/api-server.ts";
import { orderContextFor } from "../../../test/support/client.ts";
import { createInProcessFetch } from "../../../server/in-process-fetch.ts";
import { REFERENCE_NUMBER_PATTERN } from "@purchase-protection/contract";
import { canonicalJson, ProtectionClient, ServiceHttpError, type FetchLike } from "../src/index.ts";

const TRANSPORTS = {
  "loopback HTTP": (t: TestApi) => ({ baseUrl: t.baseUrl, fetch: globalThis.fetch }),
  "in-process": (t: TestApi) => ({ baseUrl: "http://in-process/api/v1", fetch: createInProcessFetch(t.api) }),
};

describe.each(DIALECTS)("SDK against the API (%s)", (dialect) => {
  for (const [transportName, transport] of Object.entries(TRANSPORTS)) {
    describe(`over ${transportName}`, () => {
      let t: TestApi;
      let sent: { path: string; body: string | undefined }[];
      let secret: ProtectionClient;
      let widget: ProtectionClient;
      const orderId = (name: string) => `${name}-${crypto.randomUUID()}`;

      beforeAll(async () => {
        // Webhook URLs are resolved in test mode too: fake DNS, so nothing is looked up on the network.
        t = await startTestApi({
          dialect,
          transport: "socket",
          resolveHost: async () => [{ address: "93.184.216.34", family: 4 }],
        });
        const { baseUrl, fetch } = transport(t);
        sent = [];
        const recording: FetchLike = (url, init) => (
          sent.push({ path: new URL(url).pathname, body: init.body as string | undefined }),
          fetch(url, init)
        );
        const options = { baseUrl, fetch: recording, sleep: async () => {} };
        secret = new ProtectionClient({ apiKey: t.merchant.secretKey, ...options });
        widget = new ProtectionClient({ apiKey: t.merchant.publishableKey, ...options });
      });
      afterAll(() => t.close());

      /** Quote (camelCase input) and confirm (camelCase order context) with the widget key. */
      async function protect(id = orderId("order")) {
        const quote = await widget.offers.quote({
          orderAmountCents: 12_999,
          orderId: id,
          protectionProgramId: t.merchant.programId,
        });
        const context = orderContextFor(quote);
        const confirmation = await widget.offers.confirm({
          quoteId: quote.quoteId,
          quoteToken: quote.quoteToken,
          orderContext: {
            schemaVersion: context.schema_version,
            order: { id, purchasedAt: context.order.purchased_at, currency: "USD", coveredAmountCents: 12_999 },
            participants: { mode: "unnamed" },
          },
          customerEmail: "ada@example.com",
          shippingAddress: { countryCode: "GB", postalCode: "SW1A 1AA", line1: "10 Downing Street" },
        });
        return { quote, confirmation };
      }

      it("quotes with the token from the header and confirms into a plan with a reference number", async () => {
        const { quote, confirmation } = await protect();
        assert.match(quote.quoteId, /^qt_/);
        assert.equal(quote.feeCents, 390);
        assert.ok(quote.quoteToken.length >= 40);
        assert.match(confirmation.referenceNumber, REFERENCE_NUMBER_PATTERN);
        assert.equal(confirmation.status, "confirmed");
        assert.equal(confirmation.orderId, quote.orderId);
        const sentConfirm = JSON.parse(sent.at(-1)!.body!);
        assert.equal(sentConfirm.customer_email, "ada@example.com", "customerEmail goes snake_case, as the quote's");
        assert.equal(sentConfirm.customerEmail, undefined);
        assert.deepEqual(
          sentConfirm.shipping_address,
          { country_code: "GB", postal_code: "SW1A 1AA", line1: "10 Downing Street" },
          "the address goes snake_case at every depth",
        );
      });

      it("replays a call made twice with the same idempotency key", async () => {
        const fields = {
          order_amount_cents: 5_000,
          order_id: orderId("replay"),
          protection_program_id: t.merchant.programId,
        };
        const first = await secret.quotes.create(fields, "sdk-replay-key-0001");
        const second = await secret.quotes.create(fields, "sdk-replay-key-0001");
        assert.equal(second.quoteId, first.quoteId);
        assert.equal(second.quoteToken, first.quoteToken);
      });

      it("declines a quote and voids a plan", async () => {
        const quote = await widget.offers.quote({
          order_amount_cents: 2_000,
          order_id: orderId("decline"),
          protection_program_id: t.merchant.programId,
        });
        const declined = await widget.offers.decline({ quote_id: quote.quoteId, reason: "not today" });
        assert.equal(declined.status, "declined");

        const { confirmation } = await protect();
        const voided = await secret.offers.void({
          referenceNumber: confirmation.referenceNumber,
          reason: "order cancelled",
        });
        assert.equal(voided.status, "voided");
      });

      it("reports a merchant refund once; the second report is 409 order_already_refunded, not retried", async () => {
        const { quote } = await protect();
        const refund = await secret.refunds.create(quote.orderId);
        assert.equal(refund.status, "merchant_refunded");
        assert.equal(refund.consumerRefundIssued, false);
        const before = sent.length;
        const error = await secret.refunds.create(quote.orderId).catch((e: unknown) => e);
        assert.ok(error instanceof ServiceHttpError);
        assert.equal(error.httpStatus, 409);
        assert.equal(error.code, "order_already_refunded");
        assert.equal(error.type, "invalid_request_error");
        assert.match(error.requestId ?? "", /^req_/);
        assert.match(error.idempotencyKey ?? "", /^[0-9a-f-]{36}$/);
        assert.equal(sent.length, before + 1, "one attempt");
      });

      it("reports a shipment and its scans (either spelling, sent camelCase) and reads the order's delivery", async () => {
        const { quote } = await protect();
        const shipment = await secret.shipments.create(quote.orderId, {
          carrier: "UPS",
          tracking_number: "1Z999AA10123456784",
          promised_delivery_date: "2026-11-25",
        });
        assert.deepEqual(JSON.parse(sent.at(-1)!.body!), {
          carrier: "UPS",
          trackingNumber: "1Z999AA10123456784",
          promisedDeliveryDate: "2026-11-25",
        });
        assert.match(shipment.id, /^shp_/);
        assert.equal(shipment.state, "pending");
        const occurredAt = new Date(t.clock.now - 60_000).toISOString();
        const scanned = await secret.shipments.createEvent(shipment.id, { status: "delivered", occurredAt });
        assert.equal(scanned.state, "delivered");
        assert.equal(scanned.deliveredAt, occurredAt);
        const again = await secret.shipments.create(quote.orderId, {
          carrier: "UPS",
          trackingNumber: "1Z999AA10123456784",
        });
        assert.equal(again.id, shipment.id, "the same tracking number is the same shipment");
        const delivery = await secret.shipments.orderDelivery(quote.orderId);
        assert.equal(delivery.object, "order_delivery");
        assert.equal(delivery.state, "delivered");
        assert.deepEqual(delivery.shipments, [scanned]);
        const error = await widget.shipments.orderDelivery(quote.orderId).catch((e: unknown) => e);
        assert.ok(error instanceof ServiceHttpError);
        assert.equal(error.code, "secret_key_required");
      });

      it("connects AfterShip: the answer names the callback's path and never the secret", async () => {
        const connection = await secret.shipments.connectAftership({ secret: "aftership-sdk-secret" });
        assert.deepEqual(JSON.parse(sent.at(-1)!.body!), { secret: "aftership-sdk-secret" });
        assert.equal(connection.object, "tracking_connection");
        assert.equal(connection.callbackPath, `/api/v1/tracking/aftership/${t.merchant.merchantId}/test`);
        assert.ok(!JSON.stringify(connection).includes("aftership-sdk-secret"));
      });

      it("lists purchases page by page and every purchase across the pages", async () => {
        const mine = [await protect(orderId("list")), await protect(orderId("list")), await protect(orderId("list"))];
        const firstPage = await secret.purchases.list({ limit: 2 });
        assert.equal(firstPage.object, "list");
        assert.equal(firstPage.data.length, 2);
        assert.equal(firstPage.has_more, true);
        const pages = [];
        for await (const page of secret.purchases.pages({ limit: 2 })) pages.push(page);
        const all = [];
        for await (const purchase of secret.purchases.all({ limit: 2 })) all.push(purchase);
        assert.equal(all.length, pages.flatMap((page) => page.data).length);
        assert.equal(new Set(all.map((p) => p.id)).size, all.length, "no purchase twice");
        const references = new Set(all.map((p) => p.referenceNumber));
        for (const { confirmation } of mine) assert.ok(references.has(confirmation.referenceNumber));
      });

      it("lists claims and reaches other routes through the generic get", async () => {
        const claims = await secret.claims.list({ limit: 10 });
        assert.deepEqual({ object: claims.object, data: claims.data }, { object: "list", data: [] });
        const metrics = await secret.get(`/merchants/${t.merchant.merchantId}/metrics`);
        assert.equal(typeof metrics, "object");
        const one = await secret.get<{ data: { id: string }[] }>("/purchases", { limit: 1 });
        assert.equal(one.data.length, 1);
      });

      it("runs the headless path with canonical JSON bodies", async () => {
        const id = orderId("headless");
        const quote = await secret.headless.quote({
          orderAmountCents: 10_000,
          orderId: id,
          protectionProgramId: t.merchant.programId,
          currency: "usd",
        });
        assert.equal(quote.disclosure_text, secret.headless.DISCLOSURE_PHRASE);
        assert.equal(quote.currency, "USD");
        const body = sent.at(-1)!.body;
        assert.equal(
          body,
          canonicalJson({
            currency: "usd",
            order_amount_cents: 10_000,
            order_id: id,
            protection_program_id: t.merchant.programId,
          }),
        );
        const confirmation = await secret.headless.confirm({
          quoteId: quote.quote_id,
          customerEmail: "bo@example.com",
        });
        assert.match(String(confirmation.reference_number), REFERENCE_NUMBER_PATTERN);
        assert.equal(sent.at(-1)!.body, `{"customer_email":"bo@example.com","quote_id":"${quote.quote_id}"}`);

        const other = await secret.headless.quote({
          order_amount_cents: 3_000,
          order_id: orderId("headless"),
          protection_program_id: t.merchant.programId,
        });
        const declined = await secret.headless.decline({ quote_id: other.quote_id, reason: "buyer said no" });
        assert.equal(declined.status, "declined");
      });

      it("manages webhook endpoints through the generic post / get / patch / delete", async () => {
        const created = await secret.post<{ id: string; secret: string }>("/webhooks/endpoints", {
          url: "https://merchant.example/hooks",
          events: ["claim.created"],
        });
        assert.match(created.secret, /^whsec_/);
        const updated = await secret.patch<{ id: string; events: string[] }>(`/webhooks/endpoints/${created.id}`, {
          events: ["*"],
        });
        assert.deepEqual(updated.events, ["*"]);
        const rotated = await secret.post<{ secret: string }>(`/webhooks/endpoints/${created.id}/secret/rotate`);
        assert.notEqual(rotated.secret, created.secret);
        await secret.delete(`/webhooks/endpoints/${created.id}`);
        const gone = await secret.get(`/webhooks/endpoints/${created.id}`).catch((e: unknown) => e);
        assert.ok(gone instanceof ServiceHttpError);
        assert.equal(gone.httpStatus, 404);
      });

      it("reaches the other routes through their resources: a purchase, events, webhook endpoints and their deliveries, metrics", async () => {
        const endpoint = await secret.webhookEndpoints.create({
          url: "https://merchant.example/typed",
          events: ["claim.created"],
        });
        assert.match(endpoint.secret, /^whsec_/);
        assert.deepEqual((await secret.webhookEndpoints.update(endpoint.id, { events: ["*"] })).events, ["*"]);
        assert.equal((await secret.webhookEndpoints.retrieve(endpoint.id)).url, "https://merchant.example/typed");
        const endpointIds = [];
        for await (const listed of secret.webhookEndpoints.all({ limit: 1 })) endpointIds.push(listed.id);
        assert.ok(endpointIds.includes(endpoint.id));

        const { confirmation } = await protect();
        const [purchase] = (await secret.purchases.list({ orderId: confirmation.orderId })).data;
        assert.equal((await secret.purchases.retrieve(purchase!.id)).consent.feeCents, confirmation.feeCents);
        const corrected = await secret.purchases.setCustomerEmail(purchase!.id, { customerEmail: "ada.b@example.com" });
        assert.equal(corrected.id, purchase!.id);
        assert.equal(sent.at(-1)!.path, `/api/v1/purchases/${purchase!.id}/customer-email`);
        assert.equal(sent.at(-1)!.body, '{"customer_email":"ada.b@example.com"}');
        let event;
        for await (const listed of secret.events.all({ type: "protection.confirmed", limit: 2 })) {
          if (listed.type === "protection.confirmed" && listed.data.object.id === purchase!.id) event = listed;
        }
        assert.deepEqual(await secret.events.retrieve(event!.id), event);
        const redelivery = await secret.events.redeliver(event!.id, { endpointId: endpoint.id });
        assert.deepEqual(
          redelivery.deliveries.map((delivery) => delivery.endpointId),
          [endpoint.id],
        );
        assert.equal(sent.at(-1)!.body, `{"endpoint_id":"${endpoint.id}"}`);
        const attempts = await secret.webhookEndpoints.deliveries(endpoint.id).list({ limit: 5 });
        assert.deepEqual([attempts.object, attempts.has_more, attempts.next_cursor], ["list", false, null]); // the worker is not running

        const rotated = await secret.webhookEndpoints.rotateSecret(endpoint.id);
        assert.notEqual(rotated.secret, endpoint.secret);
        assert.deepEqual(await secret.webhookEndpoints.delete(endpoint.id), {
          id: endpoint.id,
          object: "webhook_endpoint",
          deleted: true,
        });

        const metrics = await secret.merchants.metrics(t.merchant.merchantId, { from: new Date(0) });
        assert.equal(metrics.object, "merchant_metrics");
        assert.ok(metrics.quotes.confirmed >= 1);
        const monthly = await secret.merchants.metrics(t.merchant.merchantId, { interval: "month" });
        assert.equal(monthly.analytics.interval, "month");

        // The CSV is the route's text, unparsed, asked for as text/csv with the same query.
        const query = { from: "2026-11-01", to: "2026-11-30", interval: "week" } as const;
        const csv = await secret.merchants.metricsCsv(t.merchant.merchantId, query);
        const direct = await t.fetch(
          `${t.baseUrl}/merchants/${t.merchant.merchantId}/metrics.csv?${new URLSearchParams(query)}`,
          { headers: { Authorization: `Bearer ${t.merchant.secretKey}` } },
        );
        assert.equal(csv, await direct.text());
        const [header, firstRow] = csv.split("\r\n");
        assert.match(header, /^period_start,currency,offers_shown,confirmed,/);
        assert.match(firstRow, /^2026-10-26,USD,/); // the ISO week holding 2026-11-01 starts on Monday 26 October
        const refused = await secret.merchants.metricsCsv("mer_someone_else").catch((error: unknown) => error);
        assert.ok(refused instanceof ServiceHttpError && refused.httpStatus === 404, String(refused));
      });

      it("lists and reads the merchant's programs: the id quotes name and its terms", async () => {
        const listed = await secret.programs.list();
        assert.deepEqual(
          listed.data.map((program) => program.id),
          [t.merchant.programId],
        );
        const program = await secret.programs.retrieve(t.merchant.programId);
        assert.deepEqual(program, listed.data[0]);
        assert.equal(program.object, "protection_program");
        assert.equal(program.rateBps, 300);
        const refused = await widget.programs.list().catch((error: unknown) => error);
        assert.ok(refused instanceof ServiceHttpError && refused.code === "secret_key_required", String(refused));
      });

      it("surfaces the API's refusals as ServiceHttpError with code and type", async () => {
        const forbidden = await widget.offers.void({ orderId: "anything" }).catch((e: unknown) => e);
        assert.ok(forbidden instanceof ServiceHttpError);
        assert.deepEqual(
          [forbidden.httpStatus, forbidden.code, forbidden.type],
          [403, "secret_key_required", "permission_error"],
        );

        const quote = await widget.offers.quote({
          order_amount_cents: 2_000,
          order_id: orderId("invalid"),
          protection_program_id: t.merchant.programId,
        });
        const invalid = await widget.offers
          .confirm({
            quoteId: quote.quoteId,
            quoteToken: quote.quoteToken,
            order_context: { schema_version: "nope" } as never,
          })
          .catch((e: unknown) => e);
        assert.ok(invalid instanceof ServiceHttpError);
        assert.equal(invalid.httpStatus, 422);
        assert.equal(invalid.code, "order_context_invalid");

        const unknown = await secret.post("/offers/quote", { colour: "red" }).catch((e: unknown) => e);
        assert.ok(unknown instanceof ServiceHttpError);
        assert.equal(unknown.httpStatus, 400);
        assert.ok(unknown.param !== null);

        const unauthenticated = new ProtectionClient({ apiKey: "mch_test_notarealkey", ...transport(t) });
        const denied = await unauthenticated.claims.list().catch((e: unknown) => e);
        assert.ok(denied instanceof ServiceHttpError);
        assert.equal(denied.httpStatus, 401);
      });
    });
  }
});
