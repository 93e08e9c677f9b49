// Developers → API keys: mint, rotate and revoke, each in its own transaction with its audit entry (the domain's).
import type { CoreDeps } from "./deps.ts";
import { listApiKeys, mintKey, revokeKey, rotateKey, type KeyManager } from "../domain/api-keys.ts";
import type { MerchantAuditSource } from "../domain/merchant-audit.ts";

export function keysArea({ db, services }: CoreDeps) {
  return {
    list: (merchantId: string) => listApiKeys(db, services, merchantId),
    mint: (caller: KeyManager, input: unknown) => db.transaction((tx) => mintKey(tx, services, caller, input)),
    rotate: (caller: KeyManager, input: unknown) => db.transaction((tx) => rotateKey(tx, services, caller, input)),
    revoke: (caller: MerchantAuditSource, keyId: string) =>
      db.transaction((tx) => revokeKey(tx, services, caller, keyId)),
  };
}
