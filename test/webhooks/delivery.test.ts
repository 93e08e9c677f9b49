import { describe, it, beforeAll, afterAll, beforeEach, afterEach } from "vitest";
import assert from "node:assert/strict";
import { DIALECTS } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient } from "../support/client.ts";
import { assertError, mintLiveCredentials } from "../support/api-assertions.ts";
import { protectOrder, outbox } from "../support/protection-flows.ts";
import { startReceiver, type Receiver } from "../support/webhook-receiver.ts";
import { verifyOutcome } from "../support/webhook-verify.ts";
import type { ResolvedAddress } from "../../server/webhooks/address-policy.ts";
import { assertSigned, drain, firstArrivals, writeEvents } from "../support/webhook-events.ts";

const HOUR = 3_600_000;
const SCHEDULE = [1_000, 2_000, 4_000];
const DNS: Record<string, string> = { "hooks.example.test": "93.184.216.34" };
const resolveHost = async (host: string): Promise<ResolvedAddress[]> =>
  DNS[host] ? [{ address: DNS[host], family: 4 }] : [];

describe.each(DIALECTS)("webhook delivery (%s)", (dialect) => {
  let t: TestApi;
  let secret: ReturnType<typeof apiClient>;
  let receiver: Receiver;
  const test = () => ({ merchantId: t.merchant.merchantId, mode: "test" as const });
  beforeAll(async () => {
    t = await startTestApi({
      dialect,
      resolveHost,
      allowPrivateWebhookUrls: true,
      webhooks: { retrySchedule: SCHEDULE, timeoutMs: 300, gapGraceMs: 0 },
    });
    secret = apiClient(t.baseUrl, t.merchant.secretKey);
  });
  afterAll(() => t.close());
  beforeEach(async () => (receiver = await startReceiver()));
  afterEach(async () => {
    await receiver.close();
    // Endpoints of one test must not receive the next test's events.
    await t.database.db.transaction(async (tx) => {
      await tx.run("DELETE FROM webhook_deliveries");
      await tx.run("DELETE FROM webhook_endpoints");
    });
  });

  const createEndpoint = async (url: string, events: string[] = ["*"], client = secret) => {
    const response = await client.post("/webhooks/endpoints", { url, events });
    assert.equal(response.status, 200, response.text);
    return response.body as { id: string; secret: string };
  };

  it("a confirmation reaches the endpoint signed, with the event id and timestamp headers, and is in the attempt log", async () => {
    const endpoint = await createEndpoint(receiver.url, ["protection.confirmed"]);
    const { confirmation } = await protectOrder(apiClient(t.baseUrl, t.merchant.publishableKey), t.merchant.programId);
    await drain(t, () => receiver.received.length === 1);
    const [request] = receiver.received;
    const [event] = await outbox(t.database.db, t.merchant.merchantId, "protection.confirmed");
    assert.equal(request.eventId, event.id);
    assert.equal(request.timestamp, String(Math.floor(t.clock.now / 1000)));
    assert.equal(request.event.type, "protection.confirmed");
    assert.equal(request.event.data.object.referenceNumber, confirmation.referenceNumber);
    assert.equal(
      await verifyOutcome(request.signature, request.body, endpoint.secret, Math.floor(t.clock.now / 1000)),
      "valid",
    );
    assert.equal(
      await verifyOutcome(request.signature, request.body + " ", endpoint.secret, Math.floor(t.clock.now / 1000)),
      "tampered",
    );

    const log = await secret.get(`/webhooks/endpoints/${endpoint.id}/deliveries`);
    assert.equal(log.status, 200, log.text);
    assert.equal(log.body.data.length, 1);
    assert.equal(log.body.data[0].eventId, event.id);
    assert.equal(log.body.data[0].outcome, "succeeded");
    assert.equal(log.body.data[0].statusCode, 200);
    assert.equal(log.body.data[0].responseExcerpt, "ok", "the start of the receiver's answer");
    assert.equal(typeof log.body.data[0].durationMs, "number");
    assert.equal(log.body.data[0].attemptedAt, new Date(t.clock.now).toISOString());
  });

  it("only subscribed types are delivered; events from before the endpoint existed are not", async () => {
    await writeEvents(t, test(), 2, "claim.created");
    t.clock.advance(1);
    await createEndpoint(receiver.url, ["claim.updated"]);
    await writeEvents(t, test(), 2, "claim.created");
    const [wanted] = await writeEvents(t, test(), 1, "claim.updated");
    await drain(t, () => receiver.received.length >= 1);
    for (let i = 0; i < 5; i++) await t.api.webhooks.runOnce();
    assert.deepEqual(
      receiver.received.map((r) => r.eventId),
      [wanted],
    );
  });

  it("500s, timeouts, dropped connections and refused connections, then recovery: every event arrives, signed, in order", async () => {
    const flaky = await createEndpoint(receiver.url);
    // A second endpoint on a port nobody listens on yet: connection refused until its receiver starts.
    const parked = await startReceiver();
    const refusedPort = parked.port;
    await parked.close();
    const refused = await createEndpoint(`http://127.0.0.1:${refusedPort}/hooks`);
    const faults: (number | "hang" | "drop")[] = [500, 503, "hang", "drop", 500, 429];
    receiver.reply = (_request, index) => faults[index] ?? 200;
    const ids = await writeEvents(t, test(), 8);

    for (let i = 0; i < 6; i++) {
      await t.api.webhooks.runOnce();
      t.clock.advance(5_000);
    }
    const late = await startReceiver(refusedPort);
    try {
      await drain(t, () => firstArrivals(receiver.received).length === 8 && late.received.length >= 8);
      assert.deepEqual(firstArrivals(receiver.received), ids, "in creation order");
      assert.deepEqual(firstArrivals(late.received), ids, "in creation order after refusals");
      assert.ok(receiver.received.length >= 8 + faults.length);
      await assertSigned(receiver.received, flaky.secret, t.clock.now);
      await assertSigned(late.received, refused.secret, t.clock.now);
      // Until an event succeeded, the next one was never sent.
      const firstEightArrivals = receiver.received.slice(0, faults.length + 1).map((r) => r.eventId);
      assert.deepEqual(new Set(firstEightArrivals), new Set([ids[0]]));
      const log = await secret.get(`/webhooks/endpoints/${flaky.id}/deliveries?limit=100`);
      const errors = log.body.data
        .filter((a: { outcome: string }) => a.outcome === "failed")
        .map((a: { statusCode: number | null; error: string }) => a.statusCode ?? a.error);
      assert.ok(
        errors.some((e: unknown) => e === 500) && errors.some((e: unknown) => String(e).startsWith("timed out")),
        JSON.stringify(errors),
      );
      const recovered = await secret.get(`/webhooks/endpoints/${flaky.id}`);
      assert.deepEqual(
        [recovered.body.status, recovered.body.failingSince],
        ["enabled", null],
        "a success ends the failing streak",
      );
      const refusedLog = await secret.get(`/webhooks/endpoints/${refused.id}/deliveries?limit=100`);
      assert.ok(refusedLog.body.data.some((a: { error: string | null }) => a.error?.includes("ECONNREFUSED")));
    } finally {
      await late.close();
    }
  });

  it("retries follow the schedule and the endpoint is marked failing after 3 days, then stops", async () => {
    const endpoint = await createEndpoint(receiver.url);
    receiver.reply = () => 500;
    const [first, second] = await writeEvents(t, test(), 2);
    const started = t.clock.now;
    await t.api.webhooks.runOnce();
    assert.equal(receiver.received.length, 1);
    t.clock.advance(SCHEDULE[0] - 1);
    await t.api.webhooks.runOnce();
    assert.equal(receiver.received.length, 1, "not before the first retry delay");
    t.clock.advance(1);
    await t.api.webhooks.runOnce();
    assert.equal(receiver.received.length, 2);
    while (t.clock.now - started < 72 * HOUR + 10_000) {
      t.clock.advance(HOUR);
      await t.api.webhooks.runOnce();
    }
    const state = await secret.get(`/webhooks/endpoints/${endpoint.id}`);
    assert.equal(state.body.status, "failing");
    assert.equal(state.body.failingSince, new Date(started).toISOString());
    assert.deepEqual(
      new Set(receiver.received.map((r) => r.eventId)),
      new Set([first]),
      "the second event waited behind the first",
    );
    const count = receiver.received.length;
    t.clock.advance(10 * HOUR);
    await t.api.webhooks.runOnce();
    assert.equal(receiver.received.length, count, "no more attempts once failing");

    receiver.reply = () => 200;
    await secret.call("PATCH", `/webhooks/endpoints/${endpoint.id}`, { status: "enabled" });
    // Until the second event's attempt succeeded, not only reached the receiver: on a loaded machine an attempt can time
    // out (300 ms here) after the endpoint got it, and a failed attempt leaves the streak as it was.
    await drain(t, async () => {
      const log = await secret.get(`/webhooks/endpoints/${endpoint.id}/deliveries?limit=100`);
      return log.body.data.some(
        (a: { eventId: string; outcome: string }) => a.eventId === second && a.outcome === "succeeded",
      );
    });
    const enabled = await secret.get(`/webhooks/endpoints/${endpoint.id}`);
    assert.equal(enabled.body.status, "enabled");
    assert.equal(enabled.body.failingSince, null);
  });

  it("410 Gone disables the endpoint", async () => {
    const endpoint = await createEndpoint(receiver.url);
    receiver.reply = () => 410;
    await writeEvents(t, test(), 2);
    await t.api.webhooks.runOnce();
    t.clock.advance(HOUR);
    await t.api.webhooks.runOnce();
    assert.equal(receiver.received.length, 1);
    assert.equal((await secret.get(`/webhooks/endpoints/${endpoint.id}`)).body.status, "disabled");
  });

  it("rotation: both secrets sign for 24 h (two v1 entries), then only the new one; a PATCH does not rotate", async () => {
    const endpoint = await createEndpoint(receiver.url);
    const second = await startReceiver();
    try {
      await secret.call("PATCH", `/webhooks/endpoints/${endpoint.id}`, { url: second.url, events: ["claim.created"] });
      await writeEvents(t, test(), 1);
      await drain(t, () => second.received.length === 1);
      await assertSigned(second.received, endpoint.secret, t.clock.now);
      assert.equal(second.received[0].signature.split("v1=").length, 2, "one signature before any rotation");

      const rotated = (await secret.post(`/webhooks/endpoints/${endpoint.id}/secret/rotate`)).body.secret as string;
      t.clock.advance(23 * HOUR);
      await writeEvents(t, test(), 1);
      await drain(t, () => second.received.length === 2);
      const during = second.received[1];
      assert.equal(during.signature.split("v1=").length, 3, "two v1 entries during the overlap");
      const now = Math.floor(t.clock.now / 1000);
      assert.equal(await verifyOutcome(during.signature, during.body, rotated, now), "valid");
      assert.equal(await verifyOutcome(during.signature, during.body, endpoint.secret, now), "valid");

      t.clock.advance(HOUR);
      await writeEvents(t, test(), 1);
      await drain(t, () => second.received.length === 3);
      const after = second.received[2];
      assert.equal(after.signature.split("v1=").length, 2, "one v1 once the overlap ended");
      assert.equal(await verifyOutcome(after.signature, after.body, rotated, Math.floor(t.clock.now / 1000)), "valid");
      assert.equal(
        await verifyOutcome(after.signature, after.body, endpoint.secret, Math.floor(t.clock.now / 1000)),
        "tampered",
      );
      assert.equal(receiver.received.length, 0, "nothing went to the old URL");
    } finally {
      await second.close();
    }
  });

  it("deleting an endpoint stops its deliveries, retries included", async () => {
    const endpoint = await createEndpoint(receiver.url);
    receiver.reply = () => 500;
    await writeEvents(t, test(), 3);
    await t.api.webhooks.runOnce();
    assert.equal(receiver.received.length, 1);
    await secret.call("DELETE", `/webhooks/endpoints/${endpoint.id}`);
    await writeEvents(t, test(), 1);
    for (let i = 0; i < 5; i++) {
      t.clock.advance(HOUR);
      await t.api.webhooks.runOnce();
    }
    assert.equal(receiver.received.length, 1);
  });

  it("POST /events/{id}/redeliver sends an event again with the same event id", async () => {
    const endpoint = await createEndpoint(receiver.url);
    const [id] = await writeEvents(t, test(), 1);
    await drain(t, () => receiver.received.length === 1);
    const again = await secret.post(`/events/${id}/redeliver`, {});
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(
      again.body.deliveries.map((d: { endpointId: string }) => d.endpointId),
      [endpoint.id],
    );
    const one = await secret.post(`/events/${id}/redeliver`, { endpoint_id: endpoint.id });
    assert.equal(one.status, 200, one.text);
    await drain(t, () => receiver.received.length === 3);
    assert.deepEqual(
      receiver.received.map((r) => r.eventId),
      [id, id, id],
    );
    assert.equal((await secret.post("/events/evt_unknown/redeliver", {})).status, 404);
    const elsewhere = await createEndpoint(receiver.url, ["offer.declined"]);
    assertError(await secret.post(`/events/${id}/redeliver`, { endpoint_id: elsewhere.id }), {
      status: 400,
      code: "endpoint_not_subscribed",
      param: "endpoint_id",
    });
  });

  it("live mode, even with private URLs allowed for test mode: loopback is refused at creation, and a delivery whose host now resolves to 10.x or 127.0.0.1 is refused before connecting", async () => {
    const live = await mintLiveCredentials(t, t.merchant.merchantId);
    const liveClient = apiClient(t.baseUrl, live.secretKey);
    assertError(
      await liveClient.post("/webhooks/endpoints", { url: `https://127.0.0.1:${receiver.port}/x`, events: ["*"] }),
      { status: 400, code: "url_not_allowed", param: "url" },
    );
    const endpoint = await createEndpoint("https://hooks.example.test/x", ["*"], liveClient);
    for (const address of ["10.1.2.3", "127.0.0.1"]) {
      DNS["hooks.example.test"] = address;
      await writeEvents(t, { merchantId: t.merchant.merchantId, mode: "live" }, 1);
      await t.api.webhooks.runOnce();
      t.clock.advance(HOUR);
    }
    DNS["hooks.example.test"] = "93.184.216.34";
    const log = await liveClient.get(`/webhooks/endpoints/${endpoint.id}/deliveries`);
    assert.ok(log.body.data.length >= 2);
    for (const attempt of log.body.data) {
      assert.equal(attempt.outcome, "failed");
      assert.equal(attempt.statusCode, null);
      assert.equal(attempt.error, "address not allowed: hooks.example.test is or resolves to a non-public address");
    }
    await liveClient.call("DELETE", `/webhooks/endpoints/${endpoint.id}`);
  });
});
