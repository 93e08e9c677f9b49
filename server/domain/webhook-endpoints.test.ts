import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { createTestDatabase, type TestDatabase } from "../../test/support/databases.ts";
import { createSealer } from "../secrets/sealer.ts";
import { cryptoRandom } from "./ids.ts";
import { DomainError } from "./errors.ts";
import type { Services } from "./context.ts";
import type { Actor } from "../vocabulary/actors.ts";
import { createTestMerchant } from "./merchants.ts";
import {
  MAX_ENDPOINTS_PER_MODE,
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  rotateWebhookSecret,
  signingSecrets,
  type CheckedUrl,
} from "./webhook-endpoints.ts";
import { findEndpoint } from "../store/webhook-endpoints.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

describe("webhook endpoints", () => {
  let t: TestDatabase;
  const now = Date.parse("2026-11-22T12:00:00.000Z");
  const services: Services = {
    clock: () => now,
    random: cryptoRandom,
    settings: { companyName: "Test Protection Ltd", portalUrl: "https://portal.example.test" },
  };
  const sealer = createSealer(randomBytes(32));
  const url = "https://hooks.example.test/protection" as CheckedUrl;
  let test: Actor;
  let live: Actor;

  beforeAll(async () => {
    t = await createTestDatabase("sqlite");
    const { merchantId } = await t.db.transaction((tx) => createTestMerchant(tx, services, { name: "Endpoint cap" }));
    test = { merchantId, mode: "test" };
    live = { merchantId, mode: "live" };
  });
  afterAll(() => t.drop());

  const create = (actor: Actor) =>
    t.db.transaction((tx) => createWebhookEndpoint(tx, services, sealer, actor, { url, events: ["*"] }));

  it(`allows ${MAX_ENDPOINTS_PER_MODE} endpoints per mode; the next is refused until one is deleted, and the other mode counts apart`, async () => {
    const created: string[] = [];
    for (let i = 0; i < MAX_ENDPOINTS_PER_MODE; i++) created.push((await create(test)).id);
    await assert.rejects(
      create(test),
      (error: unknown) =>
        error instanceof DomainError && error.kind === "conflict" && error.code === "webhook_endpoint_limit_reached",
    );
    assert.equal((await create(live)).livemode, true);
    await t.db.transaction((tx) => deleteWebhookEndpoint(tx, test, created[0]));
    assert.equal((await create(test)).livemode, false);
  });

  it("rotation: the old secret keeps signing beside the new one for 24 h, then only the new one signs", async () => {
    const { id, secret: first } = await create(live);
    const { secret: second } = await t.db.transaction((tx) => rotateWebhookSecret(tx, services, sealer, live, id));
    const endpoint = (await findEndpoint(t.db, live, id))!;
    assert.deepEqual(signingSecrets(endpoint, sealer, now), [second, first]);
    assert.deepEqual(signingSecrets(endpoint, sealer, now + DAY_MS - 1), [second, first]);
    assert.deepEqual(signingSecrets(endpoint, sealer, now + DAY_MS), [second]);
  });
});
