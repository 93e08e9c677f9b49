// The Shopify side of the app process: shopifyApp() with Prisma session storage, and the Shopify runtime built on it
// and on the protection runtime (app/shopify/runtime.server.ts), both created on first use and only when the
// credentials are present. Without them the app runs in demo mode: nothing here throws at import time, the admin
// explains what is missing (app/routes/app.tsx) and the protection API at /api/v1 keeps working.
import "@shopify/shopify-app-remix/adapters/node";
import { ApiVersion, AppDistribution, shopifyApp } from "@shopify/shopify-app-remix/server";
import { PrismaSessionStorage } from "@shopify/shopify-app-session-storage-prisma";
import { createInProcessFetch, createSealer } from "../server/index.ts";
import { closePrisma, prisma } from "./db.server.ts";
import { closeProtectionRuntime, protectionRuntime } from "./protection-api.server.ts";
import { adminGraphqlOf } from "./shopify/admin/graphql.ts";
import { CachedSessionStorage } from "./shopify/cached-session-storage.ts";
import { createShopifyRuntime, type ShopifyRuntime } from "./shopify/runtime.server.ts";
import { onShopAuthenticated } from "./shopify/shop-lifecycle.server.ts";

/** How long a loaded Shopify session is reused without reading the database again (see CachedSessionStorage). */
const SESSION_CACHE_TTL_MS = 5_000;

/** Admin API version; keep it equal to `[webhooks] api_version` in shopify.app.toml. */
export const SHOPIFY_API_VERSION = ApiVersion.October26;

/** What shopifyApp() needs from the environment (the Shopify CLI sets all four during `shopify app dev`). */
const SHOPIFY_ENV_VARS = ["SHOPIFY_API_KEY", "SHOPIFY_API_SECRET", "SHOPIFY_APP_URL", "SCOPES"] as const;
export type ShopifyEnvVar = (typeof SHOPIFY_ENV_VARS)[number];

export interface EnvProblem {
  name: ShopifyEnvVar;
  problem: string;
}

type Env = Record<string, string | undefined>;

/** Why the Shopify side cannot start: every variable that is missing or unusable. Empty = fully configured. */
export function shopifyEnvProblems(env: Env = process.env): EnvProblem[] {
  const problems: EnvProblem[] = [];
  for (const name of SHOPIFY_ENV_VARS) {
    if (!env[name]?.trim()) problems.push({ name, problem: "is not set" });
  }
  const appUrl = env.SHOPIFY_APP_URL?.trim();
  if (appUrl && !isHttpUrl(appUrl))
    problems.push({ name: "SHOPIFY_APP_URL", problem: `is not an http(s) URL (got "${appUrl}")` });
  if (env.SCOPES?.trim() && scopesOf(env.SCOPES).length === 0)
    problems.push({ name: "SCOPES", problem: "lists no scope" });
  return problems;
}

/** Demo mode: no (usable) Shopify credentials. The protection API still runs; the admin shows what to set. */
export function isDemoMode(env: Env = process.env): boolean {
  return shopifyEnvProblems(env).length > 0;
}

function createShopifyApp(env: Env) {
  return shopifyApp({
    apiKey: env.SHOPIFY_API_KEY!,
    apiSecretKey: env.SHOPIFY_API_SECRET!,
    appUrl: env.SHOPIFY_APP_URL!,
    scopes: scopesOf(env.SCOPES!),
    apiVersion: SHOPIFY_API_VERSION,
    authPathPrefix: "/auth",
    sessionStorage: new CachedSessionStorage(new PrismaSessionStorage(prisma()), { ttlMs: SESSION_CACHE_TTL_MS }),
    distribution: AppDistribution.AppStore,
    hooks: {
      // Install / re-install: the shop's merchant, keys and program now; the protection product and storefront
      // config in a job.
      afterAuth: ({ session }) => onShopAuthenticated(shopifyRuntime()!.deps, session.shop),
    },
    future: {
      unstable_newEmbeddedAuthStrategy: true,
      expiringOfflineAccessTokens: true,
    },
    ...(env.SHOP_CUSTOM_DOMAIN ? { customShopDomains: [env.SHOP_CUSTOM_DOMAIN] } : {}),
  });
}

export type ShopifyApp = ReturnType<typeof createShopifyApp>;
export type AdminContext = Awaited<ReturnType<ShopifyApp["authenticate"]["admin"]>>;

let app: ShopifyApp | undefined;

/** The configured shopifyApp(), created on first use; undefined in demo mode. */
export function shopify(): ShopifyApp | undefined {
  if (app) return app;
  if (isDemoMode()) return undefined;
  app = createShopifyApp(process.env);
  return app;
}

/**
 * `authenticate.admin(request)` when Shopify is configured (it may throw the redirects and bounce responses the
 * embedded auth flow needs, as usual); null in demo mode, where there is nobody to authenticate against.
 */
export async function authenticateAdmin(request: Request): Promise<AdminContext | null> {
  const configured = shopify();
  return configured ? configured.authenticate.admin(request) : null;
}

/** Shopify's document headers (CSP frame-ancestors for the embedded admin, …); nothing to add in demo mode. */
export function addDocumentResponseHeaders(request: Request, headers: Headers): void {
  shopify()?.addDocumentResponseHeaders(request, headers);
}

// Kept on globalThis like the protection runtime: Vite's module reloads reuse it.
const holder = globalThis as typeof globalThis & { __shopifyRuntime?: ShopifyRuntime };

/** The app's Shopify runtime (handlers' dependencies, started job queue); undefined in demo mode. */
export function shopifyRuntime(): ShopifyRuntime | undefined {
  if (holder.__shopifyRuntime) return holder.__shopifyRuntime;
  const app = shopify();
  if (!app) return undefined;
  const runtime = protectionRuntime();
  holder.__shopifyRuntime = createShopifyRuntime({
    db: runtime.db,
    services: runtime.services,
    shopify: runtime.core.shopify,
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
    agingOfflineSessions: async (before) => {
      const sessions = await prisma().session.findMany({
        where: { isOnline: false, refreshTokenExpires: { lt: before } },
        select: { shop: true },
      });
      return sessions.map((session) => session.shop);
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

/**
 * Stops the Shopify job queue (waiting for its running jobs), closes the protection runtime and the Prisma client, and
 * forgets them with the shopifyApp(): the next use builds them afresh from the environment of then. The web server's
 * graceful shutdown, and a test process that boots the app on one database and then on another.
 */
export async function closeRuntimes(): Promise<void> {
  const runtime = holder.__shopifyRuntime;
  holder.__shopifyRuntime = undefined;
  app = undefined;
  await runtime?.queue.stop();
  await closeProtectionRuntime();
  await closePrisma();
}

function scopesOf(value: string): string[] {
  return value
    .split(",")
    .map((scope) => scope.trim())
    .filter(Boolean);
}

function isHttpUrl(value: string): boolean {
  try {
    return ["http:", "https:"].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}
