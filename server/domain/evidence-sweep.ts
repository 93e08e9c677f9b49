// Evidence bytes live in a content-addressed store beside the database, so no transaction removes them: erasing a
// merchant or redacting a buyer deletes only the rows, and a request that kept its files and then failed (a crash, a
// failed commit; a refused one keeps none) leaves them unnamed. The periodic purge (server/api.ts) calls this sweep
// to delete the bytes no claim_evidence row names any more, and staged bytes a crashed request never kept.
import type { Database } from "../store/database.ts";
import { findNamedEvidence } from "../store/claims.ts";
import type { EvidenceStore } from "../evidence/index.ts";

/**
 * Bytes put within this window are kept even when no row names them yet: the request that stored them may still be
 * about to commit its rows (a put of bytes already stored renews their time, see filesystemEvidenceStore).
 */
export const EVIDENCE_SWEEP_GRACE_MS = 60 * 60 * 1000;
const BATCH = 500;

/**
 * Deletes the stored evidence that no row names and the staged bytes neither kept nor discarded, both older than the
 * grace window; resolves to how many.
 */
export async function sweepUnnamedEvidence(
  db: Database,
  store: EvidenceStore,
  now: number,
  graceMs = EVIDENCE_SWEEP_GRACE_MS,
): Promise<number> {
  let deleted = await store.discardStaleStaged(now - graceMs);
  let batch: string[] = [];
  const sweep = async () => {
    const named = await findNamedEvidence(db, batch);
    for (const sha256 of batch.filter((candidate) => !named.has(candidate))) {
      await store.delete(sha256);
      deleted++;
    }
    batch = [];
  };
  for await (const stored of store.list()) {
    if (now - stored.storedAt < graceMs) continue;
    batch.push(stored.sha256);
    if (batch.length === BATCH) await sweep();
  }
  if (batch.length > 0) await sweep();
  return deleted;
}
