// Offer experiments (docs/api.md "Offer experiments"): the mode's program's experiments with each variant's figures
// over its whole run, a form to start one (two or three variants: the program as it is, or a rate and an approved
// wording), and for the running one: stop it, or roll a variant out (the program takes its rate and wording). Off
// until the merchant starts one.
import { OFFER_WORDINGS } from "@purchase-protection/contract";
import {
  dashboardExperiments,
  DomainError,
  MIN_OFFERS_TO_CALL,
  programOfferWording,
  programTermsOf,
  variantRateBounds,
} from "../../../server/index.ts";
import { field, formAction } from "../../form-actions.server.ts";
import { unconfirmed } from "../confirmation.server.ts";
import type { PageAction, PageContext } from "../viewer.ts";
import { VARIANT_SLOTS } from "./experiment-slots.ts";

export async function loadExperiments({ runtime, viewer }: PageContext) {
  const actor = { merchantId: viewer.merchantId, mode: viewer.mode };
  const program = await programTermsOf(runtime.db, actor);
  const bounds = variantRateBounds(program.rateBps);
  return {
    program: {
      ratePercent: program.rateBps / 100,
      offerWording: await programOfferWording(runtime.db, program.id),
      merchantPays: program.payer === "merchant",
    },
    bounds: { minPercent: bounds.minBps / 100, maxPercent: bounds.maxBps / 100 },
    wordings: Object.entries(OFFER_WORDINGS).map(([key, text]) => ({ key, text })),
    minOffersToCall: MIN_OFFERS_TO_CALL,
    experiments: await dashboardExperiments(runtime.db, actor, runtime.services.clock()),
  };
}

export type ExperimentsData = Awaited<ReturnType<typeof loadExperiments>>;

/** The start form's fields per slot: what it is (control, variant or none), its rate and its wording. */
const slotFields = (slot: number) => [`variant${slot}Kind`, `variant${slot}Rate`, `variant${slot}Wording`];

async function startAction({ runtime, viewer, form }: Parameters<PageAction<unknown>>[0]) {
  const values = Object.fromEntries(VARIANT_SLOTS.flatMap(slotFields).map((name) => [name, field(form, name)]));
  // A slot left "none" is not tested. The domain numbers the variants it was given; each number's form slot, for its
  // errors.
  const slots = VARIANT_SLOTS.filter((slot) => ["control", "variant"].includes(values[`variant${slot}Kind`]));
  const input = {
    variants: slots.map((slot) =>
      values[`variant${slot}Kind`] === "control"
        ? { control: true }
        : { control: false, ratePercent: values[`variant${slot}Rate`], offerWording: values[`variant${slot}Wording`] },
    ),
  };
  const fieldNames = VARIANT_SLOTS.flatMap(slotFields);
  const result = await formAction(
    "start",
    Object.fromEntries(fieldNames.map((name) => [name, name])),
    async () => {
      try {
        return await runtime.core.programs.startExperiment(viewer, input);
      } catch (error) {
        // variants.1.ratePercent → the field of the form slot the second given variant came from.
        const match = error instanceof DomainError ? error.field?.match(/^variants\.(\d+)(?:\.(\w+))?$/) : null;
        if (!match) throw error;
        const { kind, code, message } = error as DomainError;
        const part = match[2] === "ratePercent" ? "Rate" : match[2] === "offerWording" ? "Wording" : "Kind";
        throw new DomainError(kind, code, message, `variant${slots[Number(match[1])]}${part}`);
      }
    },
    values,
  );
  return result.ok
    ? { ok: true, form: "start", message: "The experiment is running: each cart gets one variant from now on." }
    : result.response;
}

export const experimentsAction: PageAction<unknown> = async (context) => {
  const { runtime, viewer, form } = context;
  const intent = field(form, "intent");
  if (intent === "start") return startAction(context);
  const experimentId = field(form, "experimentId");
  if (intent === "stop") {
    const refused = unconfirmed(form, "stop", "Nothing was stopped.");
    if (refused) return refused;
    const result = await formAction("stop", {}, () => runtime.core.programs.stopExperiment(viewer, experimentId));
    return result.ok
      ? { ok: true, form: "stop", message: "Stopped: offers use your program's own terms again." }
      : result.response;
  }
  const variant = field(form, "variant");
  const refused = unconfirmed(form, "rollout", "Nothing was rolled out.");
  if (refused) return refused;
  const result = await formAction("rollout", {}, () =>
    runtime.core.programs.rollOutVariant(viewer, experimentId, variant),
  );
  return result.ok
    ? { ok: true, form: "rollout", message: `Variant ${variant} is rolled out: your program offers it from now on.` }
    : result.response;
};
