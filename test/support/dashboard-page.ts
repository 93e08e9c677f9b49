// The embedded dashboard page (app/routes/app._index.tsx) rendered to HTML for given loader data, inside Polaris's
// AppProvider and a Remix stub, as the admin shows it: what the dashboard tests read the page's text from.
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { AppProvider } from "@shopify/polaris";
import en from "@shopify/polaris/locales/en.json" with { type: "json" };
import { createRemixStub } from "@remix-run/testing";

export async function renderDashboardPage(dashboard: unknown): Promise<string> {
  // Imported when called: the app's modules read the environment the test sets up first.
  const route = await import("../../app/routes/app._index.tsx");
  const Stub = createRemixStub([{ id: "routes/app._index", path: "/app", Component: route.default }]);
  return renderToString(
    createElement(
      AppProvider,
      { i18n: en },
      createElement(Stub, {
        initialEntries: ["/app"],
        hydrationData: { loaderData: { "routes/app._index": { dashboard } } },
      }),
    ),
  );
}
