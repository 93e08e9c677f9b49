// Where a buyer's parcels go, kept only as a keyed hash (plans.shipping_address_hash): a claim's risk counts the
// buyer's other claims by it as well as by their e-mail, so a buyer who changes e-mail but ships to the same door is
// still one buyer. The address itself is never stored for this.
import type { Sealer } from "../secrets/sealer.ts";

/** The parts of a shipping address that say which door it is. */
export interface ShippingAddress {
  countryCode: string | null | undefined;
  postalCode: string | null | undefined;
  /** The first address line: the street and number. */
  line1: string | null | undefined;
}

const words = (value: string | null | undefined) => (value ?? "").toLowerCase().replace(/\s+/g, " ").trim();

/**
 * The door as one string, or null without a country or a first line. Country, postal code and the first line are
 * what stay the same between one buyer's orders to one door; the name, the second line (flat numbers typed every way),
 * the town's spelling and the phone differ or are missing, so they are left out. Case and runs of spaces are how the
 * same typed address differs, and a postal code's inner space is optional ("SW1A 1AA", "SW1A1AA"). Some countries
 * have no postal codes: it may be empty.
 */
export function normaliseShippingAddress(address: ShippingAddress): string | null {
  const country = words(address.countryCode);
  const line1 = words(address.line1);
  if (!country || !line1) return null;
  return [country, words(address.postalCode).replace(/ /g, ""), line1].join("\n");
}

/**
 * The lookup hash of an address: HMAC-SHA256 under the sealer's hash key, as buyer e-mails are (buyer-emails.ts),
 * of its normalised form behind a prefix of its own, so that no address ever hashes to an e-mail's hash.
 */
export function shippingAddressHash(sealer: Pick<Sealer, "hash">, address: ShippingAddress): string | null {
  const normalised = normaliseShippingAddress(address);
  return normalised === null ? null : sealer.hash(`shipping-address\n${normalised}`);
}
