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
