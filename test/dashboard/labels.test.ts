// The dashboard's words for the core's codes (app/dashboard/labels.ts): every claim status the core has reads as
// words, never as its code; the ones a merchant acts on say who the claim waits for.
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { CLAIM_STATUSES, MERCHANT_AUDIT_ACTIONS } from "../../server/index.ts";
import {
  auditActionLabel,
  claimStatusLabel,
  deliveryOutcomeLabel,
  endpointStatusLabel,
  purchaseStatusLabel,
  reasonLabel,
} from "../../app/dashboard/labels.ts";
import { REASON_NAMES } from "../../app/dashboard/reason-names.server.ts";

describe("the dashboard's words for codes", () => {
  it("names every claim status in words, never its code", () => {
    for (const status of CLAIM_STATUSES) {
      const words = claimStatusLabel(status);
      assert.doesNotMatch(words, /_/, status);
      assert.notEqual(words, status, status);
    }
    assert.equal(claimStatusLabel("needs_information"), "Waiting for the buyer");
    assert.equal(claimStatusLabel("under_review"), "Being reviewed");
  });

  it("names every audit log action in words, never its code", () => {
    for (const action of MERCHANT_AUDIT_ACTIONS) {
      const words = auditActionLabel(action);
      assert.doesNotMatch(words, /[._]/, action);
    }
    assert.equal(auditActionLabel("merchant.went_live"), "Went live");
  });

  it("names covered reasons by the rulebook's names, purchases, endpoints and deliveries in words", () => {
    assert.equal(
      reasonLabel(REASON_NAMES, "not_delivered_by_promised_date_plus_14_days"),
      "Not delivered within 14 days of the promised date",
    );
    assert.equal(reasonLabel(REASON_NAMES, "some_new_reason"), "some new reason", "an unknown code still reads");
    assert.equal(purchaseStatusLabel("cancelled"), "Cancelled by the buyer");
    assert.equal(purchaseStatusLabel("voided", "merchant_refunded"), "Refunded by you");
    assert.equal(endpointStatusLabel("disabled"), "Paused");
    assert.equal(deliveryOutcomeLabel("succeeded"), "Delivered");
  });
});
