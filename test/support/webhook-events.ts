import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import type { TestApi } from "./api-server.ts";
import { appendEvent } from "../../server/domain/events.ts";
import type { EventType } from "../../server/vocabulary/events.ts";
import type { Services } from "../../server/domain/context.ts";
import type { Actor } from "../../server/vocabulary/actors.ts";
import { cryptoRandom } from "../../server/domain/ids.ts";
import { createTestMerchant } from "../../server/domain/merchants.ts";
import { checkEndpointUrl, createWebhookEndpoint } from "../../server/domain/webhook-endpoints.ts";
import { createSealer } from "../../server/secrets/sealer.ts";
import type { Database } from "../../server/store/database.ts";
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
export async function drain(
  t: TestApi,
  done: () => boolean | Promise<boolean>,
  stepMs = 1_000,
  maxRounds = 400,
): Promise<void> {
  for (let round = 0; round < maxRounds && !(await done()); round++) {
    if ((await t.api.webhooks.runOnce()) === 0) t.clock.advance(stepMs);
  }
  assert.ok(await done(), "drained");
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

/**
 * A test-mode merchant whose endpoints may be on loopback (WEBHOOK_ALLOW_PRIVATE_URLS, as the worker process is started
 * with), the key its endpoints' secrets are sealed under (the worker's ENCRYPTION_KEY), and `addEndpoint`, which
 * subscribes a URL to every event and resolves to the endpoint (with its secret).
 */
export async function loopbackWebhookMerchant(db: Database, name: string) {
  const services: Services = {
    clock: Date.now,
    random: cryptoRandom,
    settings: { companyName: name, portalUrl: "https://portal.example.test", allowPrivateWebhookUrls: true },
  };
  const key = randomBytes(32);
  const sealer = createSealer(key);
  const merchant = await db.transaction((tx) => createTestMerchant(tx, services, { name }));
  const actor: Actor = { merchantId: merchant.merchantId, mode: "test" };
  const addEndpoint = (url: string) =>
    db.transaction(async (tx) =>
      createWebhookEndpoint(tx, services, sealer, actor, {
        url: await checkEndpointUrl(services, actor, url),
        events: ["*"],
      }),
    );
  return { services, key, actor, addEndpoint };
}

/**
 * `npm run worker` (server/worker.ts) as its own process on `databaseUrl`, allowed to deliver to loopback; its log
 * lines (stdout) readable with `logs: "pipe"`.
 */
export function startWorkerProcess(
  databaseUrl: string,
  key: Buffer,
  options: { args?: string[]; env?: Record<string, string>; logs?: "pipe" } = {},
): ChildProcess {
  const root = path.resolve(import.meta.dirname, "../..");
  return spawn(process.execPath, [path.join(root, "server/worker.ts"), ...(options.args ?? [])], {
    cwd: root,
    stdio: ["ignore", options.logs ?? "ignore", "inherit"],
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      ENCRYPTION_KEY: key.toString("base64"),
      WEBHOOK_POLL_MS: "10",
      WEBHOOK_ALLOW_PRIVATE_URLS: "on",
      ...options.env,
    },
  });
}
