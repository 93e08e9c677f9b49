// Go live: the checklist (live keys, allowed origins, a healthy live webhook endpoint, the confirmation e-mail's
// obligations), the origins live widget keys may be used from, and the switch (owner only, by the role table; only
// from the page's confirmation step, as it cannot be undone). The switch is the shell's: a merchant on any cart goes
// live here; a Shopify shop also moves its installation to live keys (app/shopify/go-live.server.ts).
import { field, formAction } from "../../form-actions.server.ts";
import type { PageContext } from "../viewer.ts";
import { unconfirmed } from "../confirmation.server.ts";

export async function loadGoLive({ runtime, viewer }: PageContext) {
  return {
    state: await runtime.core.programs.goLiveState(viewer.merchantId),
    portalUrl: runtime.config.PORTAL_URL,
    companyName: runtime.config.COMPANY_NAME,
  };
}

export type GoLiveData = Awaited<ReturnType<typeof loadGoLive>>;

/** Makes the viewer's merchant live, given the confirmed e-mail obligations. */
export type GoLiveSwitch<Context> = (context: Context, input: { confirmationEmail: string }) => Promise<unknown>;

export const switchMerchantLive: GoLiveSwitch<PageContext> = ({ runtime, viewer }, input) =>
  runtime.core.programs.goLive(viewer, input);

export const goLiveAction =
  <Context extends PageContext>(switchLive: GoLiveSwitch<Context>) =>
  async (context: Context & { form: FormData }) => {
    const { runtime, viewer, form } = context;
    if (field(form, "intent") === "origins") {
      const values = { origins: field(form, "origins") };
      const result = await formAction(
        "origins",
        { origins: "origins" },
        () => runtime.core.programs.setAllowedOrigins(viewer, values),
        values,
      );
      return result.ok ? { ok: true, form: "origins", message: "Allowed origins saved." } : result.response;
    }
    const refused = unconfirmed(form, "go-live", "You are not live yet.");
    if (refused) return refused;
    const values = { confirmationEmail: field(form, "confirmationEmail") };
    const result = await formAction(
      "go-live",
      { confirmationEmail: "confirmationEmail" },
      () => switchLive(context, values),
      values,
    );
    return result.ok
      ? {
          ok: true,
          form: "go-live",
          message: viewer.shop
            ? "The shop is live: its orders get real protection plans from now on."
            : "You are live. Live keys work from now on, and the dashboard shows your live data.",
        }
      : result.response;
  };
