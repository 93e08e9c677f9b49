/** @jsxImportSource preact */
// purchase.thank-you.block.render: the buyer's protection right after paying. The page often loads before the
// orders/create webhook has made the plan: the block then says the reference is on its way (status "pending").
import type {} from "@shopify/ui-extensions/preact";
import { render } from "preact";
import { ProtectionBlock, useSignalValue } from "./ProtectionBlock.tsx";

export default async () => {
  render(<ThankYou />, document.body);
};

function ThankYou() {
  return (
    <ProtectionBlock
      attributes={useSignalValue(shopify.attributes)}
      metafields={useSignalValue(shopify.appMetafields)}
      orderGid={useSignalValue(shopify.orderConfirmation)?.order.id}
      sessionToken={shopify.sessionToken}
      formatDate={(date) => shopify.i18n.formatDate(date, { dateStyle: "medium", timeStyle: "short" })}
      translate={shopify.i18n.translate}
    />
  );
}
