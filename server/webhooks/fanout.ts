import type { Database, Queryable } from "../store/database.ts";
import type { Services } from "../domain/context.ts";
import type { Actor } from "../vocabulary/actors.ts";
import { queueDeliveries } from "../domain/webhook-deliveries.ts";
import { subscribes } from "../domain/webhook-endpoints.ts";
import { hasEventsAfter, listEventsAfter, type OutboxEntry } from "../store/events.ts";
import { listDeliverableEndpoints, type DeliverableEndpoint } from "../store/webhook-endpoints.ts";
import { lockFanOutWatermark, saveFanOutWatermark } from "../store/webhook-deliveries.ts";

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

export function createFanOut(db: Database, services: Pick<Services, "clock" | "random">, options: FanOutOptions) {
  const wallClock = options.wallClock ?? Date.now;
  const gaps = new Map<number, number>();
  let known = -1;

  /** Fans out the next batch; resolves to how many events it fanned out. */
  async function fanOut(): Promise<number> {
    // A cheap read first: most polls find nothing new and need no write transaction.
    if (known >= 0 && !(await hasEventsAfter(db, known))) return 0;
    return db.transaction(async (tx) => {
      const watermark = await lockFanOutWatermark(tx, WATERMARK);
      if (watermark === undefined) return 0; // another worker holds it
      const events = await listEventsAfter(tx, watermark, options.batchSize);
      let last = watermark;
      const endpoints = endpointCache(tx);
      const queued: { endpointId: string; event: OutboxEntry }[] = [];
      for (const event of events) {
        if (event.seq !== last + 1 && !gapExpired(last + 1)) break;
        for (const endpoint of await endpoints(event)) {
          if (endpoint.createdAt <= event.createdAt && subscribes(endpoint.events, event.type))
            queued.push({ endpointId: endpoint.id, event });
        }
        last = event.seq;
      }
      await queueDeliveries(tx, services, queued);
      if (last !== watermark) await saveFanOutWatermark(tx, WATERMARK, last);
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
  const cache = new Map<string, Promise<DeliverableEndpoint[]>>();
  return (owner: Actor) => {
    const key = `${owner.merchantId}\u0000${owner.mode}`;
    let endpoints = cache.get(key);
    if (!endpoints) {
      endpoints = listDeliverableEndpoints(tx, owner);
      cache.set(key, endpoints);
    }
    return endpoints;
  };
}
