// The buyer pays the protection fee through a cart line of the hidden protection product, whose variants are price
// tiers. Every surface that picks the line (widget, checkout extension) and the app that checks it agree here.

/** One price tier of the hidden protection product: its variant's line costs priceCents. */
export interface FeeTier {
  priceCents: number;
  /** Numeric Shopify variant id. */
  variantId: string;
}

/** The tier a quoted fee is charged at: the smallest whose price covers it; none when the fee is above every tier. */
export const tierFor = <T extends FeeTier>(tiers: readonly T[], feeCents: number): T | undefined =>
  tiers.find((tier) => tier.priceCents >= feeCents);
