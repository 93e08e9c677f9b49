// Audit log (owners only, by the role table): the merchant's sensitive actions, newest first, 100 at a time.
import { listMerchantAudit } from "../../../server/index.ts";
import type { PageContext } from "../viewer.ts";

export async function loadAudit({ runtime, viewer, request }: PageContext) {
  const before = new URL(request.url).searchParams.get("before") ?? undefined;
  return listMerchantAudit(runtime.db, viewer.merchantId, before?.slice(0, 64));
}

export type AuditData = Awaited<ReturnType<typeof loadAudit>>;
