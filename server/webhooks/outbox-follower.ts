import type { Database, Queryable } from "../store/database.ts";
import { hasEventsAfter, listEventsAfter, type OutboxEntry } from "../store/events.ts";
import { lockFanOutWatermark, saveFanOutWatermark } from "../store/webhook-deliveries.ts";

// Reads the outbox in seq order behind a named watermark (webhook_fanout.name): each batch of events is handed to
// `take` in the transaction that moves the watermark past it, so what `take` writes and the watermark commit
// together and a crash repeats or loses nothing. On PostgreSQL, sequence values are taken at insert but become
// visible at commit, so a lower seq can appear after a higher one: the watermark stops at such a gap and waits for it
// to fill, skipping it only when it is still empty after `gapGraceMs` (a rolled-back transaction leaves a gap forever).
// The webhook fan-out (fanout.ts) and the Shopify app's order follow-ups (app/shopify/order-events.server.ts) each
// follow the outbox under their own name; a watermark seen the first time starts at 0 (a migration that adds a
// follower to a running service inserts its row at the last event, so that the history is not taken).

export interface OutboxFollowerOptions {
  /** The watermark's name: one per follower. */
  name: string;
  batchSize: number;
  gapGraceMs: number;
  /** Wall clock for the gap grace (not the service clock: tests freeze that one). */
  wallClock?: () => number;
}

/** Takes a run of events (in seq order, no gap) inside the watermark's transaction. */
export type OutboxTaker = (tx: Queryable, events: OutboxEntry[]) => Promise<void>;

export function createOutboxFollower(db: Database, options: OutboxFollowerOptions, take: OutboxTaker) {
  const wallClock = options.wallClock ?? Date.now;
  const gaps = new Map<number, number>();
  let known = -1;

  /** Takes the next batch; resolves to how many events it took. */
  async function follow(): Promise<number> {
    // A cheap read first: most polls find nothing new and need no write transaction.
    if (known >= 0 && !(await hasEventsAfter(db, known))) return 0;
    return db.transaction(async (tx) => {
      const watermark = await lockFanOutWatermark(tx, options.name);
      if (watermark === undefined) return 0; // another worker holds it
      const events = await listEventsAfter(tx, watermark, options.batchSize);
      let last = watermark;
      const taken: OutboxEntry[] = [];
      for (const event of events) {
        if (event.seq !== last + 1 && !gapExpired(last + 1)) break;
        taken.push(event);
        last = event.seq;
      }
      await take(tx, taken);
      if (last !== watermark) await saveFanOutWatermark(tx, options.name, last);
      known = last;
      return taken.length;
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

  return { follow };
}
