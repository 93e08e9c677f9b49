import { describe, it } from "vitest";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  carrierFactsOf,
  deriveOrderDelivery,
  deriveShipmentState,
  type Scan,
  type ShipmentFacts,
} from "./delivery-states.ts";
import { SHIPMENT_EVENT_STATUSES } from "../vocabulary/deliveries.ts";

const DAY = 86_400_000;
const REPORTED = Date.UTC(2026, 10, 1, 9, 0);
const at = (days: number) => REPORTED + days * DAY;

function facts(scans: Scan[], promisedDeliveryDate: string | null = null): ShipmentFacts {
  return { ...carrierFactsOf(scans), reportedAt: REPORTED, promisedDeliveryDate };
}

const scanArb = fc.record({
  status: fc.constantFrom(...SHIPMENT_EVENT_STATUSES),
  occurredAt: fc.integer({ min: at(0), max: at(30) }),
});

describe("delivery states", () => {
  it("no scan yet: pending; the latest scan by when it happened decides, whatever order the reports came in", () => {
    assert.deepEqual(carrierFactsOf([]), { status: "pending", deliveredAt: null, lastScanAt: null });
    const delivered = carrierFactsOf([
      { status: "delivered", occurredAt: at(3) },
      { status: "in_transit", occurredAt: at(1) },
      { status: "out_for_delivery", occurredAt: at(2) },
    ]);
    assert.deepEqual(delivered, { status: "delivered", deliveredAt: at(3), lastScanAt: at(3) });
    assert.equal(carrierFactsOf([{ status: "failure", occurredAt: at(1) }]).status, "failed");
    assert.equal(carrierFactsOf([{ status: "returned_to_sender", occurredAt: at(1) }]).status, "returned_to_sender");
    assert.equal(carrierFactsOf([{ status: "delayed", occurredAt: at(1) }]).status, "in_transit");
    assert.equal(carrierFactsOf([{ status: "attempted_delivery", occurredAt: at(1) }]).status, "in_transit");
  });

  it("delivered: the first delivered scan since the last scan that said otherwise; a scan after it reopens it", () => {
    const twice = carrierFactsOf([
      { status: "delivered", occurredAt: at(2) },
      { status: "delivered", occurredAt: at(4) },
    ]);
    assert.equal(twice.deliveredAt, at(2));
    const returned = carrierFactsOf([
      { status: "delivered", occurredAt: at(2) },
      { status: "returned_to_sender", occurredAt: at(5) },
    ]);
    assert.deepEqual(returned, { status: "returned_to_sender", deliveredAt: null, lastScanAt: at(5) });
    // Same millisecond: the more final status counts as the later.
    const tie = carrierFactsOf([
      { status: "delivered", occurredAt: at(2) },
      { status: "out_for_delivery", occurredAt: at(2) },
    ]);
    assert.equal(tie.status, "delivered");
  });

  it("stalled (presumed lost) after N days without a scan, from the last scan or, never scanned, from the report", () => {
    const moving = facts([{ status: "in_transit", occurredAt: at(1) }]);
    assert.equal(deriveShipmentState(moving, at(10.9), 10).state, "in_transit");
    assert.deepEqual(deriveShipmentState(moving, at(11), 10), {
      state: "stalled",
      stalledSince: at(11),
      deliveryDeadline: null,
      overdue: false,
    });
    assert.equal(deriveShipmentState(moving, at(11), 20).state, "in_transit", "N is a setting");
    assert.equal(deriveShipmentState(facts([]), at(9.9), 10).state, "pending");
    assert.equal(deriveShipmentState(facts([]), at(10), 10).state, "stalled");
    // A parcel delivered, failed or returned never stalls.
    for (const status of ["delivered", "failure", "returned_to_sender"] as const)
      assert.notEqual(deriveShipmentState(facts([{ status, occurredAt: at(1) }]), at(40), 10).state, "stalled");
  });

  it("a new scan of a stalled parcel shows it moving again", () => {
    const stalled = [{ status: "in_transit" as const, occurredAt: at(1) }];
    assert.equal(deriveShipmentState(facts(stalled), at(12), 10).state, "stalled");
    const again = [...stalled, { status: "in_transit" as const, occurredAt: at(11.5) }];
    assert.equal(deriveShipmentState(facts(again), at(12), 10).state, "in_transit");
  });

  it("overdue: not delivered by the end of the promised UTC day + 14 days", () => {
    const deadline = Date.UTC(2026, 10, 20) + 14 * DAY; // promised 19 Nov: the end of that day + 14 days
    const promised = facts([{ status: "in_transit", occurredAt: at(1) }], "2026-11-19");
    assert.equal(deriveShipmentState(promised, deadline - 1, 99).overdue, false);
    assert.deepEqual(deriveShipmentState(promised, deadline, 99), {
      state: "in_transit",
      stalledSince: null,
      deliveryDeadline: deadline,
      overdue: true,
    });
    const inTime = facts([{ status: "delivered", occurredAt: deadline - 1 }], "2026-11-19");
    assert.equal(deriveShipmentState(inTime, deadline + DAY, 99).overdue, false);
    const late = facts([{ status: "delivered", occurredAt: deadline }], "2026-11-19");
    assert.equal(deriveShipmentState(late, deadline + DAY, 99).overdue, true, "delivered, but late");
    assert.equal(deriveShipmentState(facts([]), at(400), 10).overdue, false, "no promise, never overdue");
  });

  it("an order: not shipped without shipments; the shipment that matters most to a claim speaks for it", () => {
    assert.deepEqual(deriveOrderDelivery([]), { state: "not_shipped", deliveredAt: null, overdue: false });
    const shipment = (scans: Scan[], now = at(5)) => {
      const f = facts(scans);
      return { derived: deriveShipmentState(f, now, 10), deliveredAt: f.deliveredAt };
    };
    const deliveredEarly = shipment([{ status: "delivered", occurredAt: at(2) }]);
    const deliveredLate = shipment([{ status: "delivered", occurredAt: at(4) }]);
    assert.deepEqual(deriveOrderDelivery([deliveredEarly, deliveredLate]), {
      state: "delivered",
      deliveredAt: at(4),
      overdue: false,
    });
    const moving = shipment([{ status: "in_transit", occurredAt: at(3) }]);
    assert.equal(deriveOrderDelivery([deliveredEarly, moving]).state, "in_transit");
    assert.equal(deriveOrderDelivery([deliveredEarly, moving]).deliveredAt, null);
    const lost = shipment([{ status: "in_transit", occurredAt: at(1) }], at(20));
    assert.equal(deriveOrderDelivery([deliveredEarly, moving, lost]).state, "stalled");
    const failed = shipment([{ status: "failure", occurredAt: at(1) }]);
    assert.equal(deriveOrderDelivery([lost, failed]).state, "failed");
    const returned = shipment([{ status: "returned_to_sender", occurredAt: at(1) }]);
    assert.equal(deriveOrderDelivery([failed, returned, deliveredEarly]).state, "returned_to_sender");
  });

  it("properties: the reports' order and repetition change nothing", () => {
    fc.assert(
      fc.property(fc.array(scanArb, { maxLength: 12 }), fc.integer({ min: 0, max: 11 }), (scans, seed) => {
        const expected = carrierFactsOf(scans);
        const shuffled = [...scans].sort(
          (a, b) => ((a.occurredAt * 31 + seed) % 97) - ((b.occurredAt * 31 + seed) % 97),
        );
        assert.deepEqual(carrierFactsOf(shuffled), expected);
        assert.deepEqual(carrierFactsOf([...scans, ...scans.slice(0, seed)]), expected);
      }),
    );
  });

  it("properties: stalled exactly when moving and the last scan is N days old; delivered has a time and no stall", () => {
    fc.assert(
      fc.property(
        fc.array(scanArb, { maxLength: 12 }),
        fc.integer({ min: at(0), max: at(60) }),
        fc.integer({ min: 1, max: 30 }),
        (scans, now, days) => {
          const f = facts(scans);
          const derived = deriveShipmentState(f, now, days);
          const moving = f.status === "pending" || f.status === "in_transit";
          const quietSince = f.lastScanAt ?? f.reportedAt;
          assert.equal(derived.state === "stalled", moving && now - quietSince >= days * DAY);
          assert.equal(f.deliveredAt !== null, f.status === "delivered");
          if (derived.state !== "stalled") assert.equal(derived.state, f.status);
        },
      ),
    );
  });
});
