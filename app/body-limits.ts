// The web app's request body limits, by path: one table read by the web server (scripts/web-server.ts), which checks
// a body's size before anything reads it, and by the pages' form reader (app/form.server.ts), which holds a form to
// the rest (parts, repeats, field and file sizes) as it streams. Plain node TypeScript: the web server imports it.
import { MULTIPART_LIMITS, type FormLimits } from "../server/index.ts";

/** A page's plain form (every page but the two that take evidence files): 64 KiB, no files. */
export const PAGE_FORM_LIMITS: FormLimits = {
  bytes: 64 * 1024,
  parts: 100,
  fieldRepeats: 20,
  fieldBytes: 64 * 1024,
  files: 0,
  fileBytes: 0,
};

/** Shopify's webhooks (an order with hundreds of lines is a few hundred KiB); the HMAC is checked after reading. */
const WEBHOOK_BODY_BYTES = 10 * 1024 * 1024;

export interface BodyLimit {
  /** The most bytes a body may have here. */
  bytes: number;
  /** A page's form limits, and the field its files come in (absent: no files); absent for the API and webhooks. */
  form?: { limits: FormLimits; fileField?: string };
}

/** The pages whose forms carry evidence files: they re-send them to the API, whose multipart limits they take. */
const FILE_PAGES = [/^\/portal\/claims\/new\/?$/, /^\/portal\/claims\/[^/]+\/?$/];

/** The body limit of a request to `pathname` (its raw, still escaped, path); none for the API, which has its own. */
export function bodyLimitFor(pathname: string): BodyLimit | undefined {
  // The API checks its own (64 KiB JSON, its multipart limits on the claim routes) as early, in its error shape.
  if (pathname === "/api/v1" || pathname.startsWith("/api/v1/")) return undefined;
  if (pathname.startsWith("/webhooks/")) return { bytes: WEBHOOK_BODY_BYTES };
  if (FILE_PAGES.some((page) => page.test(pathname)))
    return { bytes: MULTIPART_LIMITS.bytes, form: { limits: MULTIPART_LIMITS, fileField: "evidence" } };
  return { bytes: PAGE_FORM_LIMITS.bytes, form: { limits: PAGE_FORM_LIMITS } };
}
