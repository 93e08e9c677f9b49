// The browser page suites (Chromium over `npm start`) run in full on SQLite and as a smoke on PostgreSQL: the pages,
// forms and scripts are the same on both, and what differs on PostgreSQL is the store, which each shell's smoke
// (one short flow through the dashboard, the claims console, the portal, reading and writing rows there) goes through;
// axe-core and the screenshots come from the SQLite run. The HTTP page suites (test/app/page-requests,
// test/dashboard, test/ops, test/portal without Chromium) and the API suites run in full on both databases.
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { afterEach, describe, it, test } from "vitest";
import { contextsOf } from "./browser-contexts.ts";
import { DIALECTS, type Dialect } from "./databases.ts";

/**
 * `describe.each` over both databases for a page suite with a smoke: the two runs go side by side, as they share
 * nothing (each has its own web app, database and browser contexts) and the PostgreSQL one is mostly the wait for its
 * app to start; within a run the tests keep their order (`pageSuiteTests`).
 */
export const describeEachDatabase = describe.concurrent.each(DIALECTS);

/** Registers nothing: a test of the full suite, in the file's run on PostgreSQL. */
const notOnThisDatabase = (() => {}) as unknown as typeof it.sequential;

/**
 * A page suite's run's `it` (a test of the full suite, registered on SQLite only) and `test` (the smoke's, registered
 * on both databases), each in order within its run.
 */
export const pageSuiteTests = (dialect: Dialect) => ({
  it: dialect === "sqlite" ? it.sequential : notOnThisDatabase,
  test: test.sequential,
});

/** The databases of a page suite that is full only: its shell's smoke on PostgreSQL is in another file. */
export const FULL_SUITE_DIALECTS: Dialect[] = ["sqlite"];

/**
 * A page suite's pages: each opens in a context of the pool with the asked options and records its uncaught script
 * errors in `pageErrors` as "<url>: <message>"; after each test the suite's contexts go back to the pool, reset
 * (./browser-contexts.ts). `browser` is read when called: the suite connects in its `beforeAll`.
 */
export function suitePages(browser: () => Browser | undefined, pageErrors: string[]) {
  afterEach(async () => {
    const connected = browser();
    if (connected) await contextsOf(connected).releaseAll();
  });
  return async function openPage(options: BrowserContextOptions = {}): Promise<Page> {
    const connected = browser();
    if (!connected) throw new Error("openPage: the suite's browser is not connected yet");
    const page = await (await contextsOf(connected).context(options)).newPage();
    page.on("pageerror", (error) => pageErrors.push(`${page.url()}: ${error.message}`));
    return page;
  };
}
