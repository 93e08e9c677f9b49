import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { COUNTED_TABLES, DIALECTS, rowCounts } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient, type UntypedBody } from "../support/client.ts";
import { outbox } from "../support/protection-flows.ts";
import { signedInBuyer } from "../support/portal.ts";
import {
  APPROVAL_DECISION,
  DENIAL_REASONS,
  approveClaim,
  denyClaim,
  requestInformation,
  resolveClaim,
  startReview,
  type ClaimDecider,
} from "../../server/domain/claim-decisions.ts";
import { setClaimRules } from "../../server/domain/programs.ts";
import { DomainError } from "../../server/domain/errors.ts";
import type { Actor } from "../../server/vocabulary/actors.ts";
import type { Queryable } from "../../server/store/database.ts";
import { findEmailClaim, findEmailPlan } from "../../server/store/emails.ts";
import { claimDecided } from "../../server/email/claim-decided.ts";
import { claimInformationNeeded } from "../../server/email/claim-information-needed.ts";
import { claimPaid } from "../../server/email/claim-paid.ts";
import { renderEmail, type EmailTemplateRenderer } from "../../server/email/layout.ts";

// Deciding and paying claims (docs/api.md "Claim decisions"): every transition writes the claims row, one status_changed
// timeline entry, exactly one claim.updated event and the buyer's e-mail, in one transaction; a transition the status
// does not allow changes nothing; the program's rules decide at filing; an approval checks the rulebook again.

const STAFF: ClaimDecider = { kind: "staff", staffId: "stf_reviewer_1" };
const TABLES = [...COUNTED_TABLES, "ledger_entries"];
const denial = (code: string) => DENIAL_REASONS.find((reason) => reason.code === code)!.message;

describe.each(DIALECTS)("claim decisions (%s)", (dialect) => {
  let t: TestApi;
  let actor: Actor;
  beforeAll(async () => {
    t = await startTestApi({ dialect });
    actor = { merchantId: t.merchant.merchantId, mode: "test" };
  });
  afterAll(() => t.close());

  /** One domain call in its transaction, a second after the one before (so that each one's rows sort after the last). */
  const inTx = <T>(work: (tx: Queryable) => Promise<T>) => {
    t.clock.advance(1_000);
    return t.database.db.transaction(work);
  };

  /** A buyer with a plan (optionally of another order amount) who files a claim through the portal. */
  async function fileClaim(fields: Record<string, unknown> = {}, options: { orderAmountCents?: number } = {}) {
    const buyer = await signedInBuyer(t, options);
    const filed = await buyer.buyer.post("/portal/claims", {
      referenceNumber: buyer.referenceNumber,
      reason: "damaged_in_transit",
      occurredAt: new Date(t.clock.now).toISOString(),
      description: "The box arrived crushed.",
      ...fields,
    });
    assert.equal(filed.status, 200, filed.text);
    return { ...buyer, claim: filed.body as UntypedBody };
  }

  /** What the transitions of one claim wrote, by kind. */
  async function written(claimId: string) {
    const updates = (await outbox(t.database.db, t.merchant.merchantId, "claim.updated")).filter(
      (event) => event.data.id === claimId,
    );
    const timeline = await t.database.db.all<{ actor: string; status: string; text: string }>(
      "SELECT actor, status, text FROM claim_timeline WHERE claim_id = ? AND kind = 'status_changed' ORDER BY created_at, id",
      [claimId],
    );
    const emails = await t.database.db.all<{ template: string }>(
      "SELECT template FROM email_messages WHERE claim_id = ? ORDER BY created_at, id",
      [claimId],
    );
    const ledger = await t.database.db.all<{ kind: string; amount_cents: number | string; currency: string }>(
      "SELECT kind, amount_cents, currency FROM ledger_entries WHERE source_id = ?",
      [claimId],
    );
    return {
      updates: updates.map((event) => event.data as UntypedBody),
      timeline: timeline.map((entry) => [entry.actor, entry.status, entry.text]),
      emails: emails.map((email) => email.template),
      ledger: ledger.map((entry) => [entry.kind, Number(entry.amount_cents), entry.currency]),
    };
  }

  /** The e-mail as the worker renders it now (subject and text part). */
  async function rendered(template: EmailTemplateRenderer, planId: string, claimId: string) {
    const plan = (await findEmailPlan(t.database.db, planId))!;
    const claim = await findEmailClaim(t.database.db, claimId);
    const context = { plan, claim, settings: t.services.settings, coverageLink: "https://portal.example.test/x" };
    const content = template(context);
    assert.ok(content, "the e-mail renders");
    const email = await renderEmail(content, context);
    return `${email.subject}\n${email.text}`;
  }

  /** Runs a domain call expected to fail with this code, and asserts that it wrote nothing. */
  async function refused(code: string, work: (tx: Queryable) => Promise<unknown>) {
    const before = await rowCounts(t.database.db, TABLES);
    const claimsBefore = await t.database.db.all("SELECT * FROM claims ORDER BY id");
    await assert.rejects(inTx(work), (error: unknown) => error instanceof DomainError && error.code === code);
    assert.deepEqual(await rowCounts(t.database.db, TABLES), before, "row counts");
    assert.deepEqual(await t.database.db.all("SELECT * FROM claims ORDER BY id"), claimsBefore, "claims rows");
  }

  it("review, information, the buyer's answer, approval and payment: each one event, one entry, its e-mail", async () => {
    const { claim, buyer, planId } = await fileClaim();
    assert.equal(claim.status, "submitted", "the default rules decide nothing");

    const reviewing = await inTx((tx) => startReview(tx, t.services, actor, claim.id, STAFF));
    assert.equal(reviewing.status, "under_review");
    let log = await written(claim.id);
    assert.deepEqual(log.timeline, [["claims_team", "under_review", ""]]);
    assert.deepEqual(
      log.updates.map((update) => update.status),
      ["under_review"],
    );
    assert.deepEqual(log.emails, ["claim_received"], "starting a review e-mails nobody");

    const question = "Please send a photo of the box's label.";
    const asked = await inTx((tx) => requestInformation(tx, t.services, actor, claim.id, STAFF, { message: question }));
    assert.equal(asked.status, "needs_information");
    log = await written(claim.id);
    assert.deepEqual(log.timeline.at(-1), ["claims_team", "needs_information", question]);
    assert.equal(log.updates.length, 2);
    assert.deepEqual(log.emails, ["claim_received", "claim_information_needed"]);
    assert.match(
      await rendered(claimInformationNeeded, planId, claim.id),
      /The claims team asks:\nPlease send a photo/,
    );

    const answered = await buyer.post(`/portal/claims/${claim.id}/messages`, { message: "Here it is." });
    assert.equal(answered.body.status, "under_review");

    const approved = await inTx((tx) =>
      approveClaim(tx, t.services, actor, claim.id, STAFF, { note: "Thank you for the photo." }),
    );
    assert.equal(approved.status, "approved");
    assert.deepEqual(
      { ...approved.decision, decidedAt: undefined },
      {
        code: "covered",
        message: APPROVAL_DECISION.message,
        // A person's decision rests on their judgement: no facts listed.
        basis: [],
        decidedAt: undefined,
        decidedBy: "claims_team",
        ruleId: null,
      },
    );
    assert.deepEqual(approved.resolution, {
      remedy: "refund",
      amountCents: claim.amountCents,
      currency: claim.currency,
      status: "pending",
      channel: "merchant",
      reference: null,
      resolvedAt: null,
      error: null,
    });
    assert.ok(!JSON.stringify(approved).includes("stf_reviewer_1"), "no staff identity on the wire");
    log = await written(claim.id);
    assert.deepEqual(log.timeline.at(-1), [
      "claims_team",
      "approved",
      `${APPROVAL_DECISION.message}\n\nThank you for the photo.`,
    ]);
    assert.equal(log.updates.length, 4, "review, information, the buyer's answer, approval");
    assert.equal(log.updates.at(-1).resolution.status, "pending", "the approved event carries what to do");
    assert.deepEqual(log.emails.at(-1), "claim_decided");
    const decided = await rendered(claimDecided, planId, claim.id);
    assert.match(decided, /has been approved/);
    // The published sentence and the reviewer's note (from the decision's timeline entry), never the code.
    assert.ok(decided.includes(`Why: ${APPROVAL_DECISION.message}`), decided);
    assert.ok(decided.includes("Note from the claims team:\nThank you for the photo."), decided);
    assert.ok(!decided.includes("(covered)"), decided);
    const stored = await t.database.db.get<{ decided_by: string; remedy: string }>(
      "SELECT decided_by, remedy FROM claims WHERE id = ?",
      [claim.id],
    );
    assert.deepEqual({ ...stored }, { decided_by: "staff:stf_reviewer_1", remedy: "refund" });

    const paid = await inTx((tx) =>
      resolveClaim(tx, t.services, actor, claim.id, {
        channel: "merchant",
        kind: "refund",
        amountCents: claim.amountCents - 1,
        reference: "re_123",
      }),
    );
    assert.equal(paid.status, "paid");
    assert.equal(paid.resolution?.status, "done");
    assert.equal(paid.resolution?.amountCents, claim.amountCents - 1);
    assert.equal(paid.resolution?.reference, "re_123");
    log = await written(claim.id);
    assert.equal(log.updates.length, 5);
    assert.equal(log.timeline.at(-1)![0], "merchant");
    assert.equal(log.emails.at(-1), "claim_paid");
    assert.deepEqual(log.ledger, [["claim_reimbursement", claim.amountCents - 1, claim.currency]]);
    const paidMail = await rendered(claimPaid, planId, claim.id);
    assert.match(paidMail, /has been paid/);
    assert.ok(paidMail.includes(((claim.amountCents - 1) / 100).toFixed(2)), paidMail);
    const slot = await t.database.db.get<{ open_slot: string | null }>("SELECT open_slot FROM claims WHERE id = ?", [
      claim.id,
    ]);
    assert.equal(slot!.open_slot, null, "a paid claim releases its slot");
  });

  it("a denial carries a published reason and its sentence; the buyer's e-mail says it; the slot is released", async () => {
    const { claim, planId, buyer, referenceNumber } = await fileClaim();
    const denied = await inTx((tx) =>
      denyClaim(tx, t.services, actor, claim.id, STAFF, { code: "insufficient_evidence", note: "No photo arrived." }),
    );
    assert.equal(denied.status, "denied");
    assert.equal(denied.decision?.code, "insufficient_evidence");
    assert.equal(denied.decision?.message, denial("insufficient_evidence"));
    assert.equal(denied.resolution, null);
    const log = await written(claim.id);
    assert.deepEqual(log.timeline, [
      ["claims_team", "denied", `${denial("insufficient_evidence")}\n\nNo photo arrived.`],
    ]);
    assert.equal(log.updates.length, 1);
    assert.deepEqual(log.emails, ["claim_received", "claim_decided"]);
    const mail = await rendered(claimDecided, planId, claim.id);
    assert.match(mail, /was not approved/);
    assert.ok(mail.includes(`Why: ${denial("insufficient_evidence")}`), mail);
    assert.ok(mail.includes("Note from the claims team:\nNo photo arrived."), mail);
    assert.ok(!mail.includes("insufficient_evidence"), mail);

    const portal = await buyer.get(`/portal/claims/${claim.id}`);
    assert.deepEqual(Object.keys(portal.body.decision).sort(), ["basis", "code", "decidedAt", "message"]);
    assert.equal(portal.body.decision.message, denial("insufficient_evidence"));
    const again = await buyer.post("/portal/claims", {
      referenceNumber,
      reason: "damaged_in_transit",
      occurredAt: new Date(t.clock.now).toISOString(),
      description: "Filed again with the photo.",
    });
    assert.equal(again.status, 200, "the denied claim no longer holds the reason's slot");
  });

  it("an unknown denial code is 422 denial_reason_unknown and changes nothing", async () => {
    const { claim } = await fileClaim();
    await refused("denial_reason_unknown", (tx) =>
      denyClaim(tx, t.services, actor, claim.id, STAFF, { code: "because" }),
    );
  });

  it("a transition the status does not allow is 409 claim_transition_invalid and changes nothing", async () => {
    const { claim: denied } = await fileClaim();
    await inTx((tx) => denyClaim(tx, t.services, actor, denied.id, STAFF, { code: "excluded_by_terms" }));
    const { claim: approved } = await fileClaim({ reason: "missing_items" });
    await inTx((tx) => approveClaim(tx, t.services, actor, approved.id, STAFF, {}));
    const { claim: reviewing } = await fileClaim({ reason: "arrived_defective" });
    await inTx((tx) => startReview(tx, t.services, actor, reviewing.id, STAFF));
    const { claim: submitted } = await fileClaim({ reason: "wrong_item_delivered" });
    const invalid = "claim_transition_invalid";
    const resolve = (id: string) => (tx: Queryable) =>
      resolveClaim(tx, t.services, actor, id, { channel: "merchant", kind: "refund", reference: "r" });

    for (const id of [denied.id, approved.id]) {
      await refused(invalid, (tx) => startReview(tx, t.services, actor, id, STAFF));
      await refused(invalid, (tx) => approveClaim(tx, t.services, actor, id, STAFF, {}));
      await refused(invalid, (tx) => denyClaim(tx, t.services, actor, id, STAFF, { code: "excluded_by_terms" }));
      await refused(invalid, (tx) => requestInformation(tx, t.services, actor, id, STAFF, { message: "More?" }));
    }
    await refused(invalid, (tx) => resolve(denied.id)(tx));
    await refused(invalid, (tx) => resolve(submitted.id)(tx));
    await refused(invalid, (tx) => resolve(reviewing.id)(tx));
    await refused(invalid, (tx) => startReview(tx, t.services, actor, reviewing.id, STAFF));

    await inTx((tx) => resolve(approved.id)(tx));
    for (const work of [
      (tx: Queryable) => approveClaim(tx, t.services, actor, approved.id, STAFF, {}),
      (tx: Queryable) => denyClaim(tx, t.services, actor, approved.id, STAFF, { code: "excluded_by_terms" }),
    ])
      await refused(invalid, (tx) => work(tx));

    // Another merchant's claim does not exist for this actor.
    const other = await t.createMerchant();
    await refused("resource_missing", (tx) =>
      startReview(tx, t.services, { merchantId: other.merchantId, mode: "test" }, submitted.id, STAFF),
    );
  });

  it("the rules at filing: auto-approval with the rule's id, not once a delivery is recorded, not above the limit", async () => {
    await inTx((tx) =>
      setClaimRules(tx, t.services, actor, {
        autoApprove: { maxAmountCentsByCurrency: { USD: 3_000 }, reasons: ["lost_in_transit", "damaged_in_transit"] },
      }),
    );
    try {
      const auto = await fileClaim({ reason: "lost_in_transit", amountCents: 2_500 });
      assert.equal(auto.claim.status, "approved", "the portal answer shows the decision");
      assert.deepEqual(
        auto.claim.timeline.map((entry: UntypedBody) => [entry.actor, entry.kind, entry.status]),
        [
          ["buyer", "submitted", null],
          ["service", "status_changed", "approved"],
        ],
      );
      const merchantView = await apiClient(t.baseUrl, t.merchant.secretKey).get(`/merchant/claims/${auto.claim.id}`);
      assert.equal(merchantView.body.decision.decidedBy, "rule");
      assert.equal(merchantView.body.decision.ruleId, "auto_approve");
      const log = await written(auto.claim.id);
      assert.equal(log.updates.length, 1);
      // Filed and decided in one request, within one millisecond: the two e-mails in either order.
      assert.deepEqual(log.emails.sort(), ["claim_decided", "claim_received"]);
      assert.equal(
        (await outbox(t.database.db, t.merchant.merchantId, "claim.created")).filter(
          (event) => event.data.id === auto.claim.id,
        ).length,
        1,
      );

      const above = await fileClaim({ reason: "lost_in_transit", amountCents: 3_001 });
      assert.equal(above.claim.status, "submitted");
      const otherReason = await fileClaim({ reason: "arrived_defective", amountCents: 100 });
      assert.equal(otherReason.claim.status, "submitted");

      // Lost in transit, but the carrier reported the order delivered: the claims team looks at it.
      const buyer = await signedInBuyer(t);
      await t.database.db.run("UPDATE orders SET delivered_at = ? WHERE plan_id = ?", [t.clock.now, buyer.planId]);
      const delivered = await buyer.buyer.post("/portal/claims", {
        referenceNumber: buyer.referenceNumber,
        reason: "lost_in_transit",
        occurredAt: new Date(t.clock.now).toISOString(),
        description: "Never came.",
        amountCents: 500,
      });
      assert.equal(delivered.body.status, "submitted");
      const damaged = await buyer.buyer.post("/portal/claims", {
        referenceNumber: buyer.referenceNumber,
        reason: "damaged_in_transit",
        occurredAt: new Date(t.clock.now).toISOString(),
        description: "Crushed.",
        amountCents: 500,
      });
      assert.equal(damaged.body.status, "approved", "delivery does not matter for a damaged parcel");
    } finally {
      await inTx((tx) => setClaimRules(tx, t.services, actor, {}));
    }
  });

  it("the rules at filing deny an amount above what approved claims leave (amount_above_remaining)", async () => {
    const first = await fileClaim({ reason: "damaged_in_transit" }, { orderAmountCents: 10_000 });
    const covered = first.claim.amountCents;
    // A second claim on the same plan, then the first approved for all but 100.
    await t.database.db.run("UPDATE claims SET amount_cents = ? WHERE id = ?", [covered - 100, first.claim.id]);
    await inTx((tx) => approveClaim(tx, t.services, actor, first.claim.id, STAFF, {}));
    const second = await first.buyer.post("/portal/claims", {
      referenceNumber: first.referenceNumber,
      reason: "missing_items",
      occurredAt: new Date(t.clock.now).toISOString(),
      description: "One item missing.",
      amountCents: 200,
    });
    assert.equal(second.status, 200, second.text);
    assert.equal(second.body.status, "denied");
    assert.equal(second.body.decision.code, "amount_exceeds_coverage");
    assert.equal(second.body.decision.message, denial("amount_exceeds_coverage"));
    const merchantView = await apiClient(t.baseUrl, t.merchant.secretKey).get(`/merchant/claims/${second.body.id}`);
    assert.deepEqual(
      [merchantView.body.decision.decidedBy, merchantView.body.decision.ruleId],
      ["rule", "amount_above_remaining"],
    );
    assert.deepEqual((await written(second.body.id)).emails.sort(), ["claim_decided", "claim_received"]);
  });

  it("an approval checks the rulebook again: a voided plan, the coverage approved claims leave, replacements", async () => {
    const voided = await fileClaim();
    const secret = apiClient(t.baseUrl, t.merchant.secretKey);
    assert.equal((await secret.post("/offers/void", { planId: voided.planId, reason: "order cancelled" })).status, 200);
    await refused("plan_not_active", (tx) => approveClaim(tx, t.services, actor, voided.claim.id, STAFF, {}));
    const denied = await inTx((tx) =>
      denyClaim(tx, t.services, actor, voided.claim.id, STAFF, { code: "plan_not_active" }),
    );
    assert.equal(denied.decision?.message, denial("plan_not_active"));

    const first = await fileClaim({ amountCents: 1_000 });
    const second = await first.buyer.post("/portal/claims", {
      referenceNumber: first.referenceNumber,
      reason: "missing_items",
      occurredAt: new Date(t.clock.now).toISOString(),
      description: "And one missing.",
    });
    assert.equal(second.body.status, "submitted");
    await inTx((tx) => approveClaim(tx, t.services, actor, first.claim.id, STAFF, {}));
    await refused("amount_exceeds_remaining", (tx) => approveClaim(tx, t.services, actor, second.body.id, STAFF, {}));

    const replaced = await fileClaim({ reason: "wrong_item_delivered" });
    await refused("replacement_not_allowed", (tx) =>
      approveClaim(tx, t.services, actor, replaced.claim.id, STAFF, { remedy: "replacement" }),
    );
    await inTx((tx) => setClaimRules(tx, t.services, actor, { replacementAllowed: true }));
    try {
      const approved = await inTx((tx) =>
        approveClaim(tx, t.services, actor, replaced.claim.id, STAFF, { remedy: "replacement" }),
      );
      assert.equal(approved.resolution?.remedy, "replacement");
      assert.match(
        await rendered(claimDecided, replaced.planId, replaced.claim.id),
        /You get a replacement worth .* sends you the replacement by /,
      );
      await refused("remedy_mismatch", (tx) =>
        resolveClaim(tx, t.services, actor, replaced.claim.id, { channel: "merchant", kind: "refund", reference: "r" }),
      );
      await inTx((tx) =>
        resolveClaim(tx, t.services, actor, replaced.claim.id, {
          channel: "merchant",
          kind: "replacement",
          reference: "order #1002",
        }),
      );
      assert.match(await rendered(claimPaid, replaced.planId, replaced.claim.id), /has sent you a replacement/);
    } finally {
      await inTx((tx) => setClaimRules(tx, t.services, actor, {}));
    }
  });

  it("claim rules are validated; refused rules change nothing", async () => {
    const before = await t.database.db.all("SELECT id, claim_rules FROM protection_programs ORDER BY id");
    for (const rules of [
      { autoApprove: { maxAmountCentsByCurrency: { USD: 100 }, reasons: ["not_a_reason"] } },
      { autoApprove: { maxAmountCentsByCurrency: { USD: -5 }, reasons: ["lost_in_transit"] } },
      { replacementAllowed: true, extra: 1 },
    ])
      await assert.rejects(
        inTx((tx) => setClaimRules(tx, t.services, actor, rules)),
        (error: unknown) => error instanceof DomainError && error.code === "parameter_invalid",
      );
    assert.deepEqual(await t.database.db.all("SELECT id, claim_rules FROM protection_programs ORDER BY id"), before);
  });
});
