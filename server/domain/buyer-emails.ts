// Buyer e-mail addresses at rest (quotes, plans, email_messages): sealed (AES-256-GCM, as secrets are; only the e-mail
// worker opens them, to send) beside a keyed hash of the normalised address for what finds rows by address: privacy
// requests, the per-recipient e-mail cap and the buyer portal's lookup (e-mail + reference number → plan).
import type { Sealer } from "../secrets/sealer.ts";
import type { Database } from "../store/database.ts";

export interface StoredEmail {
  sealed: string;
  hash: string;
}

/** Case and surrounding space do not make a new address: the one rule for lookups, caps and rate limits by address. */
export const normaliseEmail = (address: string) => address.trim().toLowerCase();

/** The lookup hash of an address: HMAC-SHA256 of its normalised form under the sealer's hash key. */
export const buyerEmailHash = (sealer: Sealer, address: string): string => sealer.hash(normaliseEmail(address));

export const storeBuyerEmail = (sealer: Sealer, address: string): StoredEmail => ({ sealed: sealer.seal(address), hash: buyerEmailHash(sealer, address) });

/** [table, sealed column, hash column] of every column that holds a buyer's address. */
const EMAIL_COLUMNS = [
  ["quotes", "customer_email_sealed", "customer_email_hash"],
  ["plans", "customer_email_sealed", "customer_email_hash"],
  ["email_messages", "recipient_sealed", "recipient_hash"],
] as const;

const BATCH = 500;

/**
 * Seals and hashes the addresses still in clear: rows written before migration 20261123120000_seal_buyer_emails,
 * which renamed the columns but cannot seal without the key. Every address holds an '@' and no sealed box does. Runs
 * at start; several processes may run it at once (each update applies only to a value still in clear). Returns how
 * many values it sealed.
 */
export async function sealClearBuyerEmails(db: Database, sealer: Sealer): Promise<number> {
  let sealed = 0;
  for (const [table, column, hashColumn] of EMAIL_COLUMNS) {
    for (let found = BATCH; found === BATCH; ) {
      found = await db.transaction(async (tx) => {
        const rows = await tx.all<{ id: string; address: string }>(`SELECT id, ${column} AS address FROM ${table} WHERE ${column} LIKE '%@%' LIMIT ${BATCH}`);
        for (const row of rows) {
          const stored = storeBuyerEmail(sealer, row.address);
          sealed += await tx.run(`UPDATE ${table} SET ${column} = ?, ${hashColumn} = ? WHERE id = ? AND ${column} = ?`, [stored.sealed, stored.hash, row.id, row.address]);
        }
        return rows.length;
      });
    }
  }
  return sealed;
}
