// The API keys' kinds and their prefixes. Nothing imported: the dashboard's pages reach this through the facade, and a
// module with imports (node:crypto in ids.ts) would follow it into their client bundle.

/**
 * publishable (wk_: the widget's three routes), secret (mch_: every merchant route) or restricted (rk_: a secret key
 * without the routes that move money — what a developer may mint, docs/api.md "Authentication and keys").
 */
export type KeyKind = "publishable" | "secret" | "restricted";

export const KEY_PREFIX = { publishable: "wk", secret: "mch", restricted: "rk" } as const satisfies Record<
  KeyKind,
  string
>;
