import type { Database, Queryable } from "../store/database.ts";
import type { Services } from "../domain/context.ts";
import { insertDeliveries } from "../domain/webhook-deliveries.ts";
import { subscribes } from "../domain/webhook-endpoints.ts";

// Turns outbox events into deliveries: one per endpoint of the event's merchant and mode that subscribes to its type
// and existed when the event was written. The watermark (last fanned-out seq) and the delivery rows commit in one
// transaction, so a crash repeats or loses nothing. On PostgreSQL, sequence values are taken at insert but become
// visible at commit, so a lower seq can appear after a higher one: the watermark stops at such a gap and waits for
// it to fill, skipping it only when it is still empty after `gapGraceMs` (a rolled-back transaction leaves a gap forever).

const WATERMARK = "events";

export interface FanOutOptions {
  batchSize: number;
  gapGraceMs: number;
  /** Wall clock for the gap grace (not the service clock: tests freeze that one). */
  wallClock?: () => number;
}

interface OutboxRow {
  seq: number;
  id: string;
  merchant_id: string;
  mode: string;
  type: string;
  created_at: number;
}

export function createFanOut(db: Database, services: Pick<Services, "clock" | "random">, options: FanOutOptions) {
  const wallClock = options.wallClock ?? Date.now;
  const gaps = new Map<number, number>();
  let known = -1;

  /** Fans out the next batch; resolves to how many events it fanned out. */
  async function fanOut(): Promise<number> {
    // A cheap read first: most polls find nothing new and need no write transaction. ORDER BY keeps it an index seek
    // even under a generic (prepared) plan, which cannot know the watermark is near the end of the table.
    if (known >= 0 && !(await db.get("SELECT seq FROM events WHERE seq > ? ORDER BY seq LIMIT 1", [known]))) return 0;
    return db.transaction(async (tx) => {
      const lock = tx.dialect === "postgres" ? " FOR UPDATE SKIP LOCKED" : "";
      let mark = await tx.get<{ last_seq: number }>(`SELECT last_seq FROM webhook_fanout WHERE name = ?${lock}`, [WATERMARK]);
      if (!mark) {
        await tx.run("INSERT INTO webhook_fanout (name, last_seq) VALUES (?, 0) ON CONFLICT DO NOTHING", [WATERMARK]);
        mark = await tx.get<{ last_seq: number }>(`SELECT last_seq FROM webhook_fanout WHERE name = ?${lock}`, [WATERMARK]);
        if (!mark) return 0; // another worker holds it
      }
      const events = await tx.all<OutboxRow>("SELECT seq, id, merchant_id, mode, type, created_at FROM events WHERE seq > ? ORDER BY seq LIMIT ?", [
        mark.last_seq, options.batchSize,
      ]);
      let last = mark.last_seq;
      const endpoints = endpointCache(tx);
      const queued: { endpointId: string; event: OutboxRow }[] = [];
      for (const event of events) {
        if (event.seq !== last + 1 && !gapExpired(last + 1)) break;
        for (const endpoint of await endpoints(event.merchant_id, event.mode)) {
          if (endpoint.created_at <= event.created_at && subscribes(endpoint.events, event.type)) queued.push({ endpointId: endpoint.id, event });
        }
        last = event.seq;
      }
      await insertDeliveries(tx, services, queued);
      if (last !== mark.last_seq) await tx.run("UPDATE webhook_fanout SET last_seq = ? WHERE name = ?", [last, WATERMARK]);
      known = last;
      return events.filter((event) => event.seq <= last).length;
    });
  }

  function gapExpired(missing: number): boolean {
    const seen = gaps.get(missing);
    if (seen === undefined) {
      gaps.set(missing, wallClock());
      return false;
    }
    if (wallClock() - seen < options.gapGraceMs) return false;
    gaps.delete(missing);
    return true;
  }

  return { fanOut };
}

/** The not-disabled endpoints of a merchant and mode, read once per batch. */
function endpointCache(tx: Queryable) {
  const cache = new Map<string, Promise<{ id: string; events: string; created_at: number }[]>>();
  return (merchantId: string, mode: string) => {
    const key = `${merchantId}\u0000${mode}`;
    let rows = cache.get(key);
    if (!rows) {
      rows = tx.all("SELECT id, events, created_at FROM webhook_endpoints WHERE merchant_id = ? AND mode = ? AND status <> 'disabled' ORDER BY id", [merchantId, mode]);
      cache.set(key, rows);
    }
    return rows;
  };
}
