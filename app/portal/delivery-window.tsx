// The claim window of the reasons about the parcel as it arrived (GET /portal/reasons claimWindowFrom "delivery"):
// once the carrier recorded the order's delivery, it counts from it (server/domain/claim-rules.ts claimWindowOf), and
// the coverage page and the claim form say until when.
import { LocalTime, usePortalText } from "./ui.tsx";
import type { PortalPlan } from "./buyer.server.ts";

export function DeliveryWindow({ plan }: { plan: PortalPlan }) {
  const t = usePortalText();
  if (!plan.deliveredAt || !plan.deliveryClaimsUntil) return null;
  return (
    <p id="delivery-window">
      {t("plan.deliveredOn")} <LocalTime iso={plan.deliveredAt} />.{" "}
      {t("plan.deliveryClaimsUntil", { days: plan.claimWindowDays })} <LocalTime iso={plan.deliveryClaimsUntil} />.
    </p>
  );
}
