// The browser suites' reused contexts (test/support/browser-contexts.ts): a context handed back and handed out again
// holds nothing of its earlier user — no page (only the pool's own blank one), cookie, web storage, IndexedDB database,
// permission or cached response.
import { afterAll, beforeAll, describe, it } from "vitest";
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { contextsOf } from "../support/browser-contexts.ts";
import { launchBrowser } from "../support/widget/browser.ts";

const OPTIONS = { viewport: { width: 390, height: 844 } };

describe("reused browser contexts", () => {
  let browser: Browser;
  let server: http.Server;
  let origin: string;
  let cachedHits = 0;

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      if (request.url === "/cached.js") {
        cachedHits += 1;
        response.writeHead(200, { "Content-Type": "text/javascript", "Cache-Control": "public, max-age=3600" });
        return response.end("// cached for an hour");
      }
      response.writeHead(200, { "Content-Type": "text/html" });
      response.end("<!doctype html><title>page</title>");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  const pagesOpen = (context: BrowserContext) => context.pages().map((open) => open.url());

  /** Fetches the cacheable script; resolves with how many times the server has been asked for it so far. */
  const fetchCached = async (page: Page) => {
    await page.evaluate(() => fetch("/cached.js").then((response) => response.text()));
    return cachedHits;
  };

  it("comes back with no page, cookie, storage, permission or cached response of its earlier user", async () => {
    const contexts = contextsOf(browser);
    const used = await contexts.context(OPTIONS);
    const page = await used.newPage();
    await page.goto(`${origin}/`);
    await page.evaluate(async () => {
      document.cookie = "left=behind; max-age=3600";
      localStorage.setItem("left", "behind");
      await new Promise((resolve, reject) => {
        const opening = indexedDB.open("left-behind");
        opening.onsuccess = () => resolve(opening.result.close());
        opening.onerror = () => reject(opening.error);
      });
    });
    await used.grantPermissions(["geolocation"], { origin });
    const before = await fetchCached(page);
    assert.equal(await fetchCached(page), before, "within one user, the response comes from the cache");

    await contexts.release(used);
    const next = await contexts.context(OPTIONS);
    assert.equal(next, used, "the same options get the released context");
    assert.deepEqual(pagesOpen(next), ["about:blank"], "its user's pages were closed; the pool's blank one is open");
    assert.deepEqual(await next.cookies(), []);
    const again = await next.newPage();
    await again.goto(`${origin}/`);
    const left = await again.evaluate(async () => ({
      cookie: document.cookie,
      stored: localStorage.getItem("left"),
      databases: (await indexedDB.databases()).map((database) => database.name),
      geolocation: (await navigator.permissions.query({ name: "geolocation" })).state,
    }));
    assert.deepEqual(left, { cookie: "", stored: null, databases: [], geolocation: "prompt" });
    assert.equal(await fetchCached(again), before + 1, "the cached response is gone: the server is asked again");
    await contexts.release(next);
  });

  it("hands out a context of its own to each caller holding one, and one per set of options", async () => {
    const contexts = contextsOf(browser);
    const first = await contexts.context(OPTIONS);
    const second = await contexts.context(OPTIONS);
    const wide = await contexts.context({ viewport: { width: 1280, height: 900 } });
    assert.notEqual(first, second);
    assert.notEqual(wide, first);
    assert.notEqual(wide, second);
    const page = await wide.newPage();
    assert.deepEqual(page.viewportSize(), { width: 1280, height: 900 });
    await contexts.releaseAll();
    assert.deepEqual(pagesOpen(wide), ["about:blank"], "releaseAll closed the pages of every context handed out");
    assert.ok([first, second].includes(await contexts.context(OPTIONS)), "and they serve the next callers");
    await contexts.releaseAll();
    await assert.rejects(contexts.release(first), /not out of the pool/);
  });
});
