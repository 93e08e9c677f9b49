// A crash at any point loses no confirmed plan and creates no duplicate (docs/shopify.md "Shopify app"), on the Shopify path: the app
// process takes a stream of orders/create webhooks and is killed with SIGKILL in the middle — receipts committed,
// quotes without confirms, confirms without write-backs, answers never sent. It restarts on the same database;
// Shopify retries every delivery that got no 200, with the same webhook id. Every order ends with exactly one plan and
// its reference written back. On SQLite and PostgreSQL.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { fork, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { createTestDatabase, DIALECTS, type TestDatabase } from "../support/databases.ts";
import { orderPayload, webhookHeaders } from "../support/shopify.ts";
import type { AppServerReady } from "../support/shopify-app-server.ts";
import { waitFor } from "../support/wait.ts";
import { formatDecimalAmount } from "@purchase-protection/contract";

const SHOP = "crash-test.myshopify.com";
const ORDERS = 120;
const CONCURRENCY = 12;
const KILL_AFTER = 30;
const SERVER = path.join(import.meta.dirname, "..", "support", "shopify-app-server.ts");

describe.each(DIALECTS)(
  "Shopify app (%s): SIGKILL in the middle of orders/create traffic, restart, Shopify's retries",
  (dialect) => {
    let database: TestDatabase;
    let dataDir: string;
    let app: ChildProcess | undefined;

    beforeAll(async () => {
      database = await createTestDatabase(dialect);
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-shopify-crash-"));
    });

    afterAll(async () => {
      if (app && app.exitCode === null) {
        app.kill("SIGTERM");
        await once(app, "exit");
      }
      await database?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    async function startApp(): Promise<AppServerReady> {
      app = fork(SERVER, [SHOP, database.url, dataDir], { stdio: ["ignore", "ignore", "inherit", "ipc"] });
      const [ready] = (await once(app, "message")) as [AppServerReady];
      return ready;
    }

    const count = async (sql: string, params: (string | number)[] = []) =>
      Number((await database.db.get<{ n: number }>(sql, params))!.n);

    it("every order ends with exactly one plan and its reference written back", async () => {
      let ready = await startApp();
      const tier = ready.tiers.find((candidate) => candidate.priceCents >= 300)!;
      const deliveries = Array.from({ length: ORDERS }, () => {
        const payload = orderPayload({
          lines: [
            { productId: 111, price: "100.00" },
            {
              productId: ready.productId,
              variantId: tier.variantId,
              price: formatDecimalAmount(tier.priceCents, "USD"),
            },
          ],
          attributes: { _protection: "accepted" },
        });
        const body = JSON.stringify(payload);
        // Shopify keeps the webhook id (and the signature of the same body) across its retries of one delivery.
        return {
          orderId: String(payload.id),
          body,
          headers: webhookHeaders({ topic: "orders/create", shop: SHOP, webhookId: randomUUID() }, body),
          status: 0,
        };
      });
      const send = async (delivery: (typeof deliveries)[number], port: number) => {
        try {
          const response = await fetch(`http://127.0.0.1:${port}/webhooks/orders/create`, {
            method: "POST",
            headers: delivery.headers,
            body: delivery.body,
          });
          delivery.status = response.status;
        } catch {
          delivery.status = -1; // reset by the crash, or refused while the app is down
        }
      };

      // The stream, and the crash: SIGKILL once KILL_AFTER deliveries were answered, with others in flight.
      let next = 0;
      let answered = 0;
      const killed = once(app!, "exit");
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < deliveries.length) {
            await send(deliveries[next++], ready.port);
            if (++answered === KILL_AFTER) app!.kill("SIGKILL");
          }
        }),
      );
      await killed;
      const unanswered = deliveries.filter((delivery) => delivery.status !== 200);
      assert.ok(
        unanswered.length > 0 && unanswered.length < ORDERS,
        `the crash cut the stream (${unanswered.length} deliveries got no 200)`,
      );
      const before = await count("SELECT COUNT(*) AS n FROM shopify_webhook_receipts");
      assert.ok(before >= KILL_AFTER, "the answered deliveries' receipts were committed");

      assert.ok(
        (await count("SELECT COUNT(*) AS n FROM shopify_jobs WHERE status = 'pending'")) > 0,
        "the crash left jobs unfinished",
      );
      // Restart. The dead process's job leases would run out after LEASE_MS; make that time pass.
      ready = await startApp();
      await database.db.run("UPDATE shopify_jobs SET locked_until = NULL WHERE status = 'pending'");
      // Shopify retries every delivery without a 200 (a committed receipt answers 200 at once: the job is in the queue).
      for (const delivery of unanswered) await send(delivery, ready.port);
      assert.deepEqual(
        unanswered.filter((delivery) => delivery.status !== 200),
        [],
        "every retry answered 200",
      );

      await waitFor(
        async () => (await count("SELECT COUNT(*) AS n FROM shopify_jobs WHERE status = 'pending'")) === 0,
        { timeoutMs: 20_000, what: "the queue to drain" },
      );
      assert.equal(await count("SELECT COUNT(*) AS n FROM shopify_jobs WHERE status = 'dead'"), 0);
      assert.equal(
        await count("SELECT COUNT(*) AS n FROM shopify_webhook_receipts"),
        ORDERS,
        "one receipt per delivery",
      );
      for (const { orderId } of deliveries) {
        assert.equal(
          await count("SELECT COUNT(*) AS n FROM plans WHERE order_id = ?", [orderId]),
          1,
          `order ${orderId}: exactly one plan`,
        );
        assert.equal(
          await count(
            "SELECT COUNT(*) AS n FROM shopify_orders WHERE order_id = ? AND reference_written_at IS NOT NULL",
            [orderId],
          ),
          1,
          `order ${orderId}: reference written back`,
        );
      }
      assert.equal(
        await count("SELECT COUNT(*) AS n FROM quotes"),
        ORDERS,
        "a retried job replays its quote: no second quote per order",
      );
    });
  },
);
