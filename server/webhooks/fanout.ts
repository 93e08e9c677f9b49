import type { Database, Queryable } from "../store/database.ts";
import type { Services } from "../domain/context.ts";
import type { Actor } from "../vocabulary/actors.ts";
import { queueDeliveries } from "../domain/webhook-deliveries.ts";
import { subscribes } from "../domain/webhook-endpoints.ts";
import type { OutboxEntry } from "../store/events.ts";
import { listDeliverableEndpoints, type DeliverableEndpoint } from "../store/webhook-endpoints.ts";
import { createOutboxFollower } from "./outbox-follower.ts";

// Turns outbox events into deliveries: one per endpoint of the event's merchant and mode that subscribes to its type
// and existed when the event was written. The watermark (last fanned-out seq) and the delivery rows commit in one
// transaction (outbox-follower.ts, which also says how a gap in the seqs is waited for).

const WATERMARK = "events";

export interface FanOutOptions {
  batchSize: number;
  gapGraceMs: number;
  /** Wall clock for the gap grace (not the service clock: tests freeze that one). */
  wallClock?: () => number;
}

export function createFanOut(db: Database, services: Pick<Services, "clock" | "random">, options: FanOutOptions) {
  const follower = createOutboxFollower(db, { ...options, name: WATERMARK }, async (tx, events) => {
    const endpoints = endpointCache(tx);
    const queued: { endpointId: string; event: OutboxEntry }[] = [];
    for (const event of events) {
      for (const endpoint of await endpoints(event)) {
        if (endpoint.createdAt <= event.createdAt && subscribes(endpoint.events, event.type))
          queued.push({ endpointId: endpoint.id, event });
      }
    }
    await queueDeliveries(tx, services, queued);
  });
  /** Fans out the next batch; resolves to how many events it fanned out. */
  return { fanOut: follower.follow };
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
