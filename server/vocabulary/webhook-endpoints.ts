// A webhook endpoint's status and subscription (docs/api.md "Webhooks").
import type { EventType } from "./events.ts";

/** Subscribes an endpoint to every event type, present and future. */
export const ALL_EVENTS = "*";
export type EndpointStatus = "enabled" | "disabled" | "failing";
export type EndpointEvents = (EventType | typeof ALL_EVENTS)[];
