// Who calls a use case. A dashboard viewer (either shell) acts for a merchant in a mode and is named in the merchant's
// audit log; the claims console's staff are authenticated again inside the transaction from their session token, so a
// signed-out or disabled account changes nothing.
import type { MerchantAuditSource } from "../domain/merchant-audit.ts";
import type { Actor } from "../vocabulary/actors.ts";

export type MerchantCaller = MerchantAuditSource;

/** The merchant and mode the caller's changes are made in. */
export const actorOf = (caller: MerchantCaller): Actor => ({ merchantId: caller.merchantId, mode: caller.mode });
