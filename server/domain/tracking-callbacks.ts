// A tracking aggregator's signed callbacks (docs/api.md "Tracking callbacks"): AfterShip's tracking webhooks, chosen
// because both their body and their signature are publicly documented (17TRACK's and TrackingMore's are too, but sign
// a timestamp rather than the body, or not at all). From AfterShip's documentation:
// - the signature (https://www.aftership.com/docs/tracking/webhook/webhook-signature): each request carries an
//   `aftership-hmac-sha256` header, the base64 HMAC-SHA256 of the request body with the account's webhook secret;
// - the body (https://www.aftership.com/docs/tracking/2025-01/webhook/webhook-specifications): `{event, event_id,
//   is_tracking_first_tag, msg, ts}`, `event` one of tracking_update, edd_revise, tracking_pending_time, `msg` the
//   tracking (tracking_number, slug, tag, subtag, checkpoints: [{checkpoint_time, created_at, tag, subtag, message,
//   location, …}], …);
// - the statuses (https://www.aftership.com/docs/tracking/enum/delivery-statuses) and sub-statuses
//   (https://www.aftership.com/docs/tracking/enum/delivery-sub-statuses) every checkpoint is tagged with.
// A merchant connects its AfterShip account by giving the service that secret (sealed at rest). A callback whose
// signature checks finds the merchant's shipments of its tracking number and carrier and hands each checkpoint to
// recordScan, as the API and the Shopify app do: states, the order's delivery, claim rules and withdrawals follow.
import { createHmac, timingSafeEqual } from "node:crypto";
import { iso, type Services, type Tx } from "./context.ts";
import type { Actor } from "../vocabulary/actors.ts";
import type { Mode } from "../vocabulary/ids.ts";
import type { ShipmentEventStatus } from "../vocabulary/deliveries.ts";
import type { Sealer } from "../secrets/sealer.ts";
import { recordScan, SCAN_CLOCK_SKEW_MS, type ScanReport } from "./shipments.ts";
import { findShipmentsByTrackingNumber, listShipmentEvents, lockShipmentOrder } from "../store/shipments.ts";
import { findTrackingConnection, upsertTrackingConnection } from "../store/tracking-connections.ts";

/** The header AfterShip signs its tracking webhooks in (HTTP header names are case-insensitive). */
export const AFTERSHIP_SIGNATURE_HEADER = "aftership-hmac-sha256";

/** The signature AfterShip sends with `body`: base64 of its HMAC-SHA256 under the webhook secret. */
export const aftershipSignature = (secret: string, body: Uint8Array): string =>
  createHmac("sha256", secret).update(body).digest("base64");

/** The presented signature is the body's under the secret; compared in constant time over the raw bytes. */
export function aftershipSignatureMatches(secret: string, body: Uint8Array, presented: string | undefined): boolean {
  if (presented === undefined) return false;
  const expected = Buffer.from(aftershipSignature(secret, body));
  const given = Buffer.from(presented.trim());
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** What a checkpoint of a callback says, as the adapter reads it. */
export interface AftershipCheckpoint {
  /** The carrier's time, in the checkpoint's own time zone: with an offset, without, or a bare day. */
  checkpointTime: string | null;
  /** When AfterShip added the checkpoint (UTC, with an offset). */
  createdAt: string | null;
  tag: string | null;
  subtag: string | null;
  message: string | null;
  location: string | null;
}

/** A tracking webhook's body, as the adapter reads it. */
export interface AftershipCallback {
  event: string;
  trackingNumber: string | null;
  slug: string | null;
  checkpoints: AftershipCheckpoint[];
}

/**
 * The delivery statuses (tags) that are a carrier's scan, and the scan's status. Pending, InfoReceived (the carrier
 * has the label, not the parcel) and Expired (AfterShip found nothing for 30 days) are none: the shipment stays
 * pending and stalls from its report. AvailableForPickup is AfterShip's own "ready to pickup" side of
 * OutForDelivery; an Exception is a failure unless its sub-status says otherwise (EXCEPTION_SUBTAGS).
 */
const TAG_STATUS: Record<string, ShipmentEventStatus> = {
  InTransit: "in_transit",
  OutForDelivery: "out_for_delivery",
  AvailableForPickup: "out_for_delivery",
  AttemptFail: "attempted_delivery",
  Delivered: "delivered",
  Exception: "failure",
};

/**
 * The exceptions that are not a failed delivery: delays and holds the parcel comes through (customs, external
 * factors, held for payment, processing, weather, documents, a late flight), a pickup missed (the parcel waits), and
 * the parcel going or gone back to the sender.
 */
const EXCEPTION_SUBTAGS: Record<string, ShipmentEventStatus> = {
  Exception_004: "delayed",
  Exception_005: "delayed",
  Exception_006: "delayed",
  Exception_016: "delayed",
  Exception_017: "delayed",
  Exception_018: "delayed",
  Exception_019: "delayed",
  Exception_008: "attempted_delivery",
  Exception_010: "returned_to_sender",
  Exception_011: "returned_to_sender",
};

/** The scan status a checkpoint's tag and subtag say, or null when it is no scan of the parcel. */
export function scanStatusOf(tag: string | null, subtag: string | null): ShipmentEventStatus | null {
  if (tag === "Exception" && subtag !== null && subtag in EXCEPTION_SUBTAGS) return EXCEPTION_SUBTAGS[subtag];
  return (tag !== null && TAG_STATUS[tag]) || null;
}

const ZONED_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/;

/**
 * When the checkpoint happened: the carrier's time when it says its offset; else (a local time or a bare day, whose
 * zone AfterShip does not send) when AfterShip added it. Null when neither is a time.
 */
export function checkpointInstant(
  checkpoint: Pick<AftershipCheckpoint, "checkpointTime" | "createdAt">,
): number | null {
  for (const candidate of [checkpoint.checkpointTime, checkpoint.createdAt]) {
    if (candidate !== null && ZONED_TIME.test(candidate)) {
      const at = Date.parse(candidate);
      if (Number.isFinite(at)) return at;
    }
  }
  return null;
}

/**
 * The scans of the callback's checkpoints, in the order they happened: those that are scans and have a time, not
 * further ahead of `now` than the API takes a scan (a carrier's clock or zone gone wrong).
 */
export function scansOf(checkpoints: readonly AftershipCheckpoint[], now: number): ScanReport[] {
  return checkpoints
    .flatMap((checkpoint) => {
      const status = scanStatusOf(checkpoint.tag, checkpoint.subtag);
      const occurredAt = checkpointInstant(checkpoint);
      if (status === null || occurredAt === null || occurredAt > now + SCAN_CLOCK_SKEW_MS) return [];
      return [
        { status, occurredAt, location: oneLine(checkpoint.location, 200), message: oneLine(checkpoint.message, 500) },
      ];
    })
    .sort((a, b) => a.occurredAt - b.occurredAt);
}

/** A carrier's text as the API would take it: one printable line within the API's limit, or null. */
function oneLine(text: string | null, max: number): string | null {
  const line = (text ?? "").replace(/[\p{C}\p{Zl}\p{Zp}]+/gu, " ").trim();
  return line === "" ? null : line.slice(0, max);
}

/** A carrier's name or AfterShip's slug for it, compared without case, spaces or punctuation ("Royal Mail", "royal-mail"). */
const carrierKey = (carrier: string) => carrier.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");

export interface TrackingConnectionView {
  object: "tracking_connection";
  provider: "aftership";
  /** Where AfterShip is to send the merchant's callbacks of this mode (relative to the API's host). */
  callbackPath: string;
  createdAt: string;
  updatedAt: string;
  livemode: boolean;
}

export interface TrackingCallbackReceipt {
  object: "tracking_callback";
  event: string;
  /** The merchant's shipments of the callback's tracking number and carrier (none: nothing was recorded). */
  shipmentIds: string[];
  /** The scans new to those shipments (a checkpoint already recorded is not counted again). */
  scansRecorded: number;
}

export const aftershipCallbackPath = (actor: Actor) => `/api/v1/tracking/aftership/${actor.merchantId}/${actor.mode}`;

/**
 * POST /tracking/aftership: the merchant's AfterShip webhook secret for the key's mode, kept sealed; set again, it
 * replaces the old one (a secret rotated at AfterShip).
 */
export async function connectAftership(
  tx: Tx,
  services: Services,
  sealer: Sealer,
  actor: Actor,
  secret: string,
): Promise<TrackingConnectionView> {
  await upsertTrackingConnection(tx, actor, "aftership", sealer.seal(secret), services.clock());
  const connection = (await findTrackingConnection(tx, actor, "aftership"))!;
  return {
    object: "tracking_connection",
    provider: "aftership",
    callbackPath: aftershipCallbackPath(actor),
    createdAt: iso(connection.createdAt),
    updatedAt: iso(connection.updatedAt),
    livemode: actor.mode === "live",
  };
}

/**
 * Whose callback this is: the merchant and mode of its URL when the merchant connected AfterShip there and the
 * signature is the body's under that secret; else undefined (an unknown merchant or mode is not told apart).
 */
export async function authenticateAftershipCallback(
  db: Tx,
  sealer: Sealer,
  merchantId: string,
  mode: string,
  body: Uint8Array,
  signature: string | undefined,
): Promise<Actor | undefined> {
  if (mode !== "test" && mode !== "live") return undefined;
  const actor = { merchantId, mode: mode as Mode };
  const connection = await findTrackingConnection(db, actor, "aftership");
  if (!connection) return undefined;
  return aftershipSignatureMatches(sealer.open(connection.secretSealed), body, signature) ? actor : undefined;
}

/**
 * POST /tracking/aftership/{merchantId}/{mode}: records the callback's checkpoints as scans of each of the merchant's
 * shipments of that tracking number whose carrier is the slug's (or not named). Another event, a tracking the merchant
 * did not report, a checkpoint that is no scan: nothing recorded, and still an answer AfterShip takes as delivered —
 * an error would have it retry the same body for days.
 */
export async function receiveAftershipCallback(
  tx: Tx,
  services: Services,
  actor: Actor,
  callback: AftershipCallback,
): Promise<TrackingCallbackReceipt> {
  const receipt: TrackingCallbackReceipt = {
    object: "tracking_callback",
    event: callback.event,
    shipmentIds: [],
    scansRecorded: 0,
  };
  if (callback.event !== "tracking_update" || !callback.trackingNumber) return receipt;
  const slug = callback.slug;
  const shipments = (await findShipmentsByTrackingNumber(tx, actor, callback.trackingNumber)).filter(
    (shipment) => shipment.carrier === null || !slug || carrierKey(shipment.carrier) === carrierKey(slug),
  );
  const scans = scansOf(callback.checkpoints, services.clock());
  for (const found of shipments) {
    await lockShipmentOrder(tx, found.orderRowId);
    const before = (await listShipmentEvents(tx, [found.id])).length;
    let shipment = found;
    for (const scan of scans) shipment = await recordScan(tx, services, actor, shipment, scan);
    receipt.shipmentIds.push(found.id);
    receipt.scansRecorded += (await listShipmentEvents(tx, [found.id])).length - before;
  }
  return receipt;
}
