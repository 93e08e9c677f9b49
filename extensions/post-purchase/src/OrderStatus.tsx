/** @jsxImportSource preact */
// customer-account.order-status.block.render: the same block on the Order-status page (the buyer comes back to the
// order, often from the confirmation e-mail).
import type {} from "@shopify/ui-extensions/preact";
import { render } from "preact";
import { ProtectionBlock, useSignalValue } from "./ProtectionBlock.tsx";

export default async () => {
  render(<OrderStatus />, document.body);
};

function OrderStatus() {
  return (
    <ProtectionBlock
      attributes={useSignalValue(shopify.attributes)}
      metafields={useSignalValue(shopify.appMetafields)}
      orderGid={useSignalValue(shopify.order)?.id}
      sessionToken={shopify.sessionToken}
      formatDate={(date) => shopify.i18n.formatDate(date, { dateStyle: "medium", timeStyle: "short" })}
      translate={shopify.i18n.translate}
    />
  );
}
