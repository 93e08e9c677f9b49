// The cart / checkout attributes the storefront writes (widget through the Ajax Cart API, checkout extension through
// applyAttributeChange) and the app reads from the order's note_attributes. Underscored: themes hide them.

/** The buyer's choice: ACCEPTED or DECLINED. */
export const CHOICE_ATTRIBUTE = "_protection";
/** The quote the accepted choice was made on. */
export const QUOTE_ATTRIBUTE = "_protection_quote";
/** The plan's reference number, written back to the order by the app (printed in the merchant's e-mail). */
export const REFERENCE_ATTRIBUTE = "_protection_reference";

export const ACCEPTED = "accepted";
export const DECLINED = "declined";

/**
 * The checkout block's copy of the choice (ACCEPTED or DECLINED), in an app-owned cart metafield that Shopify copies to
 * the order (the app's order metafield definition of the same namespace and key is cart-to-order copyable): it
 * reaches the order where a checkout drops the cart's attributes, and no other app or theme can write it.
 */
export const CHOICE_METAFIELD = {
  namespace: "$app:protection",
  key: "choice",
  type: "single_line_text_field",
} as const;
