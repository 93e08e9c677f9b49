import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { DIALECTS } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient, type UntypedBody } from "../support/client.ts";
import { assertChangesNothing, assertError } from "../support/api-assertions.ts";
import { drain } from "../support/webhook-events.ts";
import { startReceiver, type Receiver } from "../support/webhook-receiver.ts";
import { signedInBuyer } from "../support/portal.ts";
import { approveClaim, recordClaimPayoutStep, resolveClaim } from "../../server/domain/claim-decisions.ts";
import type { NewMerchant } from "../../server/domain/merchants.ts";

// The merchant confirms an approved claim it paid on another cart (docs/api.md "Resolving claims"):
// POST /merchant/claims/{claimId}/resolution, secret key only, an Idempotency-Key like every mutation; the claim is
// paid, claim.updated carries the resolution to the merchant's webhooks, the ledger owes the merchant the amount once.

const STAFF = { kind: "staff", staffId: "stf_1" } as const;

describe.each(DIALECTS)("claim resolution (%s)", (dialect) => {
  let t: TestApi;
  let receiver: Receiver;
  let secret: ReturnType<typeof apiClient>;
  beforeAll(async () => {
    t = await startTestApi({ dialect, allowPrivateWebhookUrls: true });
    receiver = await startReceiver();
    secret = apiClient(t.baseUrl, t.merchant.secretKey);
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  /** A claim filed through the portal and approved by the claims team. */
  async function approvedClaim(merchant: NewMerchant = t.merchant) {
    const buyer = await signedInBuyer(t, { merchant });
    const filed = await buyer.buyer.post("/portal/claims", {
      referenceNumber: buyer.referenceNumber,
      reason: "lost_in_transit",
      occurredAt: new Date(t.clock.now).toISOString(),
      description: "Never came.",
    });
    assert.equal(filed.status, 200, filed.text);
    t.clock.advance(1_000);
    const actor = { merchantId: merchant.merchantId, mode: "test" as const };
    await t.database.db.transaction((tx) => approveClaim(tx, t.services, actor, filed.body.id, STAFF, {}));
    t.clock.advance(1_000);
    return filed.body as UntypedBody;
  }

  const ledgerOf = (claimId: string) =>
    t.database.db.all<{ kind: string; amount_cents: number | string }>(
      "SELECT kind, amount_cents FROM ledger_entries WHERE source_id = ?",
      [claimId],
    );

  it("GET /merchant/claims/{claimId}: the claim with its pending resolution; another merchant's is 404", async () => {
    const claim = await approvedClaim();
    const read = await secret.get(`/merchant/claims/${claim.id}`);
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.status, "approved");
    assert.deepEqual(read.body.decision.decidedBy, "claims_team");
    assert.deepEqual(read.body.resolution, {
      remedy: "refund",
      amountCents: claim.amountCents,
      currency: claim.currency,
      status: "pending",
      channel: "merchant",
      reference: null,
      resolvedAt: null,
      error: null,
    });
    const other = await t.createMerchant();
    assertError(await apiClient(t.baseUrl, other.secretKey).get(`/merchant/claims/${claim.id}`), {
      status: 404,
      code: "resource_missing",
    });
    assertError(await apiClient(t.baseUrl, t.merchant.publishableKey).get(`/merchant/claims/${claim.id}`), {
      status: 403,
      code: "secret_key_required",
    });
  });

  it("POST …/resolution pays the claim once: one ledger entry, one event; a second call returns it unchanged", async () => {
    const claim = await approvedClaim();
    const path = `/merchant/claims/${claim.id}/resolution`;
    const key = randomUUID();
    const paid = await secret.post(
      path,
      { kind: "refund", reference: "re_1001", note: "Refunded to the card." },
      {
        idempotencyKey: key,
      },
    );
    assert.equal(paid.status, 200, paid.text);
    assert.equal(paid.body.status, "paid");
    assert.deepEqual(
      { ...paid.body.resolution, resolvedAt: undefined },
      {
        remedy: "refund",
        amountCents: claim.amountCents,
        currency: claim.currency,
        status: "done",
        channel: "merchant",
        reference: "re_1001",
        resolvedAt: undefined,
        error: null,
      },
    );
    assert.equal(paid.body.resolution.resolvedAt, new Date(t.clock.now).toISOString());

    const replay = await secret.post(
      path,
      { kind: "refund", reference: "re_1001", note: "Refunded to the card." },
      {
        idempotencyKey: key,
      },
    );
    assert.equal(replay.headers.get("idempotent-replayed"), "true");
    const again = await secret.post(path, { kind: "refund", reference: "re_other" });
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(again.body, paid.body, "the paid claim, unchanged");

    const rows = await ledgerOf(claim.id);
    assert.deepEqual(
      rows.map((row) => [row.kind, Number(row.amount_cents)]),
      [["claim_reimbursement", claim.amountCents]],
    );
    const updates = await t.database.db.all<{ data: string }>(
      "SELECT data FROM events WHERE type = 'claim.updated' AND data LIKE ?",
      [`%${claim.id}%`],
    );
    assert.equal(updates.length, 2, "approved, paid");
    const timeline = await t.database.db.all<{ actor: string; text: string }>(
      "SELECT actor, text FROM claim_timeline WHERE claim_id = ? AND status = 'paid'",
      [claim.id],
    );
    assert.equal(timeline.length, 1);
    assert.equal(timeline[0].actor, "merchant");
    assert.match(timeline[0].text, /Refunded to the card\./);
  });

  it("a partial amount is recorded and owed; more than the claim's is 422 and changes nothing", async () => {
    const claim = await approvedClaim();
    const path = `/merchant/claims/${claim.id}/resolution`;
    const tooMuch = await assertChangesNothing(
      t.database.db,
      () => secret.post(path, { kind: "refund", reference: "x", amountCents: claim.amountCents + 1 }),
      1,
    );
    assertError(tooMuch, { status: 422, code: "amount_exceeds_claim", param: "amountCents" });
    assert.deepEqual(await ledgerOf(claim.id), []);
    const partial = await secret.post(path, { kind: "refund", reference: "x", amountCents: 1_234 });
    assert.equal(partial.body.resolution.amountCents, 1_234);
    assert.deepEqual(
      (await ledgerOf(claim.id)).map((row) => Number(row.amount_cents)),
      [1_234],
    );
  });

  it("refused: the publishable key, no Idempotency-Key, a bad body, a claim not approved, a Shopify shop's claim", async () => {
    const claim = await approvedClaim();
    const path = `/merchant/claims/${claim.id}/resolution`;
    const body = { kind: "refund", reference: "re_1" };
    const widget = apiClient(t.baseUrl, t.merchant.publishableKey);
    assertError(await assertChangesNothing(t.database.db, () => widget.post(path, body)), {
      status: 403,
      code: "secret_key_required",
    });
    assertError(await assertChangesNothing(t.database.db, () => secret.post(path, body, { idempotencyKey: null })), {
      status: 400,
      code: "idempotency_key_required",
    });
    for (const bad of [
      { kind: "refund" },
      { kind: "refund", reference: "" },
      { kind: "refund", reference: "x".repeat(201) },
      { kind: "cash", reference: "r" },
      { kind: "refund", reference: "r", amountCents: 0 },
      { kind: "refund", reference: "r", extra: true },
    ])
      assert.equal((await assertChangesNothing(t.database.db, () => secret.post(path, bad))).status, 400);

    // Filed, not yet decided.
    const buyer = await signedInBuyer(t);
    const submitted = await buyer.buyer.post("/portal/claims", {
      referenceNumber: buyer.referenceNumber,
      reason: "damaged_in_transit",
      occurredAt: new Date(t.clock.now).toISOString(),
      description: "Broken.",
    });
    assertError(
      await assertChangesNothing(
        t.database.db,
        () => secret.post(`/merchant/claims/${submitted.body.id}/resolution`, body),
        1,
      ),
      { status: 409, code: "claim_transition_invalid" },
    );
    assertError(
      await assertChangesNothing(t.database.db, () => secret.post(path, { kind: "replacement", reference: "r" }), 1),
      { status: 409, code: "remedy_mismatch", param: "kind" },
    );
    assertError(await secret.post("/merchant/claims/clm_missing/resolution", body), {
      status: 404,
      code: "resource_missing",
    });

    // A Shopify shop's claims are paid by the app on the order, never confirmed by hand.
    const shop = await t.createMerchant("Shopify Store");
    await t.database.db.run("UPDATE merchants SET shop_domain = ? WHERE id = ?", [
      `shop-${randomUUID().slice(0, 8)}.myshopify.com`,
      shop.merchantId,
    ]);
    const shopClaim = await approvedClaim(shop);
    const shopSecret = apiClient(t.baseUrl, shop.secretKey);
    const pending = await shopSecret.get(`/merchant/claims/${shopClaim.id}`);
    assert.equal(pending.body.resolution.channel, "shopify");
    assertError(
      await assertChangesNothing(
        t.database.db,
        () => shopSecret.post(`/merchant/claims/${shopClaim.id}/resolution`, body),
        1,
      ),
      { status: 409, code: "claim_resolution_automatic" },
    );
    // The app records a failed attempt, then the payout it made.
    const actor = { merchantId: shop.merchantId, mode: "test" as const };
    await t.database.db.transaction((tx) =>
      recordClaimPayoutStep(tx, shopClaim.id, { state: "pending", attempts: 1, error: "refundCreate: 502" }),
    );
    assert.equal((await shopSecret.get(`/merchant/claims/${shopClaim.id}`)).body.resolution.error, "refundCreate: 502");
    const paid = await t.database.db.transaction((tx) =>
      resolveClaim(tx, t.services, actor, shopClaim.id, {
        channel: "shopify",
        kind: "refund",
        reference: "gid://shopify/Refund/1",
      }),
    );
    assert.equal(paid.resolution?.channel, "shopify");
    assert.equal(paid.resolution?.error, null);
    const timeline = await t.database.db.get<{ actor: string }>(
      "SELECT actor FROM claim_timeline WHERE claim_id = ? AND status = 'paid'",
      [shopClaim.id],
    );
    assert.equal(timeline!.actor, "service");
    // The reverse: a claim of another cart is never paid through the Shopify channel.
    const other = await approvedClaim();
    await assert.rejects(
      t.database.db.transaction((tx) =>
        resolveClaim(tx, t.services, { merchantId: t.merchant.merchantId, mode: "test" }, other.id, {
          channel: "shopify",
          kind: "refund",
          reference: "gid://shopify/Refund/2",
        }),
      ),
      /not on a Shopify order/,
    );
  });

  it("the webhooks get claim.updated for the approval (what to do) and for the payment (what was done)", async () => {
    const endpoint = await secret.post("/webhooks/endpoints", { url: receiver.url, events: ["claim.updated"] });
    assert.equal(endpoint.status, 200, endpoint.text);
    const claim = await approvedClaim();
    const paid = await secret.post(`/merchant/claims/${claim.id}/resolution`, { kind: "refund", reference: "re_wh" });
    assert.equal(paid.status, 200, paid.text);
    const ofClaim = () =>
      receiver.received
        .map((request) => request.event as UntypedBody)
        .filter((event) => event.type === "claim.updated" && event.data.object.id === claim.id);
    await drain(t, () => ofClaim().length >= 2);
    const [approved, done] = ofClaim();
    assert.equal(approved.data.object.status, "approved");
    assert.equal(approved.data.object.resolution.status, "pending");
    assert.equal(approved.data.object.resolution.amountCents, claim.amountCents);
    assert.equal(approved.data.object.decision.decidedBy, "claims_team");
    assert.equal(done.data.object.status, "paid");
    assert.equal(done.data.object.resolution.status, "done");
    assert.equal(done.data.object.resolution.reference, "re_wh");
    assert.ok(!JSON.stringify(ofClaim()).includes("stf_1"), "no staff identity in webhooks");
  });
});
