// One Chromium and one stack per test file, and a checkout page opened in a fresh browser context.
import { beforeAll, afterAll } from "vitest";
import type { Browser } from "playwright-core";
import { checkoutPage, element, startStack, widgetAttributes, type Stack } from "./stack.ts";
import { launchBrowser, openPage, type TestPage } from "./browser.ts";

export interface Suite {
  stack: Stack;
  browser: Browser;
}

/** Registers before/after hooks that start the stack and Chromium for the enclosing describe(). */
export function chromiumSuite(): Suite {
  const suite = {} as Suite;
  beforeAll(async () => {
    Object.assign(suite, await startSuite());
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.stack?.close();
  });
  return suite;
}

/**
 * Starts the stack and Chromium side by side. When either fails, the other is closed before the error is thrown:
 * a stack left listening keeps the test process alive forever (no Chromium installed made `npm test` hang).
 */
export async function startSuite(start = { stack: startStack, browser: launchBrowser }): Promise<Suite> {
  const [stack, browser] = await Promise.allSettled([start.stack(), start.browser()]);
  if (stack.status === "fulfilled" && browser.status === "fulfilled")
    return { stack: stack.value, browser: browser.value };
  await Promise.all([
    stack.status === "fulfilled" && stack.value.close(),
    browser.status === "fulfilled" && browser.value.close(),
  ]);
  throw stack.status === "rejected" ? stack.reason : (browser as PromiseRejectedResult).reason;
}

export interface CheckoutOptions {
  /** Attributes of the widget (default: the stack's merchant, mode="order"). */
  attributes?: Record<string, string>;
  /** Page HTML instead of the default checkout page. */
  html?: string;
  /** Response headers of the page (e.g. Content-Security-Policy). */
  headers?: Record<string, string>;
  initScript?: string;
  /** The browser's time zone (IANA; Chromium's own by default). */
  timeZone?: string;
  /** A URL pattern the browser refuses to load, as a content blocker would. */
  block?: string;
}

export const scriptTag = (stack: Stack, extra = "") => `<script src="${stack.scriptUrl}"${extra} async></script>`;

/** A fresh context and page on a checkout page with the widget and its script tag. Close it with `tab.close()`. */
export async function openCheckout(suite: Suite, options: CheckoutOptions = {}): Promise<TestPage> {
  const { stack } = suite;
  const tab = await openPage(suite.browser, { initScript: options.initScript, timeZone: options.timeZone });
  if (options.block) await tab.page.route(options.block, (route) => route.abort("blockedbyclient"));
  const html =
    options.html ??
    checkoutPage({ widget: element(options.attributes ?? widgetAttributes(stack)), script: scriptTag(stack) });
  await tab.page.goto(stack.pages.set(`/checkout-${crypto.randomUUID()}`, html, options.headers));
  return tab;
}

/** Runs `body` with a checkout page and closes it afterwards. */
export async function withCheckout(
  suite: Suite,
  options: CheckoutOptions,
  body: (tab: TestPage) => Promise<void>,
): Promise<void> {
  const tab = await openCheckout(suite, options);
  try {
    await body(tab);
  } finally {
    await tab.close();
  }
}
