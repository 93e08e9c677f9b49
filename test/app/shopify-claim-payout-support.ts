// Claims on Shopify orders, made through the app's real wiring for the claim payout and delivery suites: an order
// protected through the orders/create webhook and paid on the fake Admin API (one SALE of its total), a claim filed by
// the buyer through the portal API (POST /portal/lookup, POST /portal/claims) and decided by the claims team
// (approveClaim), the program's claim rules set as the dashboard will set them (setClaimRules); a plan cancelled by the
// buyer in the free look (cancelInFreeLook); a refund job that Shopify refuses on every attempt (failEveryAttempt).
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { orderPayload, TEST_APP } from "../support/shopify.ts";
import type { ShopifyAppHarness } from "../support/shopify-app.ts";
import { waitFor } from "../support/wait.ts";
import { approveClaim } from "../../server/domain/claim-decisions.ts";
import type { ClaimRulesInput } from "../../server/domain/claim-rules.ts";
import { setClaimRules } from "../../server/domain/programs.ts";
import { formatDecimalAmount } from "@purchase-protection/contract";

export const GATEWAY = "shopify_payments";
export const GOODS_PRODUCT_ID = 111;

export interface ProtectedPlan {
  id: string;
  merchant_id: string;
  mode: "test" | "live";
  currency: string;
  fee_cents: number;
  covered_amount_cents: number;
  reference_number: string;
  purchased_at: number | string;
}

export type PaidOrder = Awaited<ReturnType<typeof protectedPaidOrder>>;

async function services() {
  const { protectionRuntime } = await import("../../app/protection-api.server.ts");
  return protectionRuntime().services;
}

/**
 * An order of 120.00 of goods with the protection line, protected through orders/create and paid (one SALE), its
 * order events followed. `deliver` posts orders/create and answers its status: by default in process; an end-to-end
 * test sends it signed over HTTP.
 */
export async function protectedPaidOrder(
  app: ShopifyAppHarness,
  shop: string,
  deliver: (order: ReturnType<typeof orderPayload>) => Promise<number> = (order) =>
    app.deliver({ shop, topic: "orders/create", payload: order }),
) {
  const db = app.database.db;
  const installation = (await db.get<{ product_id: string; tiers: string }>(
    "SELECT * FROM shop_installations WHERE shop = ?",
    [shop],
  ))!;
  const tiers: { priceCents: number; variantId: string }[] = JSON.parse(installation.tiers);
  const tier = tiers.find((candidate) => candidate.priceCents >= 360)!; // 3 % of 120.00
  const order = orderPayload({
    lines: [
      { productId: GOODS_PRODUCT_ID, price: "60.00", quantity: 2 },
      {
        productId: installation.product_id,
        variantId: tier.variantId,
        price: formatDecimalAmount(tier.priceCents, "USD"),
      },
    ],
    attributes: { _protection: "accepted" },
    email: `buyer-${randomUUID()}@example.com`,
  });
  assert.equal(await deliver(order), 200);
  await app.settledWithOrderEvents();
  const sale = app.admin.addPaidOrder(order, { gateway: GATEWAY });
  const plan = (await db.get<ProtectedPlan>("SELECT * FROM plans WHERE order_id = ?", [String(order.id)]))!;
  assert.ok(plan, "the order is protected");
  return { order, sale, plan, goodsLine: order.line_items[0], protectionLine: order.line_items[1] };
}

/** POSTs to the bundled API as the app serves it, in process. */
async function post(path: string, body: object, headers: Record<string, string> = {}) {
  const { handleApiRequest } = await import("../../app/protection-api.server.ts");
  return handleApiRequest(
    new Request(new URL(`/api/v1${path}`, TEST_APP.SHOPIFY_APP_URL), {
      method: "POST",
      headers: { "Content-Type": "application/json", "Idempotency-Key": randomUUID(), ...headers },
      body: JSON.stringify(body),
    }),
  );
}

/** The buyer signs in with e-mail + reference number and files a claim; resolves with the claim the portal shows. */
export async function fileClaim(
  { order, plan }: Pick<PaidOrder, "order" | "plan">,
  claim: { reason: string; amountCents: number },
): Promise<{ id: string; status: string }> {
  const lookup = await post("/portal/lookup", { email: order.email, referenceNumber: plan.reference_number });
  assert.equal(lookup.status, 200, await lookup.clone().text());
  const { portalToken } = (await lookup.json()) as { portalToken: string };
  const filed = await post(
    "/portal/claims",
    {
      referenceNumber: plan.reference_number,
      reason: claim.reason,
      occurredAt: new Date(Number(plan.purchased_at)).toISOString(),
      description: "The parcel never came.",
      amountCents: claim.amountCents,
    },
    { Authorization: `Bearer ${portalToken}` },
  );
  assert.equal(filed.status, 200, await filed.clone().text());
  return (await filed.json()) as { id: string; status: string };
}

/**
 * The buyer cancels in the free look through the portal API: signs in with e-mail + reference number
 * (POST /portal/lookup), then POST /portal/cancel. The plan is cancelled and its fee owed back through Shopify.
 */
export async function cancelInFreeLook(order: { email: string }, plan: { reference_number: string }): Promise<void> {
  const lookup = await post("/portal/lookup", { email: order.email, referenceNumber: plan.reference_number });
  assert.equal(lookup.status, 200, await lookup.clone().text());
  const { portalToken } = (await lookup.json()) as { portalToken: string };
  const cancel = await post(
    "/portal/cancel",
    { referenceNumber: plan.reference_number },
    { Authorization: `Bearer ${portalToken}` },
  );
  assert.equal(cancel.status, 200, await cancel.clone().text());
  const cancelled = (await cancel.json()) as { status: string; feeRefund: { status: string } };
  assert.deepEqual([cancelled.status, cancelled.feeRefund.status], ["cancelled", "pending"]);
}

/** A member of the claims team approves the claim for the remedy. */
export async function approve(
  app: ShopifyAppHarness,
  plan: ProtectedPlan,
  claimId: string,
  remedy: "refund" | "replacement",
): Promise<void> {
  const domain = await services();
  const approved = await app.database.db.transaction((tx) =>
    approveClaim(
      tx,
      domain,
      { merchantId: plan.merchant_id, mode: plan.mode },
      claimId,
      { kind: "staff", staffId: "stf_reviewer" },
      { remedy },
    ),
  );
  assert.equal(approved.status, "approved");
}

/** The claim rules of the merchant's active programs (claims filed from now on). */
export async function setRules(app: ShopifyAppHarness, plan: ProtectedPlan, rules: ClaimRulesInput): Promise<void> {
  const domain = await services();
  await app.database.db.transaction((tx) =>
    setClaimRules(tx, domain, { merchantId: plan.merchant_id, mode: plan.mode }, rules),
  );
}

/**
 * Follows a job that Shopify refuses on each of its `attempts` through every retry, each run as soon as its backoff
 * has passed, until the queue gives up on it. `onFirstFailure` reads what the first failure left (the job retrying).
 */
export async function failEveryAttempt(
  app: ShopifyAppHarness,
  job: () => Promise<{ id: string; status: string; attempts: number | string } | undefined>,
  attempts: number,
  onFirstFailure: () => Promise<void>,
): Promise<void> {
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const failed = await waitFor(
      async () => {
        const row = await job();
        return row && Number(row.attempts) === attempt && row;
      },
      { what: `attempt ${attempt} to fail` },
    );
    if (attempt === 1) await onFirstFailure();
    if (attempt < attempts) {
      assert.equal(failed.status, "pending", `retried after attempt ${attempt}`);
      await app.database.db.run("UPDATE shopify_jobs SET run_at = 0 WHERE id = ?", [failed.id]); // its backoff has passed
      app.runtime().queue.wake();
    } else {
      assert.equal(failed.status, "dead", "gave up after the last retry");
    }
  }
}
