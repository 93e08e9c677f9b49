// A claim's risk (docs/api.md "Claim risk"): assessed at filing over the real API, from the buyer's other claims (by
// the keyed hash of their e-mail) and photos seen on other claims (exact and perceptual hashes); assessed again when
// the buyer adds files; a claim the rules would approve goes to a person when its risk is high; never denied on risk;
// the signals go with the buyer's data.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { DIALECTS } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { postForm, signedInBuyer, type EvidenceUpload } from "../support/portal.ts";
import { photoPng, PDF } from "../support/evidence-images.ts";
import { setClaimRules } from "../../server/domain/programs.ts";
import { customerRecords, redactCustomer } from "../../server/domain/privacy.ts";
import { createSealer } from "../../server/secrets/sealer.ts";
import type { Actor } from "../../server/vocabulary/actors.ts";

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
        autoApprove: { maxAmountCents: 5_000, reasons: ["damaged_in_transit", "missing_items"] },
      }),
    );
  });
  afterAll(() => t.close());

  /** A buyer (this e-mail, or a new one) with a new plan files a claim with these files. */
  async function fileClaim(files: EvidenceUpload[], options: { email?: string; reason?: string } = {}) {
    t.clock.advance(HOUR);
    const buyer = await signedInBuyer(t, { email: options.email });
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

  it("customers/redact takes the buyer's assessments and photo hashes with their claims' files", async () => {
    const email = `gone-${randomUUID()}@example.test`;
    const claim = await fileClaim([newPhoto()], { email });
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
  });
});
