// Real Chromium (Debian's /usr/bin/chromium) driven by playwright-core, plus what the tests observe: console
// lines, page errors, requests, layout shifts, lifecycle events. The widget's shadow root is closed, which
// Playwright's locators do not enter, so elements are found by role in Chromium's accessibility tree (CDP).
import fs from "node:fs";
import { createRequire } from "node:module";
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from "playwright-core";
import { contextsOf } from "../browser-contexts.ts";
import { waitFor } from "../wait.ts";

/** axe-core's minified build: the rules of its `source`, in less than half the script for a page to parse. */
const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
/** Chromium as every browser test and benchmark here starts it: headless, no sandbox (root), no background network. */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-sync",
];

/** Where the test run's shared Chromium listens (test/support/global-setup.ts), when there is one. */
export const SHARED_CHROMIUM_ENV = "TEST_CHROMIUM_ENDPOINT";

/**
 * Chromium: the test run's shared one when there is one (a connection; closing it closes this connection's contexts,
 * not the browser), otherwise one started for the caller (a benchmark).
 */
export const launchBrowser = (): Promise<Browser> => {
  const shared = process.env[SHARED_CHROMIUM_ENV];
  return shared
    ? chromium.connect(shared)
    : chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
};

export const EVENT_NAMES = ["ready", "offer", "choice", "accepted", "declined", "unavailable"];

/** Runs in every page before its own scripts: records layout shifts, uncaught errors and every lifecycle event. */
const OBSERVE = `(() => {
  const seen = (window.__observed = { shifts: [], errors: [], events: [] });
  // byWidget: one of the moved nodes is the widget, inside it, or after it in the page and moved without changing size
  // (what the widget can push down). A node after it that changed its own size is the page's own first layout on a
  // loaded machine (seen: the page's button drawn 16×6 before its label, then 67×21, with the widget taking no space).
  const widgetMoved = (source) => {
    const node = source.node;
    const widget = document.querySelector("service-widget");
    if (!node || !widget) return false;
    if (node === widget || widget.contains(node)) return true;
    const resized = source.previousRect.width !== source.currentRect.width || source.previousRect.height !== source.currentRect.height;
    return !resized && !!(widget.compareDocumentPosition(node) & Node.DOCUMENT_POSITION_FOLLOWING);
  };
  // What moved, from where to where (x,y w×h, CSS px) and when: enough to tell the offer's push from a page's own paint.
  const box = (r) => r.x + "," + r.y + " " + r.width + "×" + r.height;
  const moved = (source, at) => (source.node ? source.node.nodeName + (source.node.id ? "#" + source.node.id : "") : "?") + " " + box(source.previousRect) + " → " + box(source.currentRect) + " at " + Math.round(at) + " ms";
  new PerformanceObserver((list) => { for (const entry of list.getEntries()) seen.shifts.push({ value: entry.value, hadRecentInput: entry.hadRecentInput, byWidget: (entry.sources || []).some(widgetMoved), nodes: (entry.sources || []).map((source) => moved(source, entry.startTime)) }); })
    .observe({ type: "layout-shift", buffered: true });
  addEventListener("error", (event) => seen.errors.push(String(event.message)));
  addEventListener("unhandledrejection", (event) => seen.errors.push("unhandled rejection: " + String(event.reason)));
  for (const name of ${JSON.stringify(EVENT_NAMES)}) {
    addEventListener("service-widget:" + name, (event) => seen.events.push({ type: event.type, detail: event.detail, bubbles: event.bubbles, composed: event.composed, target: event.target.localName }), true);
  }
})();`;

export interface ConsoleLine {
  type: string;
  text: string;
}

export interface Observed {
  shifts: { value: number; hadRecentInput: boolean; byWidget: boolean; nodes: string[] }[];
  errors: string[];
  events: { type: string; detail: Record<string, unknown>; bubbles: boolean; composed: boolean; target: string }[];
}

export interface TestPage {
  page: Page;
  context: BrowserContext;
  cdp: CDPSession;
  console: ConsoleLine[];
  pageErrors: string[];
  requests: { method: string; url: string; postData: string | null }[];
  /** X-Service-Quote-Token values the browser received (read from the network, as only a test can). */
  tokens: string[];
  observed(): Promise<Observed>;
  close(): Promise<void>;
}

export async function openPage(
  browser: Browser,
  options: { initScript?: string; timeZone?: string } = {},
): Promise<TestPage> {
  const contexts = contextsOf(browser);
  const context = await contexts.context({ timezoneId: options.timeZone });
  const page = await context.newPage();
  await page.addInitScript(OBSERVE);
  if (options.initScript) await page.addInitScript(options.initScript);
  const result: TestPage = {
    page,
    context,
    cdp: await context.newCDPSession(page),
    console: [],
    pageErrors: [],
    requests: [],
    tokens: [],
    observed: () => page.evaluate(() => (window as unknown as { __observed: Observed }).__observed),
    close: () => contexts.release(context),
  };
  page.on("console", (message) => result.console.push({ type: message.type(), text: message.text() }));
  page.on("pageerror", (error) => result.pageErrors.push(error.message));
  // The page's, not the context's: a reused context serves the next test's page (../browser-contexts.ts).
  page.on("request", (request) =>
    result.requests.push({ method: request.method(), url: request.url(), postData: request.postData() }),
  );
  page.on("response", async (response) => {
    const token = response.headers()["x-service-quote-token"];
    if (token) result.tokens.push(token);
  });
  return result;
}

/**
 * Chromium's own DevTools lines about a resource it did not load (network failure, content blocker, CSP refusal):
 * not something a page script or the widget wrote, and invisible to the page's error monitoring.
 */
export const isBrowserNetworkLine = (line: ConsoleLine) =>
  /^Failed to load resource: /.test(line.text) ||
  /^(Loading the script|Connecting to) '[^']+' violates the following Content Security Policy directive/.test(
    line.text,
  ) ||
  /^Fetch API cannot load \S+\. Refused to connect because it violates the document's Content Security Policy\.$/.test(
    line.text,
  );

export const quoteRequests = (page: TestPage) =>
  page.requests.filter((r) => r.method === "POST" && r.url.endsWith("/offers/quote"));

export const eventsOf = async (page: TestPage, name: string) =>
  (await page.observed()).events.filter((e) => e.type === `service-widget:${name}`);
export const waitForEvent = (page: TestPage, name: string, count = 1) =>
  waitFor(
    async () => {
      const events = await eventsOf(page, name);
      return events.length >= count && events;
    },
    { what: `service-widget:${name}`, intervalMs: 50 },
  );

// --- accessibility tree (reaches into the closed shadow root and same-site iframes) ---

export interface AxNode {
  role: string;
  name: string;
  backendDOMNodeId?: number;
  properties: Record<string, unknown>;
}

export async function accessibilityTree(page: TestPage): Promise<AxNode[]> {
  const { nodes } = await page.cdp.send("Accessibility.getFullAXTree");
  const { frameTree } = await page.cdp.send("Page.getFrameTree");
  const childFrames: string[] = [];
  const walk = (tree: typeof frameTree) =>
    (tree.childFrames ?? []).forEach((child) => (childFrames.push(child.frame.id), walk(child)));
  walk(frameTree);
  for (const frameId of childFrames) {
    const inner = await page.cdp.send("Accessibility.getFullAXTree", { frameId }).catch(() => ({ nodes: [] }));
    nodes.push(...inner.nodes);
  }
  return nodes
    .filter((node) => !node.ignored)
    .map((node) => ({
      role: node.role?.value ?? "",
      name: node.name?.value ?? "",
      backendDOMNodeId: node.backendDOMNodeId,
      properties: Object.fromEntries((node.properties ?? []).map((p) => [p.name, p.value?.value])),
    }));
}

export async function findByRole(page: TestPage, role: string, name?: RegExp): Promise<AxNode | undefined> {
  return (await accessibilityTree(page)).find((node) => node.role === role && (!name || name.test(node.name)));
}

export const waitForRole = (page: TestPage, role: string, name?: RegExp, timeoutMs?: number) =>
  waitFor(() => findByRole(page, role, name), { what: `${role} ${name ?? ""}`, timeoutMs, intervalMs: 50 });

/** Clicks the centre of an accessibility node with the mouse (scrolled into view first, as a person would). */
export async function clickNode(page: TestPage, node: AxNode): Promise<void> {
  await page.cdp.send("DOM.scrollIntoViewIfNeeded", { backendNodeId: node.backendDOMNodeId });
  const { quads } = (await page.cdp.send("DOM.getContentQuads", { backendNodeId: node.backendDOMNodeId })) as {
    quads: number[][];
  };
  const [x1, y1, , , x3, y3] = quads[0];
  await page.page.mouse.click((x1 + x3) / 2, (y1 + y3) / 2);
}

/** Every text node, attribute name and value in the document, shadow roots (closed ones too) and frames included. */
export async function everythingInTheDom(page: TestPage): Promise<string> {
  const { root } = await page.cdp.send("DOM.getDocument", { depth: -1, pierce: true });
  const parts: string[] = [];
  const walk = (node: typeof root) => {
    if (node.nodeValue) parts.push(node.nodeValue);
    if (node.attributes) parts.push(...node.attributes);
    for (const child of [
      ...(node.children ?? []),
      ...(node.shadowRoots ?? []),
      ...(node.contentDocument ? [node.contentDocument] : []),
      ...(node.templateContent ? [node.templateContent] : []),
    ])
      walk(child);
  };
  walk(root);
  return parts.join("\n");
}

/** The page's full width: above the viewport's width, the page scrolls sideways. */
export const documentScrollWidth = (page: TestPage) => page.page.evaluate(() => document.documentElement.scrollWidth);

/**
 * axe-core's violations on the page as it is now (the script is evaluated over CDP, so the page's CSP allows it; once
 * per document, as a client-side navigation or a form's answer keeps it). Every rule runs; only the violations are
 * gathered in full, since building selectors for every passing node is most of a run's time.
 */
export async function axeViolations(page: TestPage): Promise<{ id: string; help: string; targets: string[] }[]> {
  const injected = () => typeof (window as unknown as { axe?: { run?: unknown } }).axe?.run === "function";
  if (!(await page.page.evaluate(injected))) await page.page.evaluate(axeSource);
  return page.page.evaluate(async () => {
    const { violations } = await (window as unknown as { axe: typeof import("axe-core") }).axe.run(document, {
      resultTypes: ["violations"],
    });
    return violations.map((v) => ({ id: v.id, help: v.help, targets: v.nodes.map((node) => node.target.join(" ")) }));
  });
}
