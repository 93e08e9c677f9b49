import { describe, it } from "vitest";
import assert from "node:assert/strict";
import {
  aftershipSignature,
  aftershipSignatureMatches,
  checkpointInstant,
  scansOf,
  scanStatusOf,
  type AftershipCheckpoint,
} from "./tracking-callbacks.ts";

// AfterShip's tracking webhooks as the adapter reads them: the signature (base64 HMAC-SHA256 of the raw body with the
// webhook secret), the delivery statuses and sub-statuses as scans, and the checkpoints' times.

const encode = (text: string) => new TextEncoder().encode(text);

describe("AfterShip's signature", () => {
  // Computed apart from this code, as AfterShip's documentation says to:
  // printf '%s' "$BODY" | openssl dgst -sha256 -hmac whsec-aftership-test -binary | base64
  const body =
    '{"event":"tracking_update","event_id":"94dadd60-ed26-46d0-aa52-3ced925a50ff","msg":{"tag":"InTransit"},"ts":1712741696}';
  const signature = "kNNzDC6gWbh2Dn7Ykdmld0LK1MEyWVyeUBopS8Kj+pU=";

  it("is the base64 HMAC-SHA256 of the raw body with the webhook secret", () => {
    assert.equal(aftershipSignature("whsec-aftership-test", encode(body)), signature);
    assert.ok(aftershipSignatureMatches("whsec-aftership-test", encode(body), signature));
  });

  it("fails for another secret, another byte of the body, a missing, truncated or hex signature", () => {
    assert.ok(!aftershipSignatureMatches("another-secret", encode(body), signature));
    assert.ok(
      !aftershipSignatureMatches("whsec-aftership-test", encode(body.replace("InTransit", "Delivered")), signature),
    );
    // The same JSON with other whitespace is other bytes: what was signed is the body as sent.
    assert.ok(!aftershipSignatureMatches("whsec-aftership-test", encode(body.replace(",", ", ")), signature));
    assert.ok(!aftershipSignatureMatches("whsec-aftership-test", encode(body), undefined));
    assert.ok(!aftershipSignatureMatches("whsec-aftership-test", encode(body), ""));
    assert.ok(!aftershipSignatureMatches("whsec-aftership-test", encode(body), signature.slice(0, -1)));
    const hex = Buffer.from(signature, "base64").toString("hex");
    assert.ok(!aftershipSignatureMatches("whsec-aftership-test", encode(body), hex));
  });
});

describe("AfterShip's statuses as scans", () => {
  it("maps each delivery status to a scan, and the ones that are no scan of the parcel to none", () => {
    assert.equal(scanStatusOf("InTransit", "InTransit_001"), "in_transit");
    assert.equal(scanStatusOf("OutForDelivery", "OutForDelivery_001"), "out_for_delivery");
    assert.equal(scanStatusOf("AvailableForPickup", "AvailableForPickup_001"), "out_for_delivery");
    assert.equal(scanStatusOf("AttemptFail", "AttemptFail_001"), "attempted_delivery");
    assert.equal(scanStatusOf("Delivered", "Delivered_001"), "delivered");
    assert.equal(scanStatusOf("Exception", "Exception_001"), "failure");
    for (const tag of ["Pending", "InfoReceived", "Expired", "SomethingNew"])
      assert.equal(scanStatusOf(tag, null), null, tag);
    assert.equal(scanStatusOf(null, null), null);
  });

  it("reads an exception's sub-status: returned to sender, a delay or hold, a missed pickup, else a failure", () => {
    assert.equal(scanStatusOf("Exception", "Exception_010"), "returned_to_sender");
    assert.equal(scanStatusOf("Exception", "Exception_011"), "returned_to_sender");
    for (const subtag of ["Exception_004", "Exception_005", "Exception_006", "Exception_016", "Exception_017"])
      assert.equal(scanStatusOf("Exception", subtag), "delayed", subtag);
    assert.equal(scanStatusOf("Exception", "Exception_008"), "attempted_delivery");
    for (const subtag of ["Exception_003", "Exception_007", "Exception_012", "Exception_013", "Exception_099", null])
      assert.equal(scanStatusOf("Exception", subtag), "failure", String(subtag));
    // A sub-status decides only under its own tag.
    assert.equal(scanStatusOf("InTransit", "Exception_010"), "in_transit");
  });
});

describe("a checkpoint's time", () => {
  it("is the carrier's time when it carries its offset, else when AfterShip added the checkpoint", () => {
    assert.equal(
      checkpointInstant({ checkpointTime: "2026-11-20T08:15:00+08:00", createdAt: "2026-11-20T01:00:00+00:00" }),
      Date.parse("2026-11-20T00:15:00Z"),
    );
    assert.equal(
      checkpointInstant({ checkpointTime: "2026-11-20T08:15:00-0500", createdAt: null }),
      Date.parse("2026-11-20T13:15:00Z"),
    );
    // A local time or a bare day: its zone is unknown, so not read in the server's.
    assert.equal(
      checkpointInstant({ checkpointTime: "2026-11-20T08:15:00", createdAt: "2026-11-20T09:00:05+00:00" }),
      Date.parse("2026-11-20T09:00:05Z"),
    );
    assert.equal(
      checkpointInstant({ checkpointTime: "2026-11-20", createdAt: "2026-11-20T10:00:00Z" }),
      Date.parse("2026-11-20T10:00:00Z"),
    );
    assert.equal(checkpointInstant({ checkpointTime: "2026-11-20T08:15:00", createdAt: null }), null);
    assert.equal(checkpointInstant({ checkpointTime: "yesterday", createdAt: "soon" }), null);
  });
});

describe("a callback's scans", () => {
  const checkpoint = (over: Partial<AftershipCheckpoint>): AftershipCheckpoint => ({
    checkpointTime: null,
    createdAt: null,
    tag: null,
    subtag: null,
    message: null,
    location: null,
    ...over,
  });

  it("are its checkpoints that are scans and have a time, in time order, the carrier's text on one bounded line", () => {
    const now = Date.parse("2026-11-22T12:00:00Z");
    const scans = scansOf(
      [
        checkpoint({
          checkpointTime: "2026-11-21T09:00:00Z",
          tag: "Delivered",
          message: "Delivered,\nfront door",
          location: "x".repeat(300),
        }),
        checkpoint({ checkpointTime: "2026-11-19T09:00:00Z", tag: "InfoReceived", message: "Label created" }),
        checkpoint({ checkpointTime: "2026-11-20T09:00:00Z", tag: "InTransit", location: "  Louisville, KY  " }),
        checkpoint({ checkpointTime: "2026-11-20T10:00:00", tag: "InTransit" }),
        // Further ahead of the service's clock than the API takes a scan: the carrier's clock or zone is wrong.
        checkpoint({ checkpointTime: "2026-11-22T12:05:01Z", tag: "Delivered" }),
      ],
      now,
    );
    assert.deepEqual(scans, [
      {
        status: "in_transit",
        occurredAt: Date.parse("2026-11-20T09:00:00Z"),
        location: "Louisville, KY",
        message: null,
      },
      {
        status: "delivered",
        occurredAt: Date.parse("2026-11-21T09:00:00Z"),
        location: "x".repeat(200),
        message: "Delivered, front door",
      },
    ]);
  });
});
