import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { DIALECTS } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import type { ApiResponse } from "../support/client.ts";
import { assertChangesNothing, assertError } from "../support/api-assertions.ts";
import { filesUnder } from "../support/evidence.ts";
import { postForm, protectForBuyer, signIn, uniquePdf, type EvidenceUpload } from "../support/portal.ts";
import { EVIDENCE_QUOTAS } from "../../server/evidence/index.ts";
import { COVERED_REASONS } from "../../server/domain/disclosure.ts";

// Issue 26: evidence quotas per claim, per plan and per portal session (docs/api.md "Claims"), checked under the plan's
// row lock in the transaction that records the files, and files of a refused request never stored: the evidence
// folder is the same file for file after every refusal below.

const MiB = 1024 * 1024;
const REASONS = COVERED_REASONS.slice(0, 5);

describe.each(DIALECTS)("evidence quotas (%s)", (dialect) => {
  let t: TestApi;
  // A socket: multipart uploads, whose size limits read the request as the wire delivers it.
  beforeAll(async () => (t = await startTestApi({ dialect, transport: "socket" })));
  afterAll(() => t.close());

  type Plan = Awaited<ReturnType<typeof protectForBuyer>>;

  /** A new portal session on the plan: its token. */
  const session = async (plan: Plan) => (await signIn(t, plan)).token;

  const pdfs = (count: number, byteSize?: number): EvidenceUpload[] =>
    Array.from({ length: count }, (_, index) => ({ name: `file-${index}.pdf`, bytes: uniquePdf(byteSize) }));

  const claimFields = (plan: Plan, reason: string) => ({
    referenceNumber: plan.referenceNumber,
    reason,
    occurredAt: new Date(t.clock.now).toISOString(),
    description: "It arrived broken.",
  });

  async function file(token: string, plan: Plan, reason: string, files: EvidenceUpload[]): Promise<ApiResponse> {
    return postForm(t.baseUrl, token, "/portal/claims", claimFields(plan, reason), files);
  }

  const message = (token: string, claimId: string, files: EvidenceUpload[]) =>
    postForm(t.baseUrl, token, `/portal/claims/${claimId}/messages`, { message: "More photos." }, files);

  /** Files a claim with 5 files and adds messages of 5 until it holds `count` files; the claim's id. */
  async function claimWithFiles(token: string, plan: Plan, reason: string, count: number): Promise<string> {
    const filed = await file(token, plan, reason, pdfs(Math.min(count, 5)));
    assert.equal(filed.status, 200, filed.text);
    for (let held = Math.min(count, 5); held < count; held += 5) {
      const added = await message(token, filed.body.id, pdfs(Math.min(count - held, 5)));
      assert.equal(added.status, 200, added.text);
    }
    return filed.body.id;
  }

  /** Runs a request that must be refused: no row changes (but its stored 4xx) and no evidence file appears. */
  async function leavesNoTrace(request: () => Promise<ApiResponse>): Promise<ApiResponse> {
    const files = await filesUnder(t.evidenceDir);
    const response = await assertChangesNothing(t.database.db, request, 1);
    assert.deepEqual(await filesUnder(t.evidenceDir), files, "evidence files");
    return response;
  }

  const evidenceOfClaim = async (claimId: string) =>
    Number(
      (await t.database.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM claim_evidence WHERE claim_id = ?", [
        claimId,
      ]))!.n,
    );

  it("publishes the quotas it enforces", () => {
    assert.deepEqual(EVIDENCE_QUOTAS, {
      claim: { maxFiles: 20, maxBytes: 50 * MiB },
      plan: { maxFiles: 40, maxBytes: 100 * MiB },
      session: { maxFiles: 20, maxBytes: 50 * MiB },
    });
  });

  it("a claim holds 20 files: the 21st is 409 evidence_quota_exceeded from any session, and nothing is stored", async () => {
    const plan = await protectForBuyer(t);
    const claimId = await claimWithFiles(await session(plan), plan, REASONS[0], 20);
    const other = await session(plan);
    const refused = await leavesNoTrace(() => message(other, claimId, pdfs(1)));
    assertError(refused, { status: 409, code: "evidence_quota_exceeded", param: "evidence" });
    assert.match(
      refused.body.error.message,
      /^A claim may hold at most 20 evidence files and 50 MiB; this one holds 20/,
    );
    // Words without files still reach the claim.
    assert.equal((await message(other, claimId, [])).status, 200);
    assert.equal(await evidenceOfClaim(claimId), 20);
  });

  it("a claim holds 50 MiB: exactly 50 MiB is accepted, one more file is refused; the plan has room still", async () => {
    const plan = await protectForBuyer(t);
    const filed = await file(await session(plan), plan, REASONS[0], pdfs(5, 10 * MiB));
    assert.equal(filed.status, 200, filed.text);
    const other = await session(plan);
    const refused = await leavesNoTrace(() => message(other, filed.body.id, pdfs(1, 24)));
    assertError(refused, { status: 409, code: "evidence_quota_exceeded", param: "evidence" });
    assert.match(refused.body.error.message, /this one holds 5 \(52428800 bytes\) and these would add 1 \(24 bytes\)/);
    assert.equal((await file(other, plan, REASONS[1], pdfs(1, 24))).status, 200, "another claim of the plan");
  });

  it("a plan holds 40 files across its claims and sessions; a filing past it is refused whole", async () => {
    const plan = await protectForBuyer(t);
    await claimWithFiles(await session(plan), plan, REASONS[0], 20);
    const second = await session(plan);
    const secondClaim = await claimWithFiles(second, plan, REASONS[1], 20);
    const third = await session(plan);
    const refused = await leavesNoTrace(() => file(third, plan, REASONS[2], pdfs(1)));
    assertError(refused, { status: 409, code: "evidence_quota_exceeded", param: "evidence" });
    assert.match(refused.body.error.message, /^A plan may hold at most 40 evidence files/);
    assert.equal((await file(third, plan, REASONS[2], [])).status, 200, "the same filing without files");
    assertError(await leavesNoTrace(() => message(third, secondClaim, pdfs(1))), {
      status: 409,
      code: "evidence_quota_exceeded",
    });
  });

  it("a portal session stores 20 files across the plan's claims; a new session may store more", async () => {
    const plan = await protectForBuyer(t);
    const token = await session(plan);
    for (const reason of REASONS.slice(0, 4)) await claimWithFiles(token, plan, reason, 5);
    const refused = await leavesNoTrace(() => file(token, plan, REASONS[4], pdfs(1)));
    assertError(refused, { status: 409, code: "evidence_quota_exceeded", param: "evidence" });
    assert.match(refused.body.error.message, /^A portal session may hold at most 20 evidence files/);
    assert.equal((await file(await session(plan), plan, REASONS[4], pdfs(1))).status, 200);
  });

  it("concurrent uploads cannot together pass a claim's or a plan's quota", async () => {
    // A claim with room for 5 more files, and four sessions sending 5 each at once: exactly one gets in.
    const plan = await protectForBuyer(t);
    const claimId = await claimWithFiles(await session(plan), plan, REASONS[0], 15);
    const racers = await Promise.all([1, 2, 3, 4].map(() => session(plan)));
    const raced = await Promise.all(racers.map((token) => message(token, claimId, pdfs(5))));
    assert.deepEqual(raced.map((response) => response.status).sort(), [200, 409, 409, 409], raced[0].text);
    assert.equal(await evidenceOfClaim(claimId), 20);

    // A plan with room for 5 more files, and messages of 5 on three of its claims at once: exactly one gets in.
    const full = await protectForBuyer(t);
    await claimWithFiles(await session(full), full, REASONS[0], 20);
    const claims: { token: string; claimId: string }[] = [];
    for (const reason of REASONS.slice(1, 4)) {
      const token = await session(full);
      claims.push({ token, claimId: await claimWithFiles(token, full, reason, 5) });
    }
    const before = await filesUnder(t.evidenceDir);
    const messages = await Promise.all(claims.map(({ token, claimId: id }) => message(token, id, pdfs(5))));
    assert.deepEqual(messages.map((response) => response.status).sort(), [200, 409, 409]);
    const onPlan = await t.database.db.get<{ n: number }>(
      "SELECT COUNT(*) AS n FROM claim_evidence e JOIN claims c ON c.id = e.claim_id WHERE c.plan_id = ?",
      [full.planId],
    );
    assert.equal(Number(onPlan!.n), 40);
    assert.equal((await filesUnder(t.evidenceDir)).length, before.length + 5, "only the admitted files are stored");
  });

  it("a refused filing or message stores none of its files, whichever rule refuses it", async () => {
    const plan = await protectForBuyer(t);
    const token = await session(plan);
    const open = await file(token, plan, REASONS[0], pdfs(1));
    assert.equal(open.status, 200, open.text);
    const refusals: [() => Promise<ApiResponse>, number, string][] = [
      [() => file(token, plan, "not_a_reason", pdfs(3)), 422, "reason_not_covered"],
      [() => file(token, plan, REASONS[0], pdfs(3)), 409, "claim_already_open"],
      [
        () =>
          postForm(
            t.baseUrl,
            token,
            "/portal/claims",
            { ...claimFields(plan, REASONS[1]), amountCents: "99999999" },
            pdfs(2),
          ),
        422,
        "amount_exceeds_remaining",
      ],
      [() => message(token, "clm_unknown", pdfs(2)), 404, "resource_missing"],
    ];
    for (const [request, status, code] of refusals) assertError(await leavesNoTrace(request), { status, code });

    // A closed claim and a plan no longer active refuse their files too.
    await t.database.db.run("UPDATE claims SET status = 'denied', open_slot = NULL WHERE id = ?", [open.body.id]);
    assertError(await leavesNoTrace(() => message(token, open.body.id, pdfs(2))), {
      status: 409,
      code: "claim_closed",
    });
    await t.database.db.run("UPDATE plans SET status = 'voided' WHERE id = ?", [plan.planId]);
    assertError(await leavesNoTrace(() => file(token, plan, REASONS[2], pdfs(2))), {
      status: 409,
      code: "plan_not_active",
    });
  });

  it("a filing sent again under its key stores its files once and leaves nothing staged", async () => {
    const plan = await protectForBuyer(t);
    const token = await session(plan);
    const before = await filesUnder(t.evidenceDir);
    const form = new FormData();
    for (const [name, value] of Object.entries(claimFields(plan, REASONS[0]))) form.append(name, value);
    for (const { name, bytes } of pdfs(2)) form.append("evidence", new Blob([bytes as Uint8Array<ArrayBuffer>]), name);
    // The same bytes (the same boundary) twice: the second is the stored answer.
    const request = new Request(`${t.baseUrl}/portal/claims`, { method: "POST", body: form });
    const body = await request.arrayBuffer();
    const headers = {
      Authorization: `Bearer ${token}`,
      "Idempotency-Key": `quota-replay-${plan.planId}`,
      "Content-Type": request.headers.get("content-type")!,
    };
    const first = await fetch(`${t.baseUrl}/portal/claims`, { method: "POST", headers, body });
    const again = await fetch(`${t.baseUrl}/portal/claims`, { method: "POST", headers, body });
    assert.equal(first.status, 200, await first.text());
    assert.equal(again.headers.get("idempotent-replayed"), "true");
    await again.arrayBuffer();
    const added = (await filesUnder(t.evidenceDir)).filter((name) => !before.includes(name));
    assert.equal(added.length, 2);
    assert.ok(
      added.every((name) => !name.startsWith(".staging")),
      added.join(),
    );
  });
});
