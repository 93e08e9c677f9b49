// What both shells' layouts show around every page: the main landmark with the mode banner (the dashboard shows which
// mode it is in everywhere) above the page, and the list of pages the viewer may open.
import { Outlet, useLocation } from "@remix-run/react";
import { Banner, Box, Button, InlineStack, Text } from "@shopify/polaris";
import { DASHBOARD_PAGES, navigationPages } from "./access.ts";
import { DashboardForm, useDashboardHref, useDashboardShell } from "./shell-context.tsx";

/** Test or live, on every page. Standalone members switch what they look at; a Shopify shop is in one mode. */
export function ModeBanner() {
  const { mode, live, basePath, shell } = useDashboardShell();
  const href = useDashboardHref();
  const other = mode === "test" ? "live" : "test";
  const sentence =
    shell === "embedded"
      ? mode === "test"
        ? "The shop is in test mode: its orders get test plans and no money moves. Go live when you are ready."
        : "The shop is live: its orders get real protection plans."
      : mode === "test"
        ? "You are looking at test data: test keys, test purchases, test claims."
        : live
          ? "You are looking at live data: real purchases and real money."
          : "Live data. Your live keys work once you finish Go live.";
  return (
    <Banner tone={mode === "test" ? "warning" : "info"} title={mode === "test" ? "Test mode" : "Live mode"}>
      <InlineStack gap="300" blockAlign="center">
        <Text as="p">{sentence}</Text>
        {shell === "standalone" ? (
          <DashboardForm action={`${basePath}/mode`}>
            <input type="hidden" name="mode" value={other} />
            <Button submit variant="plain">{`Switch to ${other} mode`}</Button>
          </DashboardForm>
        ) : (
          mode === "test" && <a href={href("goLive")}>Go live</a>
        )}
      </InlineStack>
    </Banner>
  );
}

/** The pages the viewer may open (the standalone header; App Bridge's navigation menu in the admin). */
export function useNavigation(): { page: string; href: string; title: string; current: boolean; home: boolean }[] {
  const { shell, role, basePath } = useDashboardShell();
  const href = useDashboardHref();
  const { pathname } = useLocation();
  const pages = navigationPages(shell, role).map((page) => ({ page, target: href(page) }));
  // The current page is the longest path the location is under: /developers/keys is API keys, not Developers.
  const under = (target: string) => pathname === target || pathname.startsWith(`${target}/`);
  const current = pages
    .filter(({ target }) => target !== basePath && under(target))
    .reduce<string | undefined>(
      (best, { target }) => (best && best.length >= target.length ? best : target),
      undefined,
    );
  return pages.map(({ page, target }) => {
    const home = target === basePath;
    return {
      page,
      href: target,
      title: DASHBOARD_PAGES[page].title,
      current: home ? pathname === basePath : target === current,
      home,
    };
  });
}

/** The page, under the mode banner, in the main landmark. */
export function ShellMain() {
  return (
    <main id="main">
      <Box paddingBlockStart="400" paddingInline="400">
        <ModeBanner />
      </Box>
      <Outlet />
    </main>
  );
}
