import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import http from "node:http";
import { DIALECTS } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient, type UntypedBody } from "../support/client.ts";
import { assertChangesNothing, assertError } from "../support/api-assertions.ts";
import { outbox, protectOrder, sha256Hex, tally } from "../support/protection-flows.ts";
import { postForm as postPortalForm, type EvidenceUpload } from "../support/portal.ts";
import type { NewMerchant } from "../../server/domain/merchants.ts";
import { newPortalToken } from "../../server/domain/portal.ts";
import { insertPortalSession } from "../../server/store/portal-sessions.ts";
import { setClaimPaidAmount, updateClaimStatus } from "../../server/store/claims.ts";
import {
  CAMERA_MAKE,
  GPS_LATITUDE_BYTES,
  PDF,
  PLAIN_PNG,
  containsBytes,
  jpegWithMetadata,
} from "../support/evidence-images.ts";

// The buyer files and follows claims in the portal (docs/api.md "Claims"): the filing rules, one open claim per plan and
// reason, evidence files (multipart, recognised by their bytes, stripped, downloaded only by their buyer and their
// merchant), and messages.

const DAY = 24 * 60 * 60 * 1000;
const MiB = 1024 * 1024;
const iso = (ms: number) => new Date(ms).toISOString();

interface Buyer {
  portal: ReturnType<typeof apiClient>;
  token: string;
  planId: string;
  referenceNumber: string;
  purchasedAt: number;
  coveredAmountCents: number;
}

describe.each(DIALECTS)("portal claims (%s)", (dialect) => {
  let t: TestApi;
  // A socket: multipart uploads, a raw node:http request with a lying Content-Length.
  beforeAll(async () => (t = await startTestApi({ dialect, transport: "socket" })));
  afterAll(() => t.close());

  /** A protected order with a buyer e-mail, and a portal session on its plan (stored as the look-up stores one). */
  async function newBuyer(merchant: NewMerchant = t.merchant): Promise<Buyer> {
    const widget = apiClient(t.baseUrl, merchant.publishableKey);
    const { confirmation } = await protectOrder(widget, merchant.programId, { customer_email: "buyer@example.com" });
    const plan = (await t.database.db.get<{ purchased_at: number; covered_amount_cents: number }>(
      "SELECT purchased_at, covered_amount_cents FROM plans WHERE id = ?",
      [confirmation.planId],
    ))!;
    const token = newPortalToken();
    await t.database.db.transaction((tx) =>
      insertPortalSession(tx, {
        id: `pss_${randomUUID().replaceAll("-", "")}`,
        tokenHash: sha256Hex(token),
        merchantId: merchant.merchantId,
        mode: "test",
        planId: confirmation.planId,
        via: "lookup",
        createdAt: t.clock.now,
        // These tests move the clock by weeks; the session's own expiry is H-portal's suite.
        expiresAt: t.clock.now + 1000 * DAY,
      }),
    );
    return {
      portal: apiClient(t.baseUrl, token),
      token,
      planId: confirmation.planId,
      referenceNumber: confirmation.referenceNumber,
      purchasedAt: Number(plan.purchased_at),
      coveredAmountCents: Number(plan.covered_amount_cents),
    };
  }

  const claimBody = (buyer: Buyer, fields: Record<string, unknown> = {}) => ({
    referenceNumber: buyer.referenceNumber,
    reason: "damaged_in_transit",
    occurredAt: iso(t.clock.now),
    description: "The box arrived crushed.",
    ...fields,
  });

  const postForm = (token: string, path: string, fields: Record<string, string>, files: EvidenceUpload[]) =>
    postPortalForm(t.baseUrl, token, path, fields, files);

  const formFields = (buyer: Buyer, fields: Record<string, string> = {}) =>
    claimBody(buyer, fields) as Record<string, string>;

  async function download(key: string, path: string) {
    const response = await fetch(`${t.baseUrl}${path}`, { headers: { Authorization: `Bearer ${key}` } });
    return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
  }

  describe("filing", () => {
    it("files a submitted claim: timeline, claim.created with the new fields, claim_received e-mail", async () => {
      const buyer = await newBuyer();
      const filed = await buyer.portal.post("/portal/claims", claimBody(buyer));
      assert.equal(filed.status, 200, filed.text);
      const claim = filed.body;
      assert.equal(claim.object, "claim");
      assert.equal(claim.status, "submitted");
      assert.equal(claim.reason, "damaged_in_transit");
      assert.equal(typeof claim.reasonName, "string");
      assert.equal(claim.amountCents, buyer.coveredAmountCents, "the default amount is what remains covered");
      assert.equal(claim.decision, null);
      assert.deepEqual(claim.evidence, []);
      assert.deepEqual(
        claim.timeline.map((entry: UntypedBody) => [entry.actor, entry.kind, entry.status]),
        [["buyer", "submitted", null]],
      );

      const [event] = (await outbox(t.database.db, t.merchant.merchantId, "claim.created")).filter(
        (row) => row.data.id === claim.id,
      );
      assert.ok(event, "claim.created");
      assert.equal(event.data.occurredAt, claim.occurredAt);
      assert.equal(event.data.decision, null);
      assert.equal(event.data.evidenceCount, 0);

      const emails = await t.database.db.all<{ template: string; dedupe_key: string }>(
        "SELECT template, dedupe_key FROM email_messages WHERE claim_id = ?",
        [claim.id],
      );
      assert.deepEqual(emails, [
        {
          template: "claim_received",
          dedupe_key: `claim_received:${buyer.planId}:${claim.id}:${claim.timeline[0].id}`,
        },
      ]);

      const listed = await buyer.portal.get("/claims");
      assert.equal(listed.status, 200, listed.text);
      assert.deepEqual(
        listed.body.data.map((c: UntypedBody) => c.id),
        [claim.id],
      );
      const merchantList = await apiClient(t.baseUrl, t.merchant.secretKey).get(
        `/merchant/claims?reference_number=${buyer.referenceNumber}`,
      );
      assert.equal(merchantList.status, 200, merchantList.text);
      const [listedForMerchant] = merchantList.body.data;
      assert.equal(listedForMerchant.id, claim.id);
      assert.equal(listedForMerchant.occurredAt, claim.occurredAt);
      assert.equal(listedForMerchant.decision, null);
      assert.equal(listedForMerchant.evidenceCount, 0);
    });

    it("refuses each broken rule with a 422 naming it, and creates nothing", async () => {
      const buyer = await newBuyer();
      const refusals: [Record<string, unknown>, string, string][] = [
        [{ reason: "changed_my_mind" }, "reason_not_covered", "reason"],
        [{ occurredAt: iso(t.clock.now + 60_000) }, "occurred_in_future", "occurredAt"],
        [{ occurredAt: iso(buyer.purchasedAt - 1) }, "occurred_before_purchase", "occurredAt"],
        [{ amountCents: buyer.coveredAmountCents + 1 }, "amount_exceeds_remaining", "amountCents"],
      ];
      for (const [fields, code, param] of refusals) {
        const response = await assertChangesNothing(
          t.database.db,
          () => buyer.portal.post("/portal/claims", claimBody(buyer, fields)),
          1,
        );
        assertError(response, { status: 422, code, param });
      }
    });

    it("takes the amount in JSON only as a whole number: a string is 400 and creates nothing", async () => {
      const buyer = await newBuyer();
      for (const amountCents of ["2500", "2500.0", " 2500", 2500.5, "2.5e3"]) {
        const response = await assertChangesNothing(t.database.db, () =>
          buyer.portal.post("/portal/claims", claimBody(buyer, { amountCents })),
        );
        assertError(response, { status: 400, code: "parameter_invalid", param: "amountCents" });
      }
    });

    it("counts the 30-day window to the millisecond: exactly 30 days is filed, 30 days and 1 ms is refused", async () => {
      const buyer = await newBuyer();
      t.clock.advance(31 * DAY);
      const late = t.clock.now - 30 * DAY - 1;
      const refused = await assertChangesNothing(
        t.database.db,
        () => buyer.portal.post("/portal/claims", claimBody(buyer, { occurredAt: iso(late) })),
        1,
      );
      assertError(refused, { status: 422, code: "claim_window_expired", param: "occurredAt" });
      const filed = await buyer.portal.post("/portal/claims", claimBody(buyer, { occurredAt: iso(late + 1) }));
      assert.equal(filed.status, 200, filed.text);
    });

    it("takes a day (YYYY-MM-DD): the purchase day itself is not before the purchase", async () => {
      const buyer = await newBuyer();
      const day = iso(buyer.purchasedAt).slice(0, 10);
      const filed = await buyer.portal.post("/portal/claims", claimBody(buyer, { occurredAt: day }));
      assert.equal(filed.status, 200, filed.text);
      assert.equal(filed.body.occurredAt, `${day}T00:00:00.000Z`);
    });

    it("refuses a plan that is not active (409) and another plan's reference number (404)", async () => {
      const buyer = await newBuyer();
      const other = await newBuyer();
      const wrongPlan = await assertChangesNothing(
        t.database.db,
        () => buyer.portal.post("/portal/claims", claimBody(buyer, { referenceNumber: other.referenceNumber })),
        1,
      );
      assertError(wrongPlan, { status: 404, code: "resource_missing" });
      const voided = await apiClient(t.baseUrl, t.merchant.secretKey).post("/offers/void", { planId: buyer.planId });
      assert.equal(voided.status, 200, voided.text);
      const refused = await assertChangesNothing(
        t.database.db,
        () => buyer.portal.post("/portal/claims", claimBody(buyer)),
        1,
      );
      assertError(refused, { status: 409, code: "plan_not_active" });
    });

    it("allows one open claim per plan and reason, also when two filings race", async () => {
      const buyer = await newBuyer();
      const raced = await Promise.all([
        buyer.portal.post("/portal/claims", claimBody(buyer)),
        buyer.portal.post("/portal/claims", claimBody(buyer)),
      ]);
      assert.deepEqual(tally(raced), { "200": 1, "409 claim_already_open": 1 });
      const again = await assertChangesNothing(
        t.database.db,
        () => buyer.portal.post("/portal/claims", claimBody(buyer)),
        1,
      );
      assertError(again, { status: 409, code: "claim_already_open", param: "reason" });
      const otherReason = await buyer.portal.post("/portal/claims", claimBody(buyer, { reason: "missing_items" }));
      assert.equal(otherReason.status, 200, otherReason.text);
      const rows = await t.database.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM claims WHERE plan_id = ?", [
        buyer.planId,
      ]);
      assert.equal(Number(rows!.n), 2);
    });

    it("offers what earlier paid claims left: the default amount and the cap", async () => {
      const buyer = await newBuyer();
      const first = await buyer.portal.post("/portal/claims", claimBody(buyer, { amountCents: 3_000 }));
      assert.equal(first.status, 200, first.text);
      await t.database.db.transaction(async (tx) => {
        await setClaimPaidAmount(tx, first.body.id, 3_000);
        await updateClaimStatus(tx, first.body.id, "paid", t.clock.now);
      });
      const remaining = buyer.coveredAmountCents - 3_000;
      const tooMuch = await assertChangesNothing(
        t.database.db,
        () => buyer.portal.post("/portal/claims", claimBody(buyer, { amountCents: remaining + 1 })),
        1,
      );
      assertError(tooMuch, { status: 422, code: "amount_exceeds_remaining", param: "amountCents" });
      // The paid claim closed its slot: the same reason may be claimed again, for what is left.
      const second = await buyer.portal.post("/portal/claims", claimBody(buyer));
      assert.equal(second.status, 200, second.text);
      assert.equal(second.body.amountCents, remaining);
    });

    it("refuses merchant keys (403) and no session (401)", async () => {
      const buyer = await newBuyer();
      for (const key of [t.merchant.secretKey, t.merchant.publishableKey]) {
        const response = await apiClient(t.baseUrl, key).post("/portal/claims", claimBody(buyer));
        assertError(response, { status: 403, code: "portal_session_required" });
      }
      assertError(await apiClient(t.baseUrl).get("/claims"), { status: 401, code: "portal_session_invalid" });
    });
  });

  describe("evidence", () => {
    it("files a claim with a PNG and a PDF (multipart); each downloads by its buyer and its merchant", async () => {
      const buyer = await newBuyer();
      const response = await postForm(buyer.token, "/portal/claims", formFields(buyer, { amountCents: "2500" }), [
        { name: "box.png", bytes: PLAIN_PNG, type: "image/png" },
        { name: "receipt.pdf", bytes: PDF, type: "application/pdf" },
      ]);
      assert.equal(response.status, 200, response.text);
      assert.equal(response.body.amountCents, 2500);
      const evidence = response.body.evidence;
      assert.deepEqual(
        evidence.map((file: UntypedBody) => [file.contentType, file.fileName]),
        [
          ["image/png", "box.png"],
          ["application/pdf", "receipt.pdf"],
        ],
      );
      assert.deepEqual(
        response.body.timeline[0].evidence.map((file: UntypedBody) => file.id),
        evidence.map((file: UntypedBody) => file.id),
      );
      const pdf = evidence[1];
      const path = `/portal/claims/${response.body.id}/evidence/${pdf.id}`;
      const byBuyer = await download(buyer.token, path);
      assert.equal(byBuyer.response.status, 200);
      assert.deepEqual(byBuyer.bytes, PDF);
      assert.equal(byBuyer.response.headers.get("content-type"), "application/pdf");
      assert.match(byBuyer.response.headers.get("content-disposition") ?? "", /^attachment; filename="receipt\.pdf"/);
      assert.equal(byBuyer.response.headers.get("x-content-type-options"), "nosniff");
      assert.equal(byBuyer.response.headers.get("cache-control"), "no-store");
      assert.equal(sha256Hex(Buffer.from(byBuyer.bytes).toString("latin1")).length, 64);

      const merchantPath = `/merchant/claims/${response.body.id}/evidence/${pdf.id}`;
      const byMerchant = await download(t.merchant.secretKey, merchantPath);
      assert.equal(byMerchant.response.status, 200);
      assert.deepEqual(byMerchant.bytes, PDF);
      const byWidgetKey = await download(t.merchant.publishableKey, merchantPath);
      assert.equal(byWidgetKey.response.status, 403);
      const neighbour = await t.createMerchant("Evidence Neighbour");
      const byNeighbour = await download(neighbour.secretKey, merchantPath);
      assert.equal(byNeighbour.response.status, 404);

      const merchantList = await apiClient(t.baseUrl, t.merchant.secretKey).get(
        `/merchant/claims?reference_number=${buyer.referenceNumber}`,
      );
      assert.equal(merchantList.body.data[0].evidenceCount, 2);
    });

    it("strips Exif GPS from a JPEG before it is stored", async () => {
      const buyer = await newBuyer();
      const original = jpegWithMetadata();
      assert.ok(containsBytes(original, GPS_LATITUDE_BYTES) && containsBytes(original, CAMERA_MAKE));
      const response = await postForm(buyer.token, "/portal/claims", formFields(buyer), [
        { name: "photo.jpg", bytes: original, type: "image/jpeg" },
      ]);
      assert.equal(response.status, 200, response.text);
      const [file] = response.body.evidence;
      assert.equal(file.contentType, "image/jpeg");
      const { response: got, bytes } = await download(
        buyer.token,
        `/portal/claims/${response.body.id}/evidence/${file.id}`,
      );
      assert.equal(got.status, 200);
      assert.equal(bytes.byteLength, file.byteSize);
      assert.ok(!containsBytes(bytes, GPS_LATITUDE_BYTES), "no GPS position");
      assert.ok(!containsBytes(bytes, CAMERA_MAKE), "no camera make");
      assert.deepEqual([...bytes.subarray(0, 3)], [0xff, 0xd8, 0xff], "still a JPEG");
    });

    it("types a file by its bytes: a PDF named .jpg and sent as image/jpeg is stored as application/pdf", async () => {
      const buyer = await newBuyer();
      const response = await postForm(buyer.token, "/portal/claims", formFields(buyer), [
        { name: "photo.jpg", bytes: PDF, type: "image/jpeg" },
      ]);
      assert.equal(response.status, 200, response.text);
      assert.equal(response.body.evidence[0].contentType, "application/pdf");
      const row = await t.database.db.get<{ content_type: string }>(
        "SELECT content_type FROM claim_evidence WHERE id = ?",
        [response.body.evidence[0].id],
      );
      assert.equal(row?.content_type, "application/pdf");
    });

    it("names every download by the type its bytes are: a PNG sent as invoice.html downloads as invoice.png", async () => {
      const buyer = await newBuyer();
      const response = await postForm(buyer.token, "/portal/claims", formFields(buyer), [
        { name: "invoice.html", bytes: PLAIN_PNG, type: "text/html" },
        { name: "statement", bytes: PDF },
      ]);
      assert.equal(response.status, 200, response.text);
      assert.deepEqual(
        response.body.evidence.map((file: UntypedBody) => file.fileName),
        ["invoice.png", "statement.pdf"],
      );
      const [png] = response.body.evidence;
      // A file stored before names were typed keeps the buyer's extension in its row: it is named on the way out.
      await t.database.db.run("UPDATE claim_evidence SET file_name = ? WHERE id = ?", ['in"voice.html', png.id]);
      for (const [key, path] of [
        [buyer.token, `/portal/claims/${response.body.id}/evidence/${png.id}`],
        [t.merchant.secretKey, `/merchant/claims/${response.body.id}/evidence/${png.id}`],
      ]) {
        const { response: got } = await download(key, path);
        assert.equal(got.status, 200);
        assert.equal(got.headers.get("content-type"), "image/png");
        assert.equal(
          got.headers.get("content-disposition"),
          `attachment; filename="in_voice.png"; filename*=UTF-8''in%22voice.png`,
        );
      }
      const listed = await buyer.portal.get(`/portal/claims/${response.body.id}`);
      assert.equal(listed.body.evidence[0].fileName, 'in"voice.png');
    });

    it("refuses 6 files, a file of 10 MiB + 1 byte and a text file, and creates nothing", async () => {
      const buyer = await newBuyer();
      const cases: [EvidenceUpload[], string, string][] = [
        [
          Array.from({ length: 6 }, (_, index) => ({ name: `p${index}.png`, bytes: PLAIN_PNG })),
          "too_many_evidence_files",
          "evidence",
        ],
        [
          [
            { name: "ok.png", bytes: PLAIN_PNG },
            { name: "huge.pdf", bytes: new Uint8Array(10 * MiB + 1).fill(0x20).fill(0x25, 0, 1) },
          ],
          "evidence_too_large",
          "evidence[1]",
        ],
        [
          [
            { name: "ok.pdf", bytes: PDF },
            { name: "notes.png", bytes: new TextEncoder().encode("just some text"), type: "image/png" },
          ],
          "evidence_type_unsupported",
          "evidence[1]",
        ],
      ];
      for (const [files, code, param] of cases) {
        const response = await assertChangesNothing(t.database.db, () =>
          postForm(buyer.token, "/portal/claims", formFields(buyer), files),
        );
        assertError(response, { status: 422, code, param });
      }
      // Exactly 10 MiB is accepted.
      const atLimit = new Uint8Array(10 * MiB).fill(0x20);
      atLimit.set(new TextEncoder().encode("%PDF-1.4\n"));
      const accepted = await postForm(buyer.token, "/portal/claims", formFields(buyer), [
        { name: "big.pdf", bytes: atLimit },
      ]);
      assert.equal(accepted.status, 200, accepted.text);
      assert.equal(accepted.body.evidence[0].byteSize, 10 * MiB);
    });

    it("refuses a body past the multipart cap with 413 before reading it", async () => {
      const buyer = await newBuyer();
      // Only 1 KB of the declared 51 MiB + 1 byte is ever sent: the answer comes from the declared length alone.
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const request = http.request(`${t.baseUrl}/portal/claims`, {
          method: "POST",
          headers: {
            Authorization: `Bearer ${buyer.token}`,
            "Idempotency-Key": randomUUID(),
            "Content-Type": "multipart/form-data; boundary=x",
            "Content-Length": String(5 * 10 * MiB + MiB + 1),
          },
        });
        request.on("response", (response) => {
          let body = "";
          response.on("data", (chunk) => (body += chunk));
          response.on("end", () => {
            resolve({ status: response.statusCode!, body });
            request.destroy();
          });
        });
        request.on("error", reject);
        request.write(Buffer.alloc(1024));
      });
      assert.equal(answer.status, 413, answer.body);
      assert.equal(JSON.parse(answer.body).error.code, "request_too_large");
    });

    it("replays a multipart filing sent again with the same key and bytes", async () => {
      const buyer = await newBuyer();
      const form = new FormData();
      for (const [name, value] of Object.entries(formFields(buyer))) form.append(name, value);
      form.append("evidence", new Blob([PLAIN_PNG as Uint8Array<ArrayBuffer>]), "a.png");
      const request = new Request(`${t.baseUrl}/portal/claims`, { method: "POST", body: form });
      const bytes = await request.arrayBuffer();
      const headers = {
        Authorization: `Bearer ${buyer.token}`,
        "Idempotency-Key": randomUUID(),
        "Content-Type": request.headers.get("content-type")!,
      };
      const first = await fetch(`${t.baseUrl}/portal/claims`, { method: "POST", headers, body: bytes });
      const second = await fetch(`${t.baseUrl}/portal/claims`, { method: "POST", headers, body: bytes });
      assert.equal(first.status, 200);
      assert.equal(second.status, 200);
      assert.equal(second.headers.get("idempotent-replayed"), "true");
      assert.equal((await first.json()).id, (await second.json()).id);
    });

    it("hides another buyer's claims and evidence (404)", async () => {
      const buyer = await newBuyer();
      const other = await newBuyer();
      const filed = await postForm(buyer.token, "/portal/claims", formFields(buyer), [
        { name: "box.png", bytes: PLAIN_PNG },
      ]);
      assert.equal(filed.status, 200, filed.text);
      const evidencePath = `/portal/claims/${filed.body.id}/evidence/${filed.body.evidence[0].id}`;
      assert.equal((await download(other.token, evidencePath)).response.status, 404);
      assertError(await other.portal.get(`/portal/claims/${filed.body.id}`), { status: 404, code: "resource_missing" });
      assert.deepEqual((await other.portal.get("/claims")).body.data, []);
      const message = await assertChangesNothing(
        t.database.db,
        () => other.portal.post(`/portal/claims/${filed.body.id}/messages`, { message: "mine now" }),
        1,
      );
      assertError(message, { status: 404, code: "resource_missing" });
    });
  });

  describe("messages", () => {
    it("moves a claim waiting for information back to review, with files", async () => {
      const buyer = await newBuyer();
      const filed = await buyer.portal.post("/portal/claims", claimBody(buyer));
      assert.equal(filed.status, 200, filed.text);
      await t.database.db.transaction((tx) => updateClaimStatus(tx, filed.body.id, "needs_information", t.clock.now));
      const answered = await postForm(
        buyer.token,
        `/portal/claims/${filed.body.id}/messages`,
        { message: "Here is the photo you asked for." },
        [{ name: "photo.png", bytes: PLAIN_PNG }],
      );
      assert.equal(answered.status, 200, answered.text);
      assert.equal(answered.body.status, "under_review");
      assert.deepEqual(
        answered.body.timeline.map((entry: UntypedBody) => [entry.kind, entry.status, entry.evidence.length]),
        [
          ["submitted", null, 0],
          ["message", null, 1],
          ["status_changed", "under_review", 0],
        ],
      );
      assert.equal(answered.body.timeline[1].text, "Here is the photo you asked for.");
      const updates = (await outbox(t.database.db, t.merchant.merchantId, "claim.updated")).filter(
        (row) => row.data.id === filed.body.id,
      );
      assert.equal(updates.length, 1);
      assert.equal(updates[0].data.status, "under_review");
      assert.equal(updates[0].data.evidenceCount, 1);

      const shown = await buyer.portal.get(`/portal/claims/${filed.body.id}`);
      assert.equal(shown.status, 200, shown.text);
      assert.deepEqual(shown.body, answered.body);

      // A message on a claim under review is added; the status stays and no event is written.
      const events = (await outbox(t.database.db, t.merchant.merchantId)).length;
      const more = await buyer.portal.post(`/portal/claims/${filed.body.id}/messages`, { message: "One more thing." });
      assert.equal(more.status, 200, more.text);
      assert.equal(more.body.status, "under_review");
      assert.equal((await outbox(t.database.db, t.merchant.merchantId)).length, events);
    });

    it("refuses a message on a closed claim (409 claim_closed)", async () => {
      const buyer = await newBuyer();
      const filed = await buyer.portal.post("/portal/claims", claimBody(buyer));
      await t.database.db.transaction((tx) => updateClaimStatus(tx, filed.body.id, "denied", t.clock.now));
      const refused = await assertChangesNothing(
        t.database.db,
        () => buyer.portal.post(`/portal/claims/${filed.body.id}/messages`, { message: "Please reconsider." }),
        1,
      );
      assertError(refused, { status: 409, code: "claim_closed" });
    });
  });
});
