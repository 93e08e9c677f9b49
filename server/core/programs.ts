// Settings → Program and the go-live switch: the offer's terms, the origins live widget keys may be used from, going
// live. Each change is one transaction with its audit entry (the domain's).
import type { CoreDeps } from "./deps.ts";
import type { MerchantCaller } from "./callers.ts";
import { updateProgram } from "../domain/programs.ts";
import { goLive, goLiveState, setAllowedOrigins } from "../domain/go-live.ts";
import { rollOutVariant, startExperiment, stopExperiment } from "../domain/experiments.ts";

export function programsArea({ db, services }: CoreDeps) {
  return {
    update: (caller: MerchantCaller, input: unknown) =>
      db.transaction((tx) => updateProgram(tx, services, caller, input)),
    goLiveState: (merchantId: string) => goLiveState(db, services, merchantId),
    setAllowedOrigins: (caller: MerchantCaller, input: unknown) =>
      db.transaction((tx) => setAllowedOrigins(tx, services, caller, input)),
    goLive: (caller: MerchantCaller, input: unknown) => db.transaction((tx) => goLive(tx, services, caller, input)),
    /** Offer experiments (docs/api.md "Offer experiments"): start, stop, roll a variant out. */
    startExperiment: (caller: MerchantCaller, input: unknown) =>
      db.transaction((tx) => startExperiment(tx, services, caller, input)),
    stopExperiment: (caller: MerchantCaller, experimentId: string) =>
      db.transaction((tx) => stopExperiment(tx, services, caller, experimentId)),
    rollOutVariant: (caller: MerchantCaller, experimentId: string, variant: string) =>
      db.transaction((tx) => rollOutVariant(tx, services, caller, experimentId, variant)),
  };
}
