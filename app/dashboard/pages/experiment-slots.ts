// The Experiments page's start form: its variant slots (the page and its action share them), keyed A, B, C in order.
export const VARIANT_SLOTS = [1, 2, 3] as const;
