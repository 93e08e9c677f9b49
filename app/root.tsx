import { useEffect } from "react";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useMatches,
  useRouteError,
} from "@remix-run/react";

// No web font is loaded from another host (issue 27): the portal, the console and the dashboard make no request
// outside this origin, so their stylesheets name Inter first and fall back to the system's fonts (Polaris' own stack).
export default function App() {
  // Marks which address the page on screen was drawn for, once React has hydrated it. Browser tests and benchmarks
  // wait for it before typing into controlled fields (typed earlier, a value can be lost to hydration) and after a
  // client-side navigation, whose URL changes a moment before React draws the next page.
  const location = useLocation();
  useEffect(() => {
    document.documentElement.dataset.drawn = window.location.pathname + window.location.search;
  }, [location]);
  // A layout whose pages are in the reader's language (the buyer portal) names it as `htmlLang` in its loader's data.
  const lang =
    useMatches()
      .map((match) => (match.data as { htmlLang?: string } | undefined)?.htmlLang)
      .findLast(Boolean) ?? "en";
  return (
    <html lang={lang}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        <Outlet />
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

/**
 * A refusal of a page outside the portal's, console's and dashboard's layouts (sign-up, sign-in): its status and, for
 * a client's mistake, the refusal's own sentence; never the framework's developer page.
 */
export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const sentence =
    isRouteErrorResponse(error) && status < 500 && typeof error.data === "string"
      ? error.data
      : "Something went wrong on our side. Try again in a moment.";
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <title>{String(status)}</title>
        <Meta />
        <Links />
      </head>
      <body>
        <main id="main">
          <h1>{status}</h1>
          <p role="alert">{sentence}</p>
        </main>
        <Scripts />
      </body>
    </html>
  );
}
