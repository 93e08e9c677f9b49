// A page of the Shopify admin (the overview, app/routes/app._index.tsx, unless another route is named) rendered to HTML
// for given loader data, inside Polaris's AppProvider, the embedded shell and a Remix stub, as the admin shows it: what
// the tests read its text from.
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { AppProvider } from "@shopify/polaris";
import en from "@shopify/polaris/locales/en.json" with { type: "json" };
import { createRemixStub } from "@remix-run/testing";

export async function renderDashboardPage(
  loaderData: unknown,
  page: { file: string; path: string } = { file: "app._index.tsx", path: "/app" },
  /** The viewer's role (owner unless given). */
  role: "owner" | "developer" | "support" = "owner",
): Promise<string> {
  // Imported when called: the app's modules read the environment the test sets up first.
  const route = (await import(`../../app/routes/${page.file}`)) as { default: () => ReturnType<typeof createElement> };
  const { DashboardShellProvider } = await import("../../app/dashboard/shell-context.tsx");
  const shell = {
    shell: "embedded" as const,
    basePath: "/app",
    merchantName: "shop",
    mode: "test" as const,
    live: false,
    role,
    csrfToken: "",
  };
  const Stub = createRemixStub([{ id: "routes/page", path: page.path, Component: route.default }]);
  return renderToString(
    createElement(
      AppProvider,
      { i18n: en },
      createElement(DashboardShellProvider, {
        value: shell,
        children: createElement(Stub, {
          initialEntries: [page.path],
          hydrationData: { loaderData: { "routes/page": loaderData } },
        }),
      }),
    ),
  );
}
