// Ids' vocabulary: the modes that keep test and live data apart, and the API keys' kinds and their prefixes (drawing
// ids and keys is server/domain/ids.ts's). Nothing imported: the dashboard's pages reach this through the facade, and
// a module with imports (node:crypto in domain/ids.ts) would follow it into their client bundle.

/** Test or live: every row, key and event belongs to one, and the two never mix. */
export type Mode = "test" | "live";

/**
 * publishable (wk_: the widget's three routes), secret (mch_: every merchant route) or restricted (rk_: a secret key
 * without the routes that move money — what a developer may mint, docs/api.md "Authentication and keys").
 */
export type KeyKind = "publishable" | "secret" | "restricted";

export const KEY_PREFIX = { publishable: "wk", secret: "mch", restricted: "rk" } as const satisfies Record<
  KeyKind,
  string
>;
