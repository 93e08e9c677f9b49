// Merchants' connections to a tracking aggregator (tracking_connections; server/domain/tracking-callbacks.ts has the
// rules): one per merchant, mode and provider, its webhook secret sealed.
import type { Actor } from "../vocabulary/actors.ts";
import type { Queryable } from "./database.ts";

/** The providers whose callbacks the service takes. */
export type TrackingProvider = "aftership";

export interface TrackingConnectionRecord {
  provider: TrackingProvider;
  secretSealed: string;
  createdAt: number;
  updatedAt: number;
}

export async function findTrackingConnection(
  tx: Queryable,
  owner: Actor,
  provider: TrackingProvider,
): Promise<TrackingConnectionRecord | undefined> {
  const row = await tx.get<{ secret_sealed: string; created_at: number | string; updated_at: number | string }>(
    "SELECT secret_sealed, created_at, updated_at FROM tracking_connections WHERE merchant_id = ? AND mode = ? AND provider = ?",
    [owner.merchantId, owner.mode, provider],
  );
  return (
    row && {
      provider,
      secretSealed: row.secret_sealed,
      createdAt: Number(row.created_at),
      updatedAt: Number(row.updated_at),
    }
  );
}

/** Sets the connection's secret: the first time it is made, later it is replaced. */
export async function upsertTrackingConnection(
  tx: Queryable,
  owner: Actor,
  provider: TrackingProvider,
  secretSealed: string,
  at: number,
): Promise<void> {
  await tx.run(
    `INSERT INTO tracking_connections (merchant_id, mode, provider, secret_sealed, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (merchant_id, mode, provider) DO UPDATE SET secret_sealed = excluded.secret_sealed,
       updated_at = excluded.updated_at`,
    [owner.merchantId, owner.mode, provider, secretSealed, at, at],
  );
}

/** False when there was none. */
export async function deleteTrackingConnection(
  tx: Queryable,
  owner: Actor,
  provider: TrackingProvider,
): Promise<boolean> {
  const deleted = await tx.all(
    "DELETE FROM tracking_connections WHERE merchant_id = ? AND mode = ? AND provider = ? RETURNING provider",
    [owner.merchantId, owner.mode, provider],
  );
  return deleted.length === 1;
}
