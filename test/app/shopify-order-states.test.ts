// The protection's state written back onto the Shopify order, and the merchant's Flow triggers, through the app's real
// wiring: an order protected through orders/create, a claim filed through the portal API, approved by the claims team
// and paid by the payout job, a plan cancelled in the free look; after each, the app follows the outbox and its jobs
// write the order's metafields and tags (the fake Admin API keeps them) and start the Flow trigger, whose payload the
// fake checks against the trigger extension's declared fields as Flow does.
import { it, beforeAll } from "vitest";
import assert from "node:assert/strict";
import { describeShopifyApp } from "../support/dialect-suites.ts";
import {
  approve,
  cancelInFreeLook,
  fileClaim,
  protectedPaidOrder,
  type PaidOrder,
} from "./shopify-claim-payout-support.ts";

const SHOP = "order-states.myshopify.com";
const NAMESPACE = "$app:protection";

describeShopifyApp(
  "Shopify app (%s): the protection's state on the order, and Flow triggers",
  { shops: [SHOP] },
  (app) => {
    let states: typeof import("../../app/shopify/order-states.server.ts");

    beforeAll(async () => {
      states = await import("../../app/shopify/order-states.server.ts");
    });

    const deps = () => app.runtime().deps;
    const orderGid = (order: PaidOrder["order"]) => order.admin_graphql_api_id;
    const metafield = (order: PaidOrder["order"], key: string) =>
      app.admin.metafields.find((m) => m.ownerId === orderGid(order) && m.namespace === NAMESPACE && m.key === key)
        ?.value;
    const tags = (order: PaidOrder["order"]) => [...(app.admin.orderTags.get(orderGid(order)) ?? [])].sort();
    const triggers = (handle: string, orderId: number) =>
      app.admin.flowTriggers.filter((trigger) => trigger.handle === handle && trigger.payload.order_id === orderId);

    it("install defines the order metafields once: read-only to the merchant, the text ones filterable, the checkout choice copied from the cart", async () => {
      const definitions = app.admin.metafieldDefinitions;
      assert.deepEqual(definitions.map((definition) => definition.key).sort(), [
        "choice",
        "claim_status",
        "claims",
        "consent",
        "protection_status",
        "reference_number",
      ]);
      for (const definition of definitions) {
        assert.equal(definition.namespace, NAMESPACE);
        assert.equal(definition.ownerType, "ORDER");
        assert.deepEqual(definition.access, { admin: "MERCHANT_READ" });
        assert.equal(
          definition.capabilities?.adminFilterable?.enabled ?? false,
          definition.type === "single_line_text_field",
          definition.key,
        );
      }
      const copied = definitions.filter((definition) => definition.capabilities?.cartToOrderCopyable?.enabled);
      assert.deepEqual(
        copied.map((definition) => definition.key),
        ["choice"],
        "the checkout block's cart metafield reaches the order",
      );
      const creates = () => app.admin.calls.filter((call) => call.operationName === "CreateOrderMetafieldDefinition");
      const before = creates().length;
      await states.ensureOrderMetafieldDefinitions(await deps().adminApi(SHOP));
      assert.equal(creates().length, before, "a second setup creates nothing");
    });

    it("a claim's life on the order: protected, filed, decided, paid — metafields, tags and one Flow trigger each", async () => {
      const paid = await protectedPaidOrder(app, SHOP);
      const { order, plan } = paid;
      await app.settledWithOrderEvents();
      assert.equal(metafield(order, "protection_status"), "active");
      assert.equal(metafield(order, "claim_status"), "none");
      const consent = JSON.parse(metafield(order, "consent")!);
      assert.equal(consent.fee_paid_by, "buyer");
      assert.match(consent.disclosure_sha256, /^[0-9a-f]{64}$/);
      assert.ok(Date.parse(consent.accepted_at) > 0);
      assert.equal(consent.currency, "USD");
      assert.ok(consent.evidence.includes("protection_line"), JSON.stringify(consent.evidence));
      assert.deepEqual(tags(order), ["protected"]);
      const [added] = triggers("protection-added", order.id);
      assert.equal(added?.payload["Reference number"], plan.reference_number);

      const claim = await fileClaim(paid, { reason: "lost_in_transit", amountCents: 5_000 });
      await app.settledWithOrderEvents();
      assert.equal(metafield(order, "claim_status"), claim.status);
      assert.deepEqual(JSON.parse(metafield(order, "claims")!), [
        { number: 1, id: claim.id, reason: "lost_in_transit", status: claim.status, amount: "50.00" },
      ]);
      assert.deepEqual(tags(order), ["protected", "protection-claim-open"]);
      assert.equal(triggers("claim-filed", order.id)[0]?.payload["Claim id"], claim.id);

      await approve(app, plan, claim.id, "refund");
      await app.settledWithOrderEvents();
      assert.equal(metafield(order, "claim_status"), "approved");
      assert.deepEqual(tags(order), ["protected", "protection-claim-open"], "approved, not yet paid: still open");
      const [decided] = triggers("claim-decided", order.id);
      assert.equal(decided?.payload.Decision, "approved");

      const { queueApprovedClaimPayouts } = await import("../../app/shopify/claim-payouts.server.ts");
      await queueApprovedClaimPayouts(deps());
      await app.settledWithOrderEvents();
      assert.equal(metafield(order, "claim_status"), "paid");
      assert.deepEqual(tags(order), ["protected"]);
      const [paidTrigger] = triggers("claim-paid", order.id);
      assert.deepEqual([paidTrigger?.payload["Paid amount"], paidTrigger?.payload["Paid as"]], [50, "refund"]);

      // Each event started its trigger once, and the outbox read again from the start queues nothing new.
      const started = app.admin.flowTriggers.length;
      const jobs = await app.database.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM shopify_jobs");
      await app.database.db.run("UPDATE webhook_fanout SET last_seq = 0 WHERE name = 'shopify-orders'");
      await app.settledWithOrderEvents();
      assert.equal(app.admin.flowTriggers.length, started);
      assert.deepEqual(await app.database.db.get("SELECT COUNT(*) AS n FROM shopify_jobs"), jobs);
      for (const handle of ["protection-added", "claim-filed", "claim-decided", "claim-paid"])
        assert.equal(triggers(handle, order.id).length, 1, handle);
    });

    /** The write-backs the Admin API took for the order: the reference's (with the state) and the state's alone. */
    const writeBacks = (order: PaidOrder["order"]) =>
      app.admin.calls
        .filter(
          (call) =>
            (call.operationName === "ProtectionReference" || call.operationName === "OrderProtectionState") &&
            call.variables.id === orderGid(order),
        )
        .map((call) => call.operationName);

    it("a new plan's reference and state go to the order in one Admin call, and its confirmed event queues no second", async () => {
      const { order, plan } = await protectedPaidOrder(app, SHOP);
      assert.deepEqual(writeBacks(order), ["ProtectionReference"]);
      assert.equal(app.admin.orders.get(orderGid(order))!.customAttributes.at(-1)!.value, plan.reference_number);
      assert.equal(metafield(order, "protection_status"), "active");
      assert.deepEqual(tags(order), ["protected"]);

      await app.settledWithOrderEvents();
      assert.deepEqual(writeBacks(order), ["ProtectionReference"]);
      const jobs = await app.database.db.all<{ kind: string }>("SELECT kind FROM shopify_jobs WHERE subject = ?", [
        plan.id,
      ]);
      assert.deepEqual(jobs.map((job) => job.kind).sort(), ["flow_trigger", "write_reference"]);
    });

    it("a write-back whose answer is lost (Shopify did it) is retried to the same end state", async () => {
      app.admin.loseNextResponse("ProtectionReference");
      const { order, plan } = await protectedPaidOrder(app, SHOP);
      const job = await app.database.db.get<{ id: string; status: string; attempts: number | string }>(
        "SELECT id, status, attempts FROM shopify_jobs WHERE kind = 'write_reference' AND subject = ?",
        [plan.id],
      );
      assert.deepEqual([job?.status, Number(job?.attempts)], ["pending", 1]);
      assert.deepEqual(tags(order), ["protected"], "done, though no answer came");

      await app.database.db.run("UPDATE shopify_jobs SET run_at = 0 WHERE id = ?", [job!.id]);
      await app.runtime().queue.runDue();
      await app.settled();
      assert.deepEqual(writeBacks(order), ["ProtectionReference", "ProtectionReference"]);
      assert.deepEqual(tags(order), ["protected"]);
      const writes = app.admin.metafields.filter((m) => m.ownerId === orderGid(order) && m.key === "protection_status");
      assert.equal(writes.length, 1, "each metafield replaced, never added twice");
      assert.equal(app.admin.orders.get(orderGid(order))!.customAttributes.at(-1)!.value, plan.reference_number);
      const done = await app.database.db.get<{ status: string }>("SELECT status FROM shopify_jobs WHERE id = ?", [
        job!.id,
      ]);
      assert.equal(done?.status, "done");
    });

    it("a reference job queued before the state went with it finds its plan by the order, and writes both", async () => {
      const { order, plan } = await protectedPaidOrder(app, SHOP);
      const { orderHandlers } = await import("../../app/shopify/orders.server.ts");
      app.admin.orderTags.delete(orderGid(order));
      await orderHandlers(deps()).write_reference(
        {
          id: "job_reference_before",
          shop: SHOP,
          kind: "write_reference",
          payload: {
            orderId: String(order.id),
            orderGid: orderGid(order),
            attributes: order.note_attributes,
            referenceNumber: plan.reference_number,
          },
          attempts: 0,
        },
        { markDone: async () => {} },
      );
      assert.deepEqual(tags(order), ["protected"]);
      assert.deepEqual(writeBacks(order), ["ProtectionReference", "ProtectionReference"]);
    });

    it("a plan that moves while its state is written (another event's job ran in between) is written again", async () => {
      const paid = await protectedPaidOrder(app, SHOP);
      await app.settledWithOrderEvents();
      const claim = await fileClaim(paid, { reason: "lost_in_transit", amountCents: 2_000 });
      // The claim event's job, as it runs: the claim is decided after the job read the plan, before its write is done.
      let decided = false;
      const racing = states.orderStateHandlers({
        ...deps(),
        async adminApi(shop) {
          const graphql = await deps().adminApi(shop);
          return (async (query: string, variables?: object) => {
            const answer = await graphql(query, variables);
            if (query.includes("OrderProtectionState") && !decided) {
              decided = true;
              await approve(app, paid.plan, claim.id, "refund");
            }
            return answer;
          }) as typeof graphql;
        },
      });
      const run = () =>
        racing.write_order_state(
          { id: "job_racing", shop: SHOP, kind: "write_order_state", payload: { planId: paid.plan.id }, attempts: 0 },
          { markDone: async () => {} },
        );
      await assert.rejects(run(), /moved while its state was written/);
      await run();
      assert.equal(metafield(paid.order, "claim_status"), "approved");
    });

    it("a free-look cancellation: protection_status cancelled, the protected tag removed, protection-cancelled started", async () => {
      const { order, plan } = await protectedPaidOrder(app, SHOP);
      await app.settledWithOrderEvents();
      assert.deepEqual(tags(order), ["protected"]);

      await cancelInFreeLook(order, plan);
      await app.settledWithOrderEvents();
      assert.equal(metafield(order, "protection_status"), "cancelled");
      assert.deepEqual(tags(order), []);
      assert.equal(triggers("protection-cancelled", order.id).length, 1);
    });
  },
);
