// The protection API inside the Remix app: one runtime per process (server/runtime.ts), created on the first request
// and kept on globalThis so Vite's module reloads in development reuse it instead of opening another database pool.
import {
  ApiError,
  clientAddress,
  createRuntime,
  errorBody,
  loadConfig,
  newRequestId,
  type Runtime,
} from "../server/index.ts";
import { shopifyChannelActions } from "./shopify/channel-actions.server.ts";

const holder = globalThis as typeof globalThis & { __protectionRuntime?: Runtime };

/** The shared runtime. Throws (and is retried on the next call) when the configuration is unusable. */
export function protectionRuntime(): Runtime {
  if (!holder.__protectionRuntime) {
    const runtime = createRuntime(loadConfig(appEnvironment(process.env)), undefined, {
      channelActions: shopifyChannelActions,
    });
    runtime.api.startBackgroundJobs();
    holder.__protectionRuntime = runtime;
  }
  return holder.__protectionRuntime;
}

/**
 * What scripts/web-server.ts puts in Remix's load context for the API route: @hono/node-server's bindings (the Node
 * request and its socket), the `env` the API reads the client address from, as `npm run api` hands it
 * (server/server-app.ts). Without them (`remix vite:dev`) the per-IP rate limits are skipped.
 */
export type ApiLoadContext = { nodeBindings?: unknown };

/** The client's address for audit logs and limits (the socket's, or X-Forwarded-For behind TRUST_PROXY). */
export function clientIp(request: Request, context: unknown): string | undefined {
  return clientAddress(
    (context as ApiLoadContext | undefined)?.nodeBindings,
    request.headers.get("X-Forwarded-For"),
    protectionRuntime().config.TRUST_PROXY,
  );
}

/**
 * Hands a request for /api/v1/… to the protection API; its path is already the one the API routes on. `env` goes to
 * the API's fetch as it is: the server's Node bindings, when there are any.
 */
export async function handleApiRequest(request: Request, env?: unknown): Promise<Response> {
  let runtime: Runtime;
  try {
    runtime = protectionRuntime();
  } catch (error) {
    return unavailable(error);
  }
  return runtime.api.fetch(request, env);
}

/** Closes the shared runtime (tests, graceful shutdown). */
export async function closeProtectionRuntime(): Promise<void> {
  const runtime = holder.__protectionRuntime;
  holder.__protectionRuntime = undefined;
  await runtime?.close();
}

/** Inside the app the consumer portal lives under the app's own URL unless PORTAL_URL says otherwise. */
function appEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (env.PORTAL_URL || !env.SHOPIFY_APP_URL || !URL.canParse(env.SHOPIFY_APP_URL)) return env;
  return { ...env, PORTAL_URL: new URL("/portal", env.SHOPIFY_APP_URL).href };
}

/** The API could not start (bad DATABASE_URL, unreadable key file, …): answer in the API's own error shape. */
function unavailable(cause: unknown): Response {
  const requestId = newRequestId();
  console.error(`[protection-api] ${requestId}: could not start the protection API:`, cause);
  const error = new ApiError(
    503,
    "api_error",
    "service_unavailable",
    "The protection API is not available: its configuration could not be loaded (the cause is in the server log). Retry later.",
  );
  return new Response(errorBody(error, requestId), {
    status: 503,
    headers: { "Content-Type": "application/json; charset=utf-8", "X-Request-Id": requestId, "Retry-After": "30" },
  });
}
