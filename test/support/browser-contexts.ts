// Browser contexts that start as new ones do, reused. Chromium spends about 0.1–0.3 s of CPU more on a new context
// and its first page than on a new page in an existing context (the portal's and dashboard's sign-in pages and the
// widget's checkout page, with the reset below included). Over the 31 files that use it (the widget's, the page suites,
// the journeys), one run each: Chromium 459 → 434 s of CPU, 601 → 545 processes. Each context also keeps one blank
// page open for its whole life: Chromium sets a context up again for a page opened after its last page closed, which
// cost 0.2–0.6 s of CPU more per page than one opened beside another page (docs/testing.md).
import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";

export interface ContextPool {
  /**
   * A context with these options in the state of a new one: no page, cookie, permission, cached response or stored
   * data of an earlier user; its one page is the pool's own blank one, which callers leave alone. For callers that add
   * nothing to the context itself (routes, init scripts, listeners, headers): what they add to its pages closes with
   * them.
   */
  context(options?: BrowserContextOptions): Promise<BrowserContext>;
  /**
   * Hands a context back: it is reset (the caller's pages closed) and serves the next caller asking for the same
   * options.
   */
  release(context: BrowserContext): Promise<void>;
  /** Releases every context handed out and not released yet: a suite's `afterEach` when its tests leave theirs open. */
  releaseAll(): Promise<void>;
}

const pools = new WeakMap<Browser, ContextPool>();

/** The pool of this browser connection (closing the connection closes its contexts, idle ones included). */
export function contextsOf(browser: Browser): ContextPool {
  let pool = pools.get(browser);
  if (!pool) pools.set(browser, (pool = contextPool(browser)));
  return pool;
}

/** What the pool keeps for each context it made, for its reset. */
interface Kept {
  /** The context's own blank page, open while the context lives. */
  keeper: Page;
  /**
   * The origins its pages requested since the last reset: their storage (local, session, IndexedDB, caches, service
   * workers) is what a reset clears besides the cookies and the HTTP cache, which are the context's whole.
   */
  origins: Set<string>;
}

function contextPool(browser: Browser): ContextPool {
  const idle = new Map<string, BrowserContext[]>();
  const inUse = new Map<BrowserContext, string>();
  const kept = new Map<BrowserContext, Kept>();

  async function create(options: BrowserContextOptions): Promise<BrowserContext> {
    const context = await browser.newContext(options);
    const ofContext: Kept = { keeper: await context.newPage(), origins: new Set() };
    kept.set(context, ofContext);
    context.on("request", (request) => {
      const { protocol, origin } = new URL(request.url());
      if (protocol === "http:" || protocol === "https:") ofContext.origins.add(origin);
    });
    return context;
  }

  async function reset(context: BrowserContext): Promise<void> {
    const { keeper, origins } = kept.get(context)!;
    const cdp = await context.newCDPSession(keeper);
    await cdp.send("Network.clearBrowserCache");
    for (const origin of origins) await cdp.send("Storage.clearDataForOrigin", { origin, storageTypes: "all" });
    origins.clear();
    await cdp.detach();
    for (const open of context.pages()) if (open !== keeper) await open.close();
    await context.clearCookies();
    await context.clearPermissions();
  }

  async function release(context: BrowserContext): Promise<void> {
    const key = inUse.get(context);
    if (key === undefined)
      throw new Error("release: this context is not out of the pool (released already, or never the pool's)");
    inUse.delete(context);
    await reset(context);
    idle.set(key, [...(idle.get(key) ?? []), context]);
  }

  return {
    async context(options = {}) {
      const key = JSON.stringify(options);
      const context = idle.get(key)?.pop() ?? (await create(options));
      inUse.set(context, key);
      return context;
    },
    release,
    async releaseAll() {
      await Promise.all([...inUse.keys()].map(release));
    },
  };
}
