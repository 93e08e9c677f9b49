// The `shopify` global of this extension's target, as the Shopify CLI declares it for a generated extension.
import "@shopify/ui-extensions";

declare module "./src/Checkout.tsx" {
  const shopify: import("@shopify/ui-extensions/purchase.checkout.block.render").Api;
  const globalThis: { shopify: typeof shopify };
}
