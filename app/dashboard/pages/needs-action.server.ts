// The overview's "Needs your action" (server/domain/merchant-actions.ts): what needs the merchant in the viewer's mode,
// a few of each kind with their counts; and, on /dashboard, whether the signed-in member gets the digest e-mails (the
// embedded shell has no members: Shopify's staff are not e-mailed).
import {
  DIGEST_INTERVAL_MS,
  memberWantsActionEmails,
  merchantActions,
  OVERVIEW_ACTION_LIMIT,
} from "../../../server/index.ts";
import type { PageContext } from "../viewer.ts";

export async function loadNeedsAction({ runtime, viewer }: PageContext) {
  const actor = { merchantId: viewer.merchantId, mode: viewer.mode };
  const [actions, actionEmails] = await Promise.all([
    merchantActions(runtime.db, runtime.services, actor, { limit: OVERVIEW_ACTION_LIMIT, goLive: true }),
    viewer.shell === "standalone"
      ? memberWantsActionEmails(runtime.db, { merchantId: viewer.merchantId, id: viewer.actor.id })
      : null,
  ]);
  return { actions, actionEmails, digestEveryHours: DIGEST_INTERVAL_MS / (60 * 60 * 1000) };
}

export type NeedsActionData = Awaited<ReturnType<typeof loadNeedsAction>>;
