// Buyer e-mail addresses at rest (quotes, plans, email_messages): sealed (AES-256-GCM, as secrets are; only the e-mail
// worker opens them, to send) beside a keyed hash of the normalised address for what finds rows by address: privacy
// requests, the per-recipient e-mail cap and the buyer portal's lookup (e-mail + reference number → plan).
import type { Sealer } from "../secrets/sealer.ts";
import type { Database } from "../store/database.ts";
import { BUYER_EMAIL_TABLES, listClearBuyerEmails, sealClearBuyerEmail } from "../store/emails.ts";

export interface StoredEmail {
  sealed: string;
  hash: string;
}

/** Case and surrounding space do not make a new address: the one rule for lookups, caps and rate limits by address. */
export const normaliseEmail = (address: string) => address.trim().toLowerCase();

/** The lookup hash of an address: HMAC-SHA256 of its normalised form under the sealer's hash key. */
export const buyerEmailHash = (sealer: Sealer, address: string): string => sealer.hash(normaliseEmail(address));

export const storeBuyerEmail = (sealer: Sealer, address: string): StoredEmail => ({
  sealed: sealer.seal(address),
  hash: buyerEmailHash(sealer, address),
});

const BATCH = 500;

/**
 * Seals and hashes the addresses still in clear (rows written before the columns were sealed: see
 * listClearBuyerEmails). Runs at start; several processes may run it at once (each update applies only to a value
 * still in clear). Returns how many values it sealed.
 */
export async function sealClearBuyerEmails(db: Database, sealer: Sealer): Promise<number> {
  let sealed = 0;
  for (const table of BUYER_EMAIL_TABLES) {
    for (let found = BATCH; found === BATCH;) {
      found = await db.transaction(async (tx) => {
        const rows = await listClearBuyerEmails(tx, table, BATCH);
        for (const row of rows)
          sealed += await sealClearBuyerEmail(tx, table, row.id, row.address, storeBuyerEmail(sealer, row.address));
        return rows.length;
      });
    }
  }
  return sealed;
}
