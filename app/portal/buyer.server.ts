// The buyer portal's pages call the core's portal use cases in process (server/core/portal.ts): the same domain
// calls, rate limits and refusals as the portal API's routes. A page names the buyer by their session cookie's token
// and their address (the per-IP limits), and hands over its evidence files as the API would read them.
import type { Buyer, PortalAnswer, PortalForm } from "../../server/index.ts";
import { clientIp, protectionRuntime } from "../protection-api.server.ts";

// The answers' shapes are the core's own types, through the facade.
export type {
  EvidenceFile,
  PortalClaim,
  PortalClaimWithTimeline,
  PortalPlan,
  PortalRulebook,
  PortalSession,
  TimelineEntry,
} from "../../server/index.ts";

/** A use case's answer: its value, or the refusal as the portal API answers it (status, error body, Retry-After). */
export type ApiResult<T> = PortalAnswer<T>;

/** The portal's use cases. */
export const portal = () => protectionRuntime().core.portal;

/** The buyer of a page's request: the session token (when signed in) and the client's address. */
export const buyerOf = (request: Request, context: unknown, token?: string): Buyer => ({
  token,
  ip: clientIp(request, context),
});

/** A page's form as the API reads a multipart body: its filled text fields, and the files in the order sent. */
export async function portalForm(fields: Record<string, string>, files: File[]): Promise<PortalForm> {
  return {
    fields: Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== "")),
    files: await Promise.all(
      files.map(async (file, index) => ({
        field: "evidence",
        index,
        fileName: file.name,
        bytes: new Uint8Array(await file.arrayBuffer()),
      })),
    ),
  };
}
