// The access scopes shopify.app.toml asks for, read from the file at run time: the one list the "not configured"
// page suggests as SCOPES (a copy in the page drifted to 4 of the 11). The app runs from the repository root (npm
// start, npm run demo, the Shopify CLI's web process), where the toml is.
import fs from "node:fs";
import path from "node:path";

export const SHOPIFY_APP_TOML = path.join(process.cwd(), "shopify.app.toml");

/** `[access_scopes] scopes = "…"` of the toml text, split on commas; null when the table or key is not there. */
export function accessScopesOf(toml: string): string[] | null {
  // The keys of [access_scopes] run to the next table header; `scopes` is one basic string there.
  const table = /^\[access_scopes\][ \t]*(?:#.*)?$([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(toml)?.[1];
  const value = table && /^[ \t]*scopes[ \t]*=[ \t]*"([^"]*)"/m.exec(table)?.[1];
  if (value === undefined || value === null || value === "") return null;
  return value
    .split(",")
    .map((scope) => scope.trim())
    .filter(Boolean);
}

/** The toml's scopes, or null when there is no readable toml (a deploy without it). */
export function shopifyAppTomlScopes(file: string = SHOPIFY_APP_TOML): string[] | null {
  try {
    return accessScopesOf(fs.readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}
