import { snakeCaseKeys } from "../casing.ts";
import { pathSegment, type Transport } from "../request.ts";
import type { Event, Redelivery } from "../responses.ts";
import type { EventsQuery, RedeliverParams } from "../types.ts";
import { Pages } from "./lists.ts";

/** GET /events: the event log behind webhooks (secret key). */
export class Events extends Pages<Event, EventsQuery> {
  constructor(transport: Transport) {
    super(transport, "/events");
  }

  async retrieve(eventId: string): Promise<Event> {
    return this.transport.body({ method: "GET", path: `/events/${pathSegment("eventId", eventId)}` });
  }

  /** Queue the event again for every subscribed endpoint that is not disabled, or for `endpoint_id` alone. */
  async redeliver(eventId: string, payload: RedeliverParams = {}, idempotencyKey?: string): Promise<Redelivery> {
    const path = `/events/${pathSegment("eventId", eventId)}/redeliver`;
    return this.transport.body({ method: "POST", path, body: JSON.stringify(snakeCaseKeys(payload)), idempotencyKey });
  }
}
