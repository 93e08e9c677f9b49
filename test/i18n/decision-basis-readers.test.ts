// One rule's decision read by each of its readers (SQLite; the words do not depend on the database): the buyer's
// portal asks for the claim in the buyer's locale and reads the basis in German with German figures; the claims
// console (getOpsClaim) and the portal API's claim (getPortalClaim without a locale) read the service's own English.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient } from "../support/client.ts";
import { protectOrder } from "../support/protection-flows.ts";
import { getPortalClaim, submitClaim } from "../../server/domain/claims.ts";
import { approveClaim } from "../../server/domain/claim-decisions.ts";
import { getOpsClaim } from "../../server/domain/ops-claims.ts";
import type { Queryable } from "../../server/store/database.ts";

const DELIVERED_AT = Date.UTC(2026, 0, 11, 15, 30);

describe("a rule's decision basis, by reader (sqlite)", () => {
  let t: TestApi;
  beforeAll(async () => {
    t = await startTestApi({ dialect: "sqlite" });
  });
  afterAll(() => t?.close());

  const tx = <T>(work: (q: Queryable) => Promise<T>) => t.database.db.transaction(work);

  it("the buyer's portal reads it in their language; the console and the API in English", async () => {
    const actor = { merchantId: t.merchant.merchantId, mode: "test" as const };
    const { confirmation } = await protectOrder(apiClient(t.baseUrl, t.merchant.publishableKey), t.merchant.programId, {
      customer_email: "buyer@example.com",
    });
    const filed = await tx((q) =>
      submitClaim(q, t.services, actor, { referenceNumber: confirmation.referenceNumber, reason: "missing_items" }),
    );
    const rule = {
      kind: "rule",
      ruleId: "auto_approve",
      basis: [
        { fact: "within_cover", amountCents: 2_550, remainingCents: 150_000 },
        { fact: "delivered", at: DELIVERED_AT },
      ],
    } as const;
    await tx((q) => approveClaim(q, t.services, actor, filed.id, rule, {}));
    assert.equal(filed.currency, "USD");

    const buyer = { ...actor, planId: filed.planId };
    const portal = await getPortalClaim(t.database.db, buyer, filed.id, "de-DE");
    assert.deepEqual(portal.decision?.basis, [
      `Sie haben 25,50\u00a0$ beantragt; das liegt im Rahmen der Deckung, die Ihr Schutz noch bietet: 1.500,00\u00a0$.`,
      "Der Versanddienstleister hat die Zustellung Ihres Pakets am 11. Januar 2026 erfasst.",
    ]);

    const english = [
      "You asked for $25.50, within the $1,500.00 your plan still covers.",
      "The carrier recorded your parcel delivered on 11 January 2026.",
    ];
    const staffView = await getOpsClaim(t.database.db, t.services, filed.id);
    assert.deepEqual(staffView.claim.decision?.basis, english);
    assert.deepEqual((await getPortalClaim(t.database.db, buyer, filed.id)).decision?.basis, english);
  });
});
