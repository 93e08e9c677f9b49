// The overview's getting-started checklist (app/dashboard/GettingStarted.tsx), in the standalone dashboard: a merchant
// on any cart, from sign-up to a first live order. Each step is ticked from what it leaves behind (server/domain/
// getting-started.ts); the Shopify admin sets a shop up through its own setup card instead, so it has none.
import { gettingStartedFacts } from "../../../server/index.ts";
import type { PageContext } from "../viewer.ts";
import { publicOrigin } from "../public-origin.server.ts";

export async function loadGettingStarted({ runtime, viewer, request }: PageContext) {
  if (viewer.shell !== "standalone") return null;
  const facts = await gettingStartedFacts(runtime.db, runtime.services, viewer.merchantId);
  return { ...facts, live: viewer.live, origin: publicOrigin(request) };
}

export type GettingStartedData = Awaited<ReturnType<typeof loadGettingStarted>>;
