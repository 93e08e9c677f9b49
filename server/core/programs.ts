// Settings → Program and the go-live switch: the offer's terms, the origins live widget keys may be used from, going
// live. Each change is one transaction with its audit entry (the domain's).
import type { CoreDeps } from "./deps.ts";
import type { MerchantCaller } from "./callers.ts";
import { updateProgram } from "../domain/programs.ts";
import { goLive, goLiveState, setAllowedOrigins } from "../domain/go-live.ts";

export function programsArea({ db, services }: CoreDeps) {
  return {
    update: (caller: MerchantCaller, input: unknown) =>
      db.transaction((tx) => updateProgram(tx, services, caller, input)),
    goLiveState: (merchantId: string) => goLiveState(db, services, merchantId),
    setAllowedOrigins: (caller: MerchantCaller, input: unknown) =>
      db.transaction((tx) => setAllowedOrigins(tx, services, caller, input)),
    goLive: (caller: MerchantCaller, input: unknown) => db.transaction((tx) => goLive(tx, services, caller, input)),
  };
}
