// Developers: what an integration needs from the dashboard — the merchant id, every program's id and terms in the
// viewer's mode (as GET /programs answers them), the API base URL, how webhooks are signed.
import { listPrograms } from "../../../server/index.ts";
import type { PageContext } from "../viewer.ts";
import { publicOrigin } from "../public-origin.server.ts";

/** More programs than a merchant has: the page lists them all on one page. */
const PROGRAMS_SHOWN = 100;

export async function loadDevelopers({ runtime, viewer, request }: PageContext) {
  const actor = { merchantId: viewer.merchantId, mode: viewer.mode };
  const programs = await listPrograms(runtime.db, actor, { limit: PROGRAMS_SHOWN });
  return { merchantId: viewer.merchantId, mode: viewer.mode, origin: publicOrigin(request), programs: programs.data };
}

export type DevelopersData = Awaited<ReturnType<typeof loadDevelopers>>;
