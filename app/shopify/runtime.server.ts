// The Shopify side of one app process: the handlers' dependencies and the job queue, created on first use from the
// protection runtime and shopifyApp(), kept on globalThis like the runtime (Vite reloads reuse them).
import { createSealer } from "../../server/secrets/sealer.ts";
import { createInProcessFetch } from "../../server/in-process-fetch.ts";
import { protectionRuntime } from "../protection-api.server.ts";
import { shopify } from "../shopify.server.ts";
import { adminGraphqlOf } from "./admin/graphql.ts";
import { createShopifyDeps, type DepsInput, type ShopifyDeps } from "./deps.server.ts";
import { createJobQueue, type JobQueue } from "./jobs.server.ts";
import { queueHandlers } from "./named-jobs.ts";
import { orderHandlers } from "./orders.server.ts";
import { shopLifecycleHandlers } from "./shop-lifecycle.server.ts";

export interface ShopifyRuntime {
  deps: ShopifyDeps;
  queue: JobQueue;
}

/** The dependencies plus a started job queue that runs every handler. Tests call this with their own deps. */
export function createShopifyRuntime(input: Omit<DepsInput, "wakeJobs">): ShopifyRuntime {
  let queue: JobQueue | undefined;
  const deps = createShopifyDeps({ ...input, wakeJobs: () => queue?.wake() });
  queue = createJobQueue({
    db: deps.db,
    services: deps.services,
    logger: deps.logger,
    handlers: queueHandlers({ ...orderHandlers(deps), ...shopLifecycleHandlers(deps) }),
  });
  queue.start();
  return { deps, queue };
}

const holder = globalThis as typeof globalThis & { __shopifyRuntime?: ShopifyRuntime };

/** The app's Shopify runtime; undefined in demo mode (no Shopify credentials). */
export function shopifyRuntime(): ShopifyRuntime | undefined {
  if (holder.__shopifyRuntime) return holder.__shopifyRuntime;
  const app = shopify();
  if (!app) return undefined;
  const runtime = protectionRuntime();
  holder.__shopifyRuntime = createShopifyRuntime({
    db: runtime.db,
    services: runtime.services,
    logger: runtime.logger.child({ component: "shopify" }),
    sealer: createSealer(runtime.encryptionKey),
    encryptionKey: runtime.encryptionKey,
    appUrl: process.env.SHOPIFY_APP_URL!,
    apiFetch: createInProcessFetch(runtime.api),
    adminApi: async (shop) => adminGraphqlOf((await app.unauthenticated.admin(shop)).admin),
    // Through the app's session storage, so its cache forgets them too.
    deleteSessions: async (shop) => {
      const sessions = await app.sessionStorage.findSessionsByShop(shop);
      await app.sessionStorage.deleteSessions(sessions.map((session) => session.id));
    },
    updateSessionScopes: async (shop, scopes) => {
      for (const session of await app.sessionStorage.findSessionsByShop(shop)) {
        session.scope = scopes.join(",");
        await app.sessionStorage.storeSession(session);
      }
    },
  });
  return holder.__shopifyRuntime;
}

/** Stops the job queue (waiting for running jobs); tests and graceful shutdown. */
export async function closeShopifyRuntime(): Promise<void> {
  const runtime = holder.__shopifyRuntime;
  holder.__shopifyRuntime = undefined;
  await runtime?.queue.stop();
}
