// The Remix app's Shopify side booted for a test, through its real wiring: the Shopify env of TEST_APP, a test
// database, the library's Admin API calls redirected to the fake Admin API on loopback, an offline session per shop
// (as OAuth leaves it), the webhook route, and the job queue. The app keeps one runtime per process: close() closes it
// and puts the environment back, and the next harness in the process boots it again on its own database. Import nothing
// from app/ before calling it: the app reads its environment on first use.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createTestDatabase, type Dialect, type TestDatabase } from "./databases.ts";
import { openDatabase } from "../../server/store/open.ts";
import { startFakeAdminApi, TEST_APP, webhookRequest, type FakeAdminApi, type WebhookDelivery } from "./shopify.ts";
import { waitFor } from "./wait.ts";

export interface ShopifyAppHarness {
  database: TestDatabase;
  admin: FakeAdminApi;
  runtime(): NonNullable<ReturnType<typeof import("../../app/shopify.server.ts").shopifyRuntime>>;
  /** Installs the shop as afterAuth does (merchant, keys, program, storefront setup job) and runs its jobs. */
  install(shop: string): Promise<void>;
  /** The webhook route's answer to a request; authenticate.webhook throws its 4xx Responses, which Remix sends as they are. */
  handle(request: Request): Promise<Response>;
  /** The webhook route's status for a delivery. */
  deliver(delivery: WebhookDelivery): Promise<number>;
  /** Waits until no job is due or running (follow-up jobs included). */
  settled(): Promise<void>;
  /**
   * Follows the outbox's order events to their end, as the app's 5 s task does, and runs the follow-up jobs they queue
   * (the order's state, the Flow trigger, the order's risk) until none is due: what a step that makes or moves a plan
   * or a claim waits for, since settled() alone can return before the task has queued them.
   */
  settledWithOrderEvents(): Promise<void>;
  close(): Promise<void>;
}

export interface ShopifyAppOptions {
  dialect: Dialect;
  shops: string[];
  env?: Record<string, string>;
  /**
   * Boot on a database and data directory that outlive this harness (a process restarted after a crash): they are
   * neither created nor removed here, and the data directory keeps the key the shops' secrets are sealed with.
   */
  existing?: { databaseUrl: string; dataDir: string };
}

export async function startShopifyApp(options: ShopifyAppOptions): Promise<ShopifyAppHarness> {
  const { existing } = options;
  const database: TestDatabase = existing
    ? { url: existing.databaseUrl, db: openDatabase(existing.databaseUrl), drop: async () => {} }
    : await createTestDatabase(options.dialect);
  const dataDir = existing?.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "pp-shopify-app-"));
  const appEnv: Record<string, string> = {
    ...TEST_APP,
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent",
    ...options.env,
  };
  // Put back at close, for the next harness in this process (the same suite on the other database).
  const envBefore = Object.fromEntries(Object.keys(appEnv).map((name) => [name, process.env[name]]));
  Object.assign(process.env, appEnv);
  const admin = await startFakeAdminApi();
  const route = await import("../../app/routes/webhooks.$.ts");
  const shopifyRuntime = await import("../../app/shopify.server.ts");
  const { prisma } = await import("../../app/db.server.ts");
  const { onShopAuthenticated } = await import("../../app/shopify/shop-lifecycle.server.ts");
  // The library sends Admin API calls and token exchanges to https://<shop>/admin/…; here they go to the fake on loopback.
  const { abstractFetch, setAbstractFetchFunc } = await import("@shopify/shopify-api/runtime");
  const libraryFetch = abstractFetch;
  const realFetch = globalThis.fetch;
  setAbstractFetchFunc(async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    return realFetch(/^https:\/\/[^/]+\/admin\/(api|oauth)\//.test(url) ? admin.rewrite(url) : input, init);
  });
  for (const shop of options.shops) {
    const session = {
      id: `offline_${shop}`,
      shop,
      state: "",
      isOnline: false,
      scope: TEST_APP.SCOPES,
      accessToken: `shpat_${shop}`,
    };
    await prisma().session.upsert({ where: { id: session.id }, create: session, update: {} });
  }
  const runtime = () => shopifyRuntime.shopifyRuntime()!;

  async function handle(request: Request): Promise<Response> {
    try {
      return await route.action({ request, params: {}, context: {} });
    } catch (thrown) {
      if (thrown instanceof Response) return thrown;
      throw thrown;
    }
  }

  const DUE_JOBS = "SELECT COUNT(*) FROM shopify_jobs WHERE status = 'pending' AND run_at <= ?";

  async function settled(): Promise<void> {
    await waitFor(
      async () => {
        const open = await database.db.get<{ n: number }>(`SELECT (${DUE_JOBS}) AS n`, [Date.now()]);
        return Number(open!.n) === 0;
      },
      { what: "no due Shopify job" },
    );
  }

  async function settledWithOrderEvents(): Promise<void> {
    const { createOrderEventsFollower, ORDERS_WATERMARK } = await import("../../app/shopify/order-states.server.ts");
    // Beside the app's own task: the two share the watermark and its lock. A new one per call reads the watermark
    // afresh (a follower that has seen the end skips the read while no newer event exists; a test may move it back).
    const follower = createOrderEventsFollower(runtime().deps);
    await waitFor(
      async () => {
        await follower.follow();
        await runtime().queue.runDue();
        // One statement, one snapshot: a follow commits its jobs with the watermark, and a job's events commit no later
        // than its completion; so no event unfollowed and no job due, read together, means nothing is left to come.
        const open = await database.db.get<{ due: number; unfollowed: number }>(
          `SELECT (${DUE_JOBS}) AS due,
             (SELECT COUNT(*) FROM events WHERE seq > (SELECT last_seq FROM webhook_fanout WHERE name = ?)) AS unfollowed`,
          [Date.now(), ORDERS_WATERMARK],
        );
        return Number(open!.due) === 0 && Number(open!.unfollowed) === 0;
      },
      // On PostgreSQL a sequence gap holds the follower for its 10 s grace (a rolled-back event's seq).
      { what: "the order events followed and no due Shopify job", timeoutMs: 30_000 },
    );
  }

  return {
    database,
    admin,
    runtime,
    settled,
    settledWithOrderEvents,
    async install(shop) {
      await onShopAuthenticated(runtime().deps, shop);
      await settled();
    },
    handle,
    deliver: async (delivery) => (await handle(webhookRequest(delivery))).status,
    async close() {
      // The app's runtimes are the process's: closed and forgotten, the next harness boots them on its own database.
      await shopifyRuntime.closeRuntimes();
      setAbstractFetchFunc(libraryFetch);
      for (const [name, value] of Object.entries(envBefore))
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      await admin.close();
      if (existing) return void (await database.db.close());
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
