import assert from "node:assert/strict";
import type { TestApi } from "./api-server.ts";
import { appendEvent, type EventType } from "../../server/domain/events.ts";
import type { Actor } from "../../server/domain/context.ts";
import type { ReceivedWebhook } from "./webhook-receiver.ts";
import { verifyOutcome } from "./webhook-verify.ts";

/** Writes outbox events the way a state change does (one transaction each); their ids in order. */
export async function writeEvents(
  t: Pick<TestApi, "database" | "services">,
  actor: Actor,
  count: number,
  type: EventType = "claim.created",
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++)
    ids.push(
      await t.database.db.transaction((tx) => appendEvent(tx, t.services, actor, type, { n: i, note: "Zoë ✓" })),
    );
  return ids;
}

/** Runs worker rounds until `done()`, moving the test clock on by `stepMs` whenever a round had nothing due. */
export async function drain(t: TestApi, done: () => boolean, stepMs = 1_000, maxRounds = 400): Promise<void> {
  for (let round = 0; round < maxRounds && !done(); round++) {
    if ((await t.api.webhooks.runOnce()) === 0) t.clock.advance(stepMs);
  }
  assert.ok(done(), "drained");
}

/** The event ids in the order they first arrived (a retry of an event already seen is not a new arrival). */
export function firstArrivals(received: ReceivedWebhook[]): string[] {
  return [...new Set(received.map((request) => request.eventId))];
}

/** Each request: its event id header matches its body, and the SDK verifies its signature under `secret` (any age). */
export async function assertSigned(received: ReceivedWebhook[], secret: string, nowMs: number): Promise<void> {
  for (const request of received) {
    assert.equal(request.eventId, request.event.id);
    assert.match(request.signature, new RegExp(`^t=${request.timestamp},v1=[0-9a-f]{64}`));
    assert.equal(
      await verifyOutcome(request.signature, request.body, secret, Math.floor(nowMs / 1000), 10 ** 9),
      "valid",
      request.signature,
    );
  }
}
