// A claim's risk (docs/api.md "Claim risk"): assessed at filing over the real API, from the buyer's other claims (by
// the keyed hashes of their e-mail and shipping address) and photos seen on other claims (exact and perceptual
// hashes); assessed again when the buyer adds files or the order's risk (Shopify's) is recorded; a claim the rules
// would approve goes to a person when its risk is high; never denied on risk; the signals go with the buyer's data.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { DIALECTS } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { postForm, signedInBuyer, type EvidenceUpload } from "../support/portal.ts";
import { apiClient } from "../support/client.ts";
import { createQuote } from "../support/api-assertions.ts";
import { confirmBody } from "../support/protection-flows.ts";
import { photoPng, PDF } from "../support/evidence-images.ts";
import { setClaimRules } from "../../server/domain/programs.ts";
import { customerRecords, redactCustomer } from "../../server/domain/privacy.ts";
import { createSealer } from "../../server/secrets/sealer.ts";
import { shippingAddressHash } from "../../server/domain/buyer-addresses.ts";
import { recordOrderRisk } from "../../server/domain/claim-risk-record.ts";
import type { Actor } from "../../server/vocabulary/actors.ts";
import type { OrderRisk } from "../../server/vocabulary/orders.ts";

const HOUR = 60 * 60 * 1000;

describe.each(DIALECTS)("claim risk (%s)", (dialect) => {
  let t: TestApi;
  let actor: Actor;
  // Each test draws its own pictures: an earlier test's photo would match.
  let seed = 1_000 * DIALECTS.indexOf(dialect);
  const newPhoto = (options: { brighten?: number } = {}) => ({
    name: "parcel.png",
    bytes: photoPng(++seed, options),
    type: "image/png",
  });
  // A socket: claims with files are multipart.
  beforeAll(async () => {
    t = await startTestApi({ dialect, transport: "socket" });
    actor = { merchantId: t.merchant.merchantId, mode: "test" };
    // Damage claims up to 50.00 are approved at filing unless their risk is high (the default bar).
    await t.database.db.transaction((tx) =>
      setClaimRules(tx, t.services, actor, {
        autoApprove: { maxAmountCentsByCurrency: { USD: 5_000 }, reasons: ["damaged_in_transit", "missing_items"] },
      }),
    );
  });
  afterAll(() => t.close());

  /** A buyer (this e-mail, or a new one) with a new plan (shipped to `door`, if given) files a claim with these files. */
  async function fileClaim(
    files: EvidenceUpload[],
    options: {
      email?: string;
      reason?: string;
      door?: { countryCode: string; postalCode: string; line1: string };
    } = {},
  ) {
    t.clock.advance(HOUR);
    const { door } = options;
    // The confirm names the door, as the Shopify app's does from the order's shipping address.
    const shippingAddress = door && { country_code: door.countryCode, postal_code: door.postalCode, line1: door.line1 };
    const buyer = await signedInBuyer(t, { email: options.email, shippingAddress });
    t.clock.advance(60_000);
    const response = await postForm(
      t.baseUrl,
      buyer.token,
      "/portal/claims",
      {
        referenceNumber: buyer.referenceNumber,
        reason: options.reason ?? "damaged_in_transit",
        occurredAt: new Date(t.clock.now).toISOString(),
        description: "The box arrived crushed.",
        amountCents: "2000",
      },
      files,
    );
    assert.equal(response.status, 200, response.text);
    return { ...buyer, claimId: response.body.id as string, status: response.body.status as string };
  }

  const assessment = async (claimId: string) => {
    const row = await t.database.db.get<{ level: string; score: number | string; signals: string }>(
      "SELECT level, score, signals FROM claim_risk_assessments WHERE claim_id = ?",
      [claimId],
    );
    assert.ok(row, `an assessment of ${claimId}`);
    return { level: row.level, score: Number(row.score), signals: JSON.parse(row.signals) as { name: string }[] };
  };
  const decidedBy = (claimId: string) =>
    t.database.db.get<{ status: string; decided_by: string | null }>(
      "SELECT status, decided_by FROM claims WHERE id = ?",
      [claimId],
    );

  it("a claim with nothing against it is low and approved by the rules", async () => {
    const first = await fileClaim([newPhoto()]);
    assert.deepEqual(await assessment(first.claimId), { level: "low", score: 0, signals: [] });
    assert.deepEqual(await decidedBy(first.claimId), { status: "approved", decided_by: "rule:auto_approve" });
  });

  it("the same photo on another buyer's claim: high, and the claim the rules would approve goes to a person", async () => {
    const photo = newPhoto();
    const first = await fileClaim([photo]);
    assert.equal((await decidedBy(first.claimId))!.status, "approved");
    const second = await fileClaim([photo]);
    const risk = await assessment(second.claimId);
    assert.equal(risk.level, "high");
    assert.deepEqual(risk.signals, [
      { name: "duplicate_photo", weight: 60, match: "exact", distance: 0, sameMerchant: true },
    ]);
    assert.equal(second.status, "submitted");
    assert.deepEqual(await decidedBy(second.claimId), { status: "submitted", decided_by: null });
  });

  it("a near-same picture (new bytes) is found through the hash bands: elevated, still approved by the default bar", async () => {
    const photo = newPhoto();
    const first = await fileClaim([photo]);
    const again = { ...photo, bytes: photoPng(seed, { brighten: 12 }) };
    const second = await fileClaim([again]);
    const risk = await assessment(second.claimId);
    assert.equal(risk.level, "elevated");
    assert.equal(risk.signals[0].name, "duplicate_photo");
    assert.equal((risk.signals[0] as unknown as { match: string }).match, "near");
    assert.equal((await decidedBy(second.claimId))!.status, "approved");
    assert.ok(first.claimId !== second.claimId);
  });

  it("the buyer's claims on other plans, by their e-mail: repeat_claimant and claim_velocity", async () => {
    const email = `repeat-${randomUUID()}@example.test`;
    await fileClaim([], { email });
    await fileClaim([], { email });
    // Another address's claims never count.
    await fileClaim([]);
    const third = await fileClaim([], { email: email.toUpperCase() });
    const risk = await assessment(third.claimId);
    assert.deepEqual(
      risk.signals.map((signal) => signal.name),
      ["repeat_claimant", "claim_velocity"],
    );
    assert.equal(risk.level, "elevated");
  });

  it("the buyer's claims under other e-mails to the same door: repeat_claimant says the address found them", async () => {
    const line1 = `${randomUUID().slice(0, 8)} Harbour Road`;
    const door = { countryCode: "US", postalCode: "97201", line1 };
    await fileClaim([], { door });
    // The same door typed another way; another door never counts.
    await fileClaim([], { door: { countryCode: "us", postalCode: " 97201", line1: line1.toUpperCase() } });
    await fileClaim([], { door: { ...door, line1: `${line1} West` } });
    t.clock.advance(8 * 24 * HOUR);
    const third = await fileClaim([], { door });
    const risk = await assessment(third.claimId);
    assert.deepEqual(risk.signals, [{ name: "repeat_claimant", weight: 20, claims: 2, matchedBy: ["address"] }]);
    // The same e-mail and the same door: one claim counted once, found by both.
    const email = `both-${randomUUID()}@example.test`;
    const other = { ...door, line1: `${line1} North` };
    await fileClaim([], { email, door: other });
    await fileClaim([], { door: other });
    const fourth = await fileClaim([], { email, door: other });
    assert.deepEqual(
      (await assessment(fourth.claimId)).signals.find((signal) => signal.name === "repeat_claimant"),
      {
        name: "repeat_claimant",
        weight: 20,
        claims: 2,
        matchedBy: ["email", "address"],
      },
    );
  });

  it("another cart's confirm names the door (shipping_address): the plan keeps only its keyed hash; a bad one is 400 and makes nothing", async () => {
    const secret = apiClient(t.baseUrl, t.merchant.secretKey);
    const door = { country_code: "NL", postal_code: "1015 CJ", line1: "Prinsengracht 263" };
    const quoteFor = async () => {
      const quote = await secret.post("/headless/quote", {
        order_amount_cents: 5_000,
        order_id: `order-${randomUUID()}`,
        protection_program_id: t.merchant.programId,
        customer_email: `buyer-${randomUUID()}@example.test`,
      });
      assert.equal(quote.status, 200, quote.text);
      return quote.body.quote_id as string;
    };
    const planCount = async () =>
      Number((await t.database.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM plans"))!.n);

    const quoteId = await quoteFor();
    const before = await planCount();
    const bad = await secret.post("/headless/confirm", {
      quote_id: quoteId,
      shipping_address: { ...door, country_code: "NLD" },
    });
    assert.equal(bad.status, 400, bad.text);
    assert.match(bad.body.error.param, /shipping_address/);
    assert.equal(await planCount(), before, "nothing made");

    const confirmed = await secret.post("/headless/confirm", { quote_id: quoteId, shipping_address: door });
    assert.equal(confirmed.status, 200, confirmed.text);
    const plan = (await t.database.db.get<{
      shipping_address_hash: string | null;
      order_context: string;
      consent: string;
    }>("SELECT shipping_address_hash, order_context, consent FROM plans WHERE id = ?", [confirmed.body.plan_id]))!;
    // The same door as the Shopify app would hash it, typed another way.
    const sealer = createSealer(t.encryptionKey);
    assert.equal(
      plan.shipping_address_hash,
      shippingAddressHash(sealer, { countryCode: "nl", postalCode: "1015CJ", line1: "prinsengracht  263" }),
    );
    assert.doesNotMatch(JSON.stringify(plan), /Prinsengracht|1015/i, "the street is nowhere in clear");

    // /offers/confirm takes it too (the widget's and the server's confirm).
    const { quote, token } = await createQuote(secret, t.merchant.programId, { customer_email: "door@example.test" });
    const viaOffers = await secret.post("/offers/confirm", { ...confirmBody(quote, token), shipping_address: door });
    assert.equal(viaOffers.status, 200, viaOffers.text);
    const offersPlan = await t.database.db.get<{ shipping_address_hash: string | null }>(
      "SELECT shipping_address_hash FROM plans WHERE id = ?",
      [viaOffers.body.planId],
    );
    assert.equal(offersPlan!.shipping_address_hash, plan.shipping_address_hash);
  });

  it("Shopify's order risk recorded for the order assesses its open claim again: high goes to a person's eyes", async () => {
    const claim = await fileClaim([{ name: "receipt.pdf", bytes: PDF, type: "application/pdf" }], {
      reason: "arrived_defective",
    });
    assert.equal((await assessment(claim.claimId)).level, "low");
    const { order_id: orderId } = (await t.database.db.get<{ order_id: string }>(
      "SELECT order_id FROM plans WHERE id = ?",
      [claim.planId],
    ))!;
    const risk: OrderRisk = { level: "high", recommendation: "cancel", reasons: ["Card verification (CVV) failed"] };
    const recorded = (externalId: string) =>
      t.database.db.transaction((tx) => recordOrderRisk(tx, t.services, actor, externalId, risk));
    assert.equal(await recorded(orderId), true);
    assert.deepEqual(await assessment(claim.claimId), {
      level: "high",
      score: 60,
      signals: [{ name: "shopify_order_risk", weight: 60, ...risk }],
    });
    assert.equal(await recorded(`no-such-order-${randomUUID()}`), false, "an order without protection: nothing");
    assert.equal(await recorded(orderId), true, "recorded again: the same assessment");
    assert.equal((await assessment(claim.claimId)).score, 60);
  });

  it("files added later are assessed again: a photo seen elsewhere raises the open claim's risk", async () => {
    const photo = newPhoto();
    await fileClaim([photo]);
    const claim = await fileClaim([{ name: "receipt.pdf", bytes: PDF, type: "application/pdf" }], {
      reason: "arrived_defective",
    });
    assert.equal((await assessment(claim.claimId)).level, "low");
    const added = await postForm(
      t.baseUrl,
      claim.token,
      `/portal/claims/${claim.claimId}/messages`,
      { message: "Photo" },
      [photo],
    );
    assert.equal(added.status, 200, added.text);
    assert.equal((await assessment(claim.claimId)).level, "high");
  });

  it("customers/redact takes the buyer's assessments, photo hashes, address hash and order risk", async () => {
    const email = `gone-${randomUUID()}@example.test`;
    const claim = await fileClaim([newPhoto()], {
      email,
      door: { countryCode: "FR", postalCode: "69002", line1: "1 quai" },
    });
    const plan = () =>
      t.database.db.get<{ shipping_address_hash: string | null; order_risk: string | null }>(
        "SELECT shipping_address_hash, order_risk FROM plans WHERE id = ?",
        [claim.planId],
      );
    const { order_id: orderId } = (await t.database.db.get<{ order_id: string }>(
      "SELECT order_id FROM plans WHERE id = ?",
      [claim.planId],
    ))!;
    await t.database.db.transaction((tx) =>
      recordOrderRisk(tx, t.services, actor, orderId, { level: "low", recommendation: "accept", reasons: [] }),
    );
    assert.ok((await plan())!.shipping_address_hash);
    assert.ok((await plan())!.order_risk);
    const count = (table: string) =>
      t.database.db.get<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${table} WHERE claim_id = ?`, [
        claim.claimId,
      ]);
    assert.equal(Number((await count("claim_risk_assessments"))!.n), 1);
    assert.equal(Number((await count("claim_evidence_hash_bands"))!.n), 16);
    // An access request shows what was weighed about the buyer's claims, in words.
    const records = await t.database.db.transaction((tx) =>
      customerRecords(tx, createSealer(t.encryptionKey), actor, { email, orderIds: [] }),
    );
    assert.deepEqual(
      records.claimRisk.map(({ claimId, level, signals }) => ({ claimId, level, signals })),
      [{ claimId: claim.claimId, level: "low", signals: [] }],
    );
    await t.database.db.transaction((tx) =>
      redactCustomer(tx, createSealer(t.encryptionKey), actor, { email, orderIds: [] }),
    );
    assert.equal(Number((await count("claim_risk_assessments"))!.n), 0);
    assert.equal(Number((await count("claim_evidence_hash_bands"))!.n), 0);
    assert.deepEqual({ ...(await plan()) }, { shipping_address_hash: null, order_risk: null });
  });
});
