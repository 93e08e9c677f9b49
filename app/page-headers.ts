// The headers of every page of our own sites — the buyer portal, the claims console, the standalone dashboard — signed
// in or not: never cached, never framed (no clickjacking), no Referer beyond this origin (sign-in links carry
// tokens). Only the embedded Shopify app (/app) is framed, by the Shopify admin: its CSP is Shopify's
// (addDocumentResponseHeaders, app/entry.server.tsx).
export const PAGE_HEADERS = {
  "Cache-Control": "no-store",
  "X-Frame-Options": "DENY",
  "Content-Security-Policy": "frame-ancestors 'none'",
  "Referrer-Policy": "same-origin",
  "X-Content-Type-Options": "nosniff",
} as const;
