// The console's reads and actions across merchants on SQLite and PostgreSQL: the queue (open claims oldest first with
// their age, filters, pages), one claim with its plan, consent record, order, evidence and timeline — and no key
// material —, and staff actions that write the decision and its audit entry together or not at all; an admin
// recording a payment made in the Shopify admin once the app's Shopify payout job gave up (never while it may pay).
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { DIALECTS, rowCounts } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient } from "../support/client.ts";
import { protectOrder } from "../support/protection-flows.ts";
import type { NewMerchant } from "../../server/domain/merchants.ts";
import { addClaimMessage, submitClaim } from "../../server/domain/claims.ts";
import { DomainError } from "../../server/domain/errors.ts";
import type { Queryable } from "../../server/store/database.ts";
import { ensureStaffAccount, issueSignInLink, signInWithLink, authenticateStaff } from "../../server/domain/staff.ts";
import {
  actOnClaim,
  getOpsClaim,
  listClaimQueue,
  QUEUE_PAGE_SIZE,
  reviewPromise,
  type QueueRow,
} from "../../server/domain/ops-claims.ts";
import { addBusinessDays } from "../../server/domain/payout-terms.ts";
import { getOrderDelivery, reportShipment, reportShipmentEvent } from "../../server/domain/shipments.ts";
import { DEFAULT_STALLED_AFTER_DAYS } from "../../server/domain/delivery-states.ts";
import { CLAIM_PAYOUT_JOB } from "../../app/shopify/claim-payouts.server.ts";
import { recordClaimPayoutStep } from "../../server/domain/claim-decisions.ts";
import { insertShopifyJob, recordShopifyJobFailure } from "../../app/shopify/store/jobs.ts";

const CLAIM_TABLES = ["claims", "claim_timeline", "events", "email_messages", "staff_audit_log"];
const IP = "198.51.100.4";
const DAY = 86_400_000;

describe.each(DIALECTS)("the console's queue, claim and actions (%s)", (dialect) => {
  let t: TestApi;
  let other: NewMerchant;
  beforeAll(async () => {
    t = await startTestApi({ dialect });
    other = await t.createMerchant("Second Store");
  });
  afterAll(() => t?.close());

  const tx = <T>(work: (q: Queryable) => Promise<T>) => t.database.db.transaction(work);
  const counts = () => rowCounts(t.database.db, CLAIM_TABLES);

  /** A protected order of `merchant` with a claim filed on it now; resolves with the claim's id. */
  async function claimOf(merchant: NewMerchant, reason = "damaged_in_transit", description = "Crushed box") {
    const { confirmation } = await protectOrder(apiClient(t.baseUrl, merchant.publishableKey), merchant.programId, {
      customer_email: "buyer@example.com",
    });
    const claim = await tx((q) =>
      submitClaim(
        q,
        t.services,
        { merchantId: merchant.merchantId, mode: "test" },
        {
          referenceNumber: confirmation.referenceNumber,
          reason,
          description,
        },
      ),
    );
    return claim.id;
  }

  async function staffMember(role: "reviewer" | "admin" = "reviewer") {
    const account = await tx((q) =>
      ensureStaffAccount(q, t.services, { email: `${role}-${crypto.randomUUID()}@example.com`, role }, "test"),
    );
    const link = await tx((q) => issueSignInLink(q, t.services, account));
    const { sessionToken } = await tx((q) => signInWithLink(q, t.services, link.token, IP));
    return (await authenticateStaff(t.database.db, t.services, sessionToken))!;
  }

  /** Every row of the queue under these filters, page after page. */
  async function wholeQueue(filters: Record<string, string> = {}): Promise<QueueRow[]> {
    const rows: QueueRow[] = [];
    let after: string | null = "";
    while (after !== null) {
      const page = await listClaimQueue(t.database.db, t.services, { ...filters, after });
      rows.push(...page.rows);
      after = page.nextAfter;
    }
    return rows;
  }

  it("lists open claims of every merchant oldest first with their age; filters by status, reason, mode and merchant", async () => {
    // A merchant of its own, and the whole queue page after page: the other tests' claims, older or newer, are in it too.
    const another = await t.createMerchant("Queued Store");
    const first = await claimOf(t.merchant);
    t.clock.advance(60_000);
    const second = await claimOf(another, "lost_in_transit");
    t.clock.advance(60_000);
    const rows = await wholeQueue();
    const ids = rows.map((row) => row.id);
    assert.ok(ids.includes(first) && ids.indexOf(first) < ids.indexOf(second), "oldest first");
    const row = rows.find((candidate) => candidate.id === first)!;
    assert.equal(row.ageMs, 120_000);
    assert.equal(row.merchantName, "Test Store");
    assert.equal(row.status, "submitted");
    const queue = await listClaimQueue(t.database.db, t.services, {});
    assert.equal(queue.counts.byStatus.submitted, rows.filter((candidate) => candidate.status === "submitted").length);
    assert.ok(queue.merchants.some((merchant) => merchant.id === another.merchantId));

    const byMerchant = await listClaimQueue(t.database.db, t.services, { merchantId: another.merchantId });
    assert.deepEqual(
      byMerchant.rows.map((candidate) => candidate.id),
      [second],
    );
    const byReason = await listClaimQueue(t.database.db, t.services, { reason: "lost_in_transit" });
    assert.ok(byReason.rows.every((candidate) => candidate.reason === "lost_in_transit"));
    assert.equal((await listClaimQueue(t.database.db, t.services, { mode: "live" })).rows.length, 0);
    const denied = await wholeQueue({ view: "denied" });
    assert.ok(denied.every((candidate) => candidate.status === "denied"));
    assert.ok(!denied.some((candidate) => candidate.id === first || candidate.id === second));
    await assert.rejects(listClaimQueue(t.database.db, t.services, { view: "everything" }), (error: DomainError) => {
      assert.equal(error.field, "view");
      return true;
    });
  });

  it("pages the queue oldest first without gaps or repeats", async () => {
    for (let i = 0; i < QUEUE_PAGE_SIZE + 3; i++) await claimOf(other, "arrived_defective");
    const seen = (await wholeQueue({ reason: "arrived_defective" })).map((row) => row.id);
    assert.equal(seen.length, QUEUE_PAGE_SIZE + 3);
    assert.equal(new Set(seen).size, seen.length);
  });

  it("sorts by highest risk (oldest first within a level, never assessed last) or newest first; pages each without gaps or repeats", async () => {
    const merchant = await t.createMerchant("Sorted Store");
    const filed: { id: string; level: "low" | "elevated" | "high" | null; createdAt: number }[] = [];
    const levels = ["low", "high", null, "elevated"] as const;
    for (let i = 0; i < QUEUE_PAGE_SIZE + 5; i++) {
      // Two claims a minute: ties on the filing time are broken by id.
      if (i % 2 === 0) t.clock.advance(60_000);
      const id = await claimOf(merchant, "missing_items");
      filed.push({ id, level: levels[i % levels.length], createdAt: t.clock.now });
    }
    // The levels the risk assessment would give, set outright; a claim filed before assessments has none.
    for (const claim of filed)
      if (claim.level === null)
        await t.database.db.run("DELETE FROM claim_risk_assessments WHERE claim_id = ?", [claim.id]);
      else
        await t.database.db.run("UPDATE claim_risk_assessments SET level = ? WHERE claim_id = ?", [
          claim.level,
          claim.id,
        ]);

    const walk = async (sort: string) => {
      const seen: string[] = [];
      let after: string | null = "";
      while (after !== null) {
        const page = await listClaimQueue(t.database.db, t.services, { merchantId: merchant.merchantId, sort, after });
        assert.equal(page.filters.sort, sort || "oldest");
        seen.push(...page.rows.map((row) => row.id));
        after = page.nextAfter;
      }
      return seen;
    };
    const byTime = [...filed].sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
    const rank = { high: 3, elevated: 2, low: 1 };
    const byRisk = [...byTime].sort((a, b) => (b.level ? rank[b.level] : 0) - (a.level ? rank[a.level] : 0));
    assert.deepEqual(
      await walk(""),
      byTime.map((claim) => claim.id),
      "oldest first by default",
    );
    assert.deepEqual(
      await walk("oldest"),
      byTime.map((claim) => claim.id),
    );
    assert.deepEqual(await walk("newest"), byTime.map((claim) => claim.id).reverse());
    const risky = await walk("risk");
    assert.deepEqual(
      risky,
      byRisk.map((claim) => claim.id),
    );
    assert.equal(filed.find((claim) => claim.id === risky[0])!.level, "high");
    assert.equal(filed.find((claim) => claim.id === risky.at(-1))!.level, null);
    // The filter and the order together: elevated or high, highest first.
    const elevatedUp = await listClaimQueue(t.database.db, t.services, {
      merchantId: merchant.merchantId,
      risk: "elevated",
      sort: "risk",
    });
    assert.deepEqual(
      elevatedUp.rows.map((row) => row.riskLevel),
      byRisk.filter((claim) => claim.level === "high" || claim.level === "elevated").map((claim) => claim.level),
    );
    await assert.rejects(
      listClaimQueue(t.database.db, t.services, { sort: "riskiest" }),
      (error: DomainError) => error.field === "sort",
    );
  });

  it("shows a claim with its merchant, plan and consent record, order, evidence and timeline — and no key material", async () => {
    const claimId = await claimOf(t.merchant, "stolen_after_delivery", "Taken from the porch");
    const detail = await getOpsClaim(t.database.db, t.services, claimId);
    assert.equal(detail.claim.status, "submitted");
    assert.equal(detail.claim.description, "Taken from the porch");
    assert.equal(detail.merchant.name, "Test Store");
    assert.equal(detail.plan.status, "active");
    assert.ok(detail.plan.consent?.disclosureText.includes("This is not insurance"));
    assert.equal(detail.remainingCents, detail.plan.coveredAmountCents);
    assert.equal(detail.order?.deliveredAt, null);
    assert.deepEqual(
      detail.timeline.map((entry) => entry.kind),
      ["submitted"],
    );
    assert.deepEqual(detail.actions, ["start_review", "approve", "deny", "request_information"]);
    assert.equal(detail.replacementAllowed, false);
    const text = JSON.stringify(detail);
    for (const secret of [t.merchant.secretKey, t.merchant.publishableKey, "mch_test_", "mch_live_", "key_hash"])
      assert.equal(text.includes(secret), false, `no ${secret.slice(0, 9)}… in the console's claim`);
    await assert.rejects(
      getOpsClaim(t.database.db, t.services, "clm_missing"),
      (error: DomainError) => error.kind === "not_found",
    );
  });

  it("ask for information → approve: each with its audit entry (owner, statuses, code, remedy; never the note)", async () => {
    const staff = await staffMember();
    const claimId = await claimOf(other);
    const act = (input: unknown) => tx((q) => actOnClaim(q, t.services, staff, claimId, input, IP));

    await act({ action: "start_review" });
    const asked = await act({ action: "request_information", message: "Please send a photo of the label." });
    assert.equal(asked.status, "needs_information");
    const approved = await act({ action: "approve", remedy: "refund", note: "Thanks, Ann Example." });
    assert.equal(approved.status, "approved");
    assert.equal(approved.decision?.decidedBy, "claims_team");

    const audit = await t.database.db.all<{ action: string; staff_id: string; detail: string; ip: string }>(
      "SELECT action, staff_id, detail, ip FROM staff_audit_log WHERE subject = ? ORDER BY created_at, id",
      [claimId],
    );
    assert.deepEqual(audit.map((entry) => entry.action).sort(), [
      "claim.approved",
      "claim.information_requested",
      "claim.review_started",
    ]);
    const approval = audit.find((entry) => entry.action === "claim.approved")!;
    assert.equal(approval.staff_id, staff.id);
    assert.equal(approval.ip, IP);
    assert.deepEqual(JSON.parse(approval.detail), {
      merchantId: other.merchantId,
      mode: "test",
      from: "needs_information",
      to: "approved",
      code: "covered",
      remedy: "refund",
      amountCents: approved.amountCents,
      currency: approved.currency,
    });
    for (const entry of audit) {
      assert.equal(entry.detail.includes("Ann Example"), false, "no note in the audit log");
      assert.equal(entry.detail.includes("label"), false, "no message in the audit log");
    }
    const decided = await t.database.db.get<{ decided_by: string }>("SELECT decided_by FROM claims WHERE id = ?", [
      claimId,
    ]);
    assert.equal(decided!.decided_by, `staff:${staff.id}`);
    const detail = await getOpsClaim(t.database.db, t.services, claimId);
    assert.equal(detail.decidedByEmail, staff.email);
    assert.deepEqual(detail.actions, []);
  });

  it("deny with a published reason; bad input and refused transitions write nothing (no decision, no audit)", async () => {
    const staff = await staffMember();
    const claimId = await claimOf(other, "wrong_item_delivered");
    const act = (input: unknown) => tx((q) => actOnClaim(q, t.services, staff, claimId, input, IP));
    const before = await counts();
    for (const [input, field] of [
      [{ action: "deny", code: "" }, "code"],
      [{ action: "deny", code: "because" }, "code"],
      [{ action: "approve", remedy: "cash" }, "remedy"],
      [{ action: "request_information", message: "   " }, "message"],
      [{ action: "approve", remedy: "refund", note: "x".repeat(2_001) }, "note"],
      [{ action: "escalate" }, "action"],
    ] as const) {
      await assert.rejects(act(input), (error: DomainError) => {
        assert.ok(error instanceof DomainError);
        assert.equal(error.field, field, JSON.stringify(input));
        return true;
      });
    }
    // Replacement where the program does not allow it: the decision function refuses, the audit entry goes with it.
    await assert.rejects(act({ action: "approve", remedy: "replacement" }), (error: DomainError) => {
      assert.equal(error.code, "replacement_not_allowed");
      return true;
    });
    assert.deepEqual(await counts(), before);

    const denied = await act({
      action: "deny",
      code: "insufficient_evidence",
      note: "The photo shows the right item.",
    });
    assert.equal(denied.status, "denied");
    assert.equal(denied.decision?.code, "insufficient_evidence");
    const afterDenial = await counts();
    await assert.rejects(act({ action: "approve", remedy: "refund" }), (error: DomainError) => {
      assert.equal(error.code, "claim_transition_invalid");
      return true;
    });
    assert.deepEqual(await counts(), afterDenial, "a refused transition writes no audit entry");
    const [entry] = await t.database.db.all<{ detail: string }>(
      "SELECT detail FROM staff_audit_log WHERE subject = ? AND action = 'claim.denied'",
      [claimId],
    );
    assert.equal(JSON.parse(entry.detail).code, "insufficient_evidence");
  });

  describe("a payment made in the Shopify admin", () => {
    const SHOP = "hand-paid.myshopify.com";
    const PAYMENT_TABLES = [...CLAIM_TABLES, "ledger_entries", "shopify_jobs"];
    const paymentCounts = () => rowCounts(t.database.db, PAYMENT_TABLES);
    let shopMerchant: NewMerchant;
    beforeAll(async () => {
      shopMerchant = await t.createMerchant("Shopify Store");
      await t.database.db.run("UPDATE merchants SET shop_domain = ? WHERE id = ?", [SHOP, shopMerchant.merchantId]);
    });

    /** An approved claim of `merchant` (a refund), decided by a reviewer; resolves with its id. */
    async function approvedClaim(merchant: NewMerchant) {
      const claimId = await claimOf(merchant, "lost_in_transit");
      const reviewer = await staffMember("reviewer");
      await tx((q) => actOnClaim(q, t.services, reviewer, claimId, { action: "approve", remedy: "refund" }, IP));
      return claimId;
    }

    /**
     * The claim's payout job as the app queues it (pending, no attempt yet), with the claim's payout state in the same
     * transaction; resolves with the job's id.
     */
    async function queuePayoutJob(claimId: string) {
      const id = `job_claim_payout_${claimId}`;
      const job = { id, shop: SHOP, kind: CLAIM_PAYOUT_JOB, subject: claimId, payload: { claimId }, lockedUntil: null };
      await tx(async (q) => {
        await insertShopifyJob(q, job, t.clock.now);
        await recordClaimPayoutStep(q, claimId, { state: "pending", attempts: 0, error: null });
      });
      return id;
    }

    /** A failed attempt of the claim's job: retried later, or (`dead`) given up; the claim keeps it too. */
    const failJob = (claimId: string, attempts: number, dead: boolean) =>
      tx(async (q) => {
        const lastError = "refundCreate: order is locked";
        const runAt = dead ? undefined : t.clock.now + 60_000;
        await recordShopifyJobFailure(q, `job_claim_payout_${claimId}`, { attempts, runAt, lastError }, t.clock.now);
        await recordClaimPayoutStep(q, claimId, { state: dead ? "dead" : "pending", attempts, error: lastError });
      });

    const record = (staff: Awaited<ReturnType<typeof staffMember>>, claimId: string, input: object) =>
      tx((q) => actOnClaim(q, t.services, staff, claimId, { action: "record_payment", ...input }, IP));

    async function refusedWith(work: Promise<unknown>, kind: string, code: string, field?: string) {
      await assert.rejects(work, (error: unknown) => {
        assert.ok(error instanceof DomainError, String(error));
        assert.equal(error.kind, kind);
        assert.equal(error.code, code);
        assert.equal(error.field, field);
        return true;
      });
    }

    it("is refused while the payout job may still pay (none yet, pending, retrying), from a reviewer, or without a reference; nothing is written", async () => {
      const admin = await staffMember("admin");
      const reviewer = await staffMember("reviewer");
      const claimId = await approvedClaim(shopMerchant);
      const before = await paymentCounts();

      assert.equal((await getOpsClaim(t.database.db, t.services, claimId)).paymentRecordable, false, "no job yet");
      await refusedWith(record(admin, claimId, { reference: "#1042" }), "conflict", "claim_payout_in_progress");

      await queuePayoutJob(claimId);
      const queued = await paymentCounts();
      assert.deepEqual((await getOpsClaim(t.database.db, t.services, claimId)).shopifyPayoutJob, {
        status: "pending",
        attempts: 0,
      });
      await refusedWith(record(admin, claimId, { reference: "#1042" }), "conflict", "claim_payout_in_progress");
      await failJob(claimId, 1, false);
      const retrying = await getOpsClaim(t.database.db, t.services, claimId);
      assert.deepEqual(retrying.shopifyPayoutJob, { status: "pending", attempts: 1 });
      assert.equal(retrying.paymentRecordable, false);
      await refusedWith(record(admin, claimId, { reference: "#1042" }), "conflict", "claim_payout_in_progress");
      assert.deepEqual(await paymentCounts(), { ...before, shopify_jobs: queued.shopify_jobs });

      await failJob(claimId, 2, true);
      assert.equal((await getOpsClaim(t.database.db, t.services, claimId)).paymentRecordable, true);
      await refusedWith(record(reviewer, claimId, { reference: "#1042" }), "forbidden", "staff_admin_required");
      for (const reference of [undefined, "   ", "x".repeat(201)])
        await refusedWith(record(admin, claimId, { reference }), "invalid", "parameter_invalid", "reference");
      await refusedWith(
        record(admin, claimId, { reference: "#1042", note: "x".repeat(2_001) }),
        "invalid",
        "parameter_invalid",
        "note",
      );
      assert.deepEqual(await paymentCounts(), { ...before, shopify_jobs: queued.shopify_jobs });
      const row = await t.database.db.get<{ status: string; resolution: string | null }>(
        "SELECT status, resolution FROM claims WHERE id = ?",
        [claimId],
      );
      assert.deepEqual({ ...row }, { status: "approved", resolution: null });
    });

    it("once the job gave up, an admin records it: the claim paid with the reference, reimbursed once, one claim.updated, audited without the note", async () => {
      const admin = await staffMember("admin");
      const claimId = await approvedClaim(shopMerchant);
      await queuePayoutJob(claimId);
      await failJob(claimId, 1, true);
      await t.database.db.run("UPDATE claims SET payout_error = ? WHERE id = ?", ["the app is not installed", claimId]);
      const before = await paymentCounts();

      const paid = await record(admin, claimId, { reference: "  #1042 ", note: "Refunded by hand, Ann Example." });
      assert.equal(paid.status, "paid");
      assert.equal(paid.resolution?.status, "done");
      assert.equal(paid.resolution?.channel, "shopify");
      assert.equal(paid.resolution?.reference, "#1042");
      assert.equal(paid.resolution?.amountCents, paid.amountCents);
      assert.equal(paid.resolution?.error, null);

      const after = await paymentCounts();
      assert.equal(after.ledger_entries, before.ledger_entries + 1);
      assert.equal(after.events, before.events + 1);
      assert.equal(after.staff_audit_log, before.staff_audit_log + 1);
      assert.equal(after.shopify_jobs, before.shopify_jobs);
      const ledger = await t.database.db.all<{ amount_cents: number | string; currency: string }>(
        "SELECT amount_cents, currency FROM ledger_entries WHERE kind = 'claim_reimbursement' AND source_id = ?",
        [claimId],
      );
      assert.deepEqual(
        ledger.map((entry) => [Number(entry.amount_cents), entry.currency]),
        [[paid.amountCents, paid.currency]],
      );
      const events = await t.database.db.all<{ data: string }>(
        "SELECT data FROM events WHERE type = 'claim.updated' AND merchant_id = ?",
        [shopMerchant.merchantId],
      );
      const paidEvents = events
        .map((event) => JSON.parse(event.data))
        .filter((data) => data.id === claimId && data.status === "paid");
      assert.equal(paidEvents.length, 1, "one claim.updated for the payment");
      assert.equal(paidEvents[0].resolution.reference, "#1042");
      const timeline = await getOpsClaim(t.database.db, t.services, claimId);
      const paidEntry = timeline.timeline.find((entry) => entry.status === "paid");
      assert.match(paidEntry!.text, /Refunded by hand, Ann Example\./, "the note is the buyer's to read");
      assert.equal(timeline.paymentRecordable, false);

      const [entry] = await t.database.db.all<{ staff_id: string; detail: string; ip: string }>(
        "SELECT staff_id, detail, ip FROM staff_audit_log WHERE subject = ? AND action = 'claim.payment_recorded'",
        [claimId],
      );
      assert.equal(entry.staff_id, admin.id);
      assert.equal(entry.ip, IP);
      assert.deepEqual(JSON.parse(entry.detail), {
        merchantId: shopMerchant.merchantId,
        mode: "test",
        from: "approved",
        to: "paid",
        code: "covered",
        reference: "#1042",
        amountCents: paid.amountCents,
        currency: paid.currency,
      });
      assert.equal(entry.detail.includes("Ann Example"), false, "no note in the audit log");

      // Recorded twice (a double submit, a second admin): refused, nothing more written.
      await refusedWith(record(admin, claimId, { reference: "#1042" }), "conflict", "claim_transition_invalid");
      assert.deepEqual(await paymentCounts(), after);
    });

    it("is refused for a claim whose merchant is not a Shopify shop", async () => {
      const admin = await staffMember("admin");
      const claimId = await approvedClaim(other);
      const detail = await getOpsClaim(t.database.db, t.services, claimId);
      assert.equal(detail.shopifyPayoutJob, null);
      assert.equal(detail.paymentRecordable, false);
      const before = await paymentCounts();
      await refusedWith(record(admin, claimId, { reference: "#1042" }), "conflict", "claim_not_on_shopify");
      assert.deepEqual(await paymentCounts(), before);
    });
  });

  it("assign to me: the claim's assignee, Mine in the queue (nobody else's), given back by its assignee only; audited", async () => {
    const claimId = await claimOf(t.merchant);
    const [me, colleague] = [await staffMember(), await staffMember()];
    const before = (await getOpsClaim(t.database.db, t.services, claimId)).claim.updatedAt;
    await tx((q) => actOnClaim(q, t.services, me, claimId, { action: "assign_to_me" }, IP));
    const detail = await getOpsClaim(t.database.db, t.services, claimId);
    assert.deepEqual(detail.assignee, { staffId: me.id, email: me.email });
    assert.equal(detail.claim.updatedAt, before, "internal to the claims team: the merchant's claim is unchanged");
    const mine = await listClaimQueue(t.database.db, t.services, { view: "all", assignee: "mine" }, me.id);
    assert.deepEqual(
      mine.rows.map((row) => [row.id, row.assigneeEmail]),
      [[claimId, me.email]],
    );
    const theirs = await listClaimQueue(t.database.db, t.services, { view: "all", assignee: "mine" }, colleague.id);
    assert.deepEqual(theirs.rows, []);
    const before2 = await counts();
    await assert.rejects(
      tx((q) => actOnClaim(q, t.services, colleague, claimId, { action: "unassign" }, IP)),
      (error: DomainError) => error.code === "claim_not_yours",
    );
    assert.deepEqual(await counts(), before2, "a refused action writes nothing");
    t.clock.advance(1_000); // the audit log reads in time order
    await tx((q) => actOnClaim(q, t.services, me, claimId, { action: "unassign" }, IP));
    assert.equal((await getOpsClaim(t.database.db, t.services, claimId)).assignee, null);
    const audit = await t.database.db.all<{ action: string }>(
      "SELECT action FROM staff_audit_log WHERE subject = ? ORDER BY created_at, id",
      [claimId],
    );
    assert.deepEqual(
      audit.map((entry) => entry.action),
      ["claim.assigned", "claim.unassigned"],
    );
  });

  it("filters by risk (elevated or high, high) and shows each claim's level; an unknown level is refused", async () => {
    // One address's third claim in a row: repeat_claimant and claim_velocity make it elevated (server/domain/claim-risk.ts).
    const email = `often-${t.clock.now}@example.com`;
    const merchant = await t.createMerchant("Risky Buyers' Store");
    const filed: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { confirmation } = await protectOrder(apiClient(t.baseUrl, merchant.publishableKey), merchant.programId, {
        customer_email: email,
      });
      const claim = await tx((q) =>
        submitClaim(
          q,
          t.services,
          { merchantId: merchant.merchantId, mode: "test" },
          { referenceNumber: confirmation.referenceNumber, reason: "damaged_in_transit" },
        ),
      );
      filed.push(claim.id);
    }
    const onlyIt = { view: "all", merchantId: merchant.merchantId };
    const all = await listClaimQueue(t.database.db, t.services, onlyIt);
    const levelOf = (id: string) => all.rows.find((row) => row.id === id)?.riskLevel;
    assert.deepEqual(filed.map(levelOf), ["low", "low", "elevated"]);
    const elevated = await listClaimQueue(t.database.db, t.services, { ...onlyIt, risk: "elevated" });
    assert.deepEqual(
      elevated.rows.map((row) => row.id),
      [filed[2]],
    );
    assert.deepEqual((await listClaimQueue(t.database.db, t.services, { ...onlyIt, risk: "high" })).rows, []);
    await assert.rejects(
      listClaimQueue(t.database.db, t.services, { view: "all", risk: "extreme" }),
      (error: DomainError) => error.field === "risk",
    );
  });

  it("search by part of a reference number, any case; text that is no reference is refused", async () => {
    const { confirmation } = await protectOrder(apiClient(t.baseUrl, t.merchant.publishableKey), t.merchant.programId, {
      customer_email: "buyer@example.com",
    });
    const claim = await tx((q) =>
      submitClaim(
        q,
        t.services,
        { merchantId: t.merchant.merchantId, mode: "test" },
        {
          referenceNumber: confirmation.referenceNumber,
          reason: "damaged_in_transit",
        },
      ),
    );
    const other = await claimOf(t.merchant);
    const part = confirmation.referenceNumber.slice(-6).toLowerCase();
    const found = await listClaimQueue(t.database.db, t.services, { view: "all", reference: part });
    assert.deepEqual(
      found.rows.map((row) => row.id),
      [claim.id],
    );
    assert.ok(!found.rows.some((row) => row.id === other));
    await assert.rejects(
      listClaimQueue(t.database.db, t.services, { view: "all", reference: "%" }),
      (error: DomainError) => error.field === "reference",
    );
  });

  it("the review promise: due 5 business days after filing, due soon from the 4th, overdue after; none once with the buyer", async () => {
    const friday = Date.UTC(2026, 10, 27, 10, 0); // a Friday
    const due = addBusinessDays(friday, 5);
    assert.equal(new Date(due).toISOString(), "2026-12-04T10:00:00.000Z");
    assert.equal(reviewPromise("submitted", friday, friday)?.marker, null);
    assert.equal(reviewPromise("under_review", friday, addBusinessDays(friday, 4) - 1)?.marker, null);
    assert.equal(reviewPromise("under_review", friday, addBusinessDays(friday, 4))?.marker, "due_soon");
    assert.equal(reviewPromise("submitted", friday, due)?.marker, "overdue");
    assert.equal(reviewPromise("submitted", friday, due)?.dueAt, "2026-12-04T10:00:00.000Z");
    for (const status of ["needs_information", "approved", "paid", "denied"] as const)
      assert.equal(reviewPromise(status, friday, due), null, status);
    // The queue reads the injected clock.
    const claimId = await claimOf(t.merchant);
    // Found by its reference number: earlier tests filled the queue's first page.
    const onlyIt = {
      view: "all",
      reference: (await getOpsClaim(t.database.db, t.services, claimId)).claim.referenceNumber,
    };
    t.clock.advance(8 * 24 * 3_600_000);
    const row = (await listClaimQueue(t.database.db, t.services, onlyIt)).rows.find((r) => r.id === claimId)!;
    assert.equal(row.review?.marker, "overdue");

    // Asked for information, the buyer answers: the review continues within 5 business days of the answer.
    const staff = await staffMember();
    await tx((q) =>
      actOnClaim(q, t.services, staff, claimId, { action: "request_information", message: "A photo?" }, IP),
    );
    assert.equal((await getOpsClaim(t.database.db, t.services, claimId)).review, null, "waiting for the buyer");
    const planId = (await getOpsClaim(t.database.db, t.services, claimId)).plan.id;
    await tx((q) =>
      addClaimMessage(q, t.services, { merchantId: t.merchant.merchantId, mode: "test", planId }, claimId, {
        message: "Here it is.",
      }),
    );
    const answered = t.clock.now;
    const detail = await getOpsClaim(t.database.db, t.services, claimId);
    assert.deepEqual(detail.review, { dueAt: new Date(addBusinessDays(answered, 5)).toISOString(), marker: null });
    const again = (await listClaimQueue(t.database.db, t.services, onlyIt)).rows.find((r) => r.id === claimId)!;
    assert.deepEqual(again.review, detail.review);
  });

  // Last: it moves the clock on by days.
  it("shows the order's delivery as GET /orders/{orderId}/delivery reads it: scans in time order, stalled, overdue", async () => {
    const claimId = await claimOf(t.merchant, "lost_in_transit", "Never came");
    const actor = { merchantId: t.merchant.merchantId, mode: "test" as const };
    const unshipped = (await getOpsClaim(t.database.db, t.services, claimId)).order!;
    assert.equal(unshipped.delivery.state, "not_shipped");
    assert.deepEqual(unshipped.delivery.shipments, []);

    const orderId = unshipped.id;
    const now = t.clock.now;
    const promised = new Date(now - 20 * DAY).toISOString().slice(0, 10);
    const shipment = await tx((q) =>
      reportShipment(q, t.services, actor, orderId, {
        carrier: "DHL",
        trackingNumber: "JD014600006281",
        promisedDeliveryDate: promised,
      }),
    );
    // Reported in the reverse of the order they happened in.
    await tx((q) =>
      reportShipmentEvent(q, t.services, actor, shipment.id, {
        status: "out_for_delivery",
        occurredAt: now - 2 * DAY,
        location: "Lyon",
        message: "With the courier",
      }),
    );
    await tx((q) =>
      reportShipmentEvent(q, t.services, actor, shipment.id, {
        status: "in_transit",
        occurredAt: now - 3 * DAY,
        location: "Paris",
      }),
    );
    const moving = (await getOpsClaim(t.database.db, t.services, claimId)).order!.delivery;
    assert.deepEqual(moving, await getOrderDelivery(t.database.db, t.services, actor, orderId));
    const [view] = moving.shipments;
    assert.deepEqual(
      view.events.map((scan) => [scan.status, scan.location, scan.message]),
      [
        ["in_transit", "Paris", null],
        ["out_for_delivery", "Lyon", "With the courier"],
      ],
    );
    assert.equal(view.state, "in_transit");
    assert.equal(view.overdue, true, "20 days past the promised date, not delivered");
    assert.equal(moving.overdue, true);

    // No scan for the stall period: presumed lost since the last scan + DELIVERY_STALLED_AFTER_DAYS.
    const stallDays = t.services.settings.deliveryStalledAfterDays ?? DEFAULT_STALLED_AFTER_DAYS;
    t.clock.advance(stallDays * DAY);
    const stalled = (await getOpsClaim(t.database.db, t.services, claimId)).order!.delivery;
    assert.equal(stalled.state, "stalled");
    assert.equal(stalled.shipments[0].stalledSince, new Date(now - 2 * DAY + stallDays * DAY).toISOString());
  });
});
