// Go live: the checklist (live keys, allowed origins, a healthy live webhook endpoint, the confirmation e-mail's
// obligations), the origins live widget keys may be used from, and the switch (owner only, by the role table).
import { goLive, goLiveState, setAllowedOrigins } from "../../../server/index.ts";
import { field, formAction } from "../../form-actions.server.ts";
import type { PageAction, PageContext } from "../viewer.ts";

export async function loadGoLive({ runtime, viewer }: PageContext) {
  return {
    state: await goLiveState(runtime.db, runtime.services, viewer.merchantId),
    portalUrl: runtime.config.PORTAL_URL,
    companyName: runtime.config.COMPANY_NAME,
  };
}

export type GoLiveData = Awaited<ReturnType<typeof loadGoLive>>;

export const goLiveAction: PageAction<unknown> = async ({ runtime, viewer, form }) => {
  const { db, services } = runtime;
  if (field(form, "intent") === "origins") {
    const values = { origins: field(form, "origins") };
    const result = await formAction(
      "origins",
      { origins: "origins" },
      () => db.transaction((tx) => setAllowedOrigins(tx, services, viewer, values)),
      values,
    );
    return result.ok ? { ok: true, form: "origins", message: "Allowed origins saved." } : result.response;
  }
  const values = { confirmationEmail: field(form, "confirmationEmail") };
  const result = await formAction(
    "go-live",
    { confirmationEmail: "confirmationEmail" },
    () => db.transaction((tx) => goLive(tx, services, viewer, values)),
    values,
  );
  return result.ok
    ? { ok: true, form: "go-live", message: "You are live. Live keys work from now on." }
    : result.response;
};
