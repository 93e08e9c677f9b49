// Where the portal keeps the buyer's language: `portal_language`, the choice made with the switcher (a year, the
// whole portal), and `portal_plan_language`, the locale recorded with the plan, set at sign-in and ended with the
// session. Both HttpOnly, SameSite=Lax, path /portal (session.server.ts has the session's own cookies).
import { createCookie } from "@remix-run/node";
import { isHttps } from "../request-scheme.server.ts";
import { protectionRuntime } from "../protection-api.server.ts";
import { portalMessages, type PortalText } from "./messages.ts";
import { languageChoices, portalLocale } from "./locale.ts";

const YEAR_SECONDS = 365 * 24 * 60 * 60;

const languageCookie = (request: Request, name: string) =>
  createCookie(name, { httpOnly: true, sameSite: "lax", path: "/portal", secure: isHttps(request) });

const CHOSEN = "portal_language";
const PLAN = "portal_plan_language";

/** Whether the pseudo-locale may be served (BUYER_PSEUDO_LOCALE=on: tests and layout checks). */
export const pseudoLocaleAllowed = () => protectionRuntime().config.BUYER_PSEUDO_LOCALE === "on";

async function cookieValue(request: Request, name: string): Promise<string | undefined> {
  const value = await languageCookie(request, name).parse(request.headers.get("Cookie"));
  return typeof value === "string" && value.length > 0 && value.length <= 35 ? value : undefined;
}

/** The buyer's locale for this request (locale.ts portalLocale). */
export async function requestLocale(request: Request): Promise<string> {
  return portalLocale({
    chosen: await cookieValue(request, CHOSEN),
    plan: await cookieValue(request, PLAN),
    acceptLanguage: request.headers.get("Accept-Language"),
    pseudo: pseudoLocaleAllowed(),
  });
}

/** The portal's words in this request's locale, for loaders and actions. */
export async function portalTextFor(request: Request): Promise<{ locale: string; t: PortalText }> {
  const locale = await requestLocale(request);
  return { locale, t: portalMessages.in(locale) };
}

/** Set-Cookie remembering the language chosen with the switcher, or undefined when it is not one offered. */
export async function chooseLanguage(request: Request, language: string): Promise<string | undefined> {
  if (!languageChoices(pseudoLocaleAllowed()).some((choice) => choice.value === language)) return undefined;
  return languageCookie(request, CHOSEN).serialize(language, { maxAge: YEAR_SECONDS });
}

/** Set-Cookie holding the signed-in plan's recorded locale for the session (removed when the plan has none). */
export const rememberPlanLanguage = (request: Request, locale: string | null | undefined, maxAgeSeconds: number) =>
  languageCookie(request, PLAN).serialize(locale ?? "", { maxAge: locale ? maxAgeSeconds : 0 });

/** Set-Cookie forgetting the plan's locale (sign-out). */
export const forgetPlanLanguage = (request: Request) => languageCookie(request, PLAN).serialize("", { maxAge: 0 });
