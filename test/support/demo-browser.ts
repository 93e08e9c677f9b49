// The dashboard's Chromium suites over the process `npm run demo` starts: the demo in its own folder, one page in a
// 1280 px context, the demo's SQLite file read-only for assertions, and the page check every such suite makes (axe-core
// 0, screenshots at 390 and 1280 px, no uncaught page error). `npm run build` first.
import { afterAll, beforeAll } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { demoEnvironment, startDemo, type DemoProcess } from "./demo-process.ts";
import { pageDrawn, screenshotAtWidths } from "./page-checks.ts";
import { axeViolations, launchBrowser, type TestPage } from "./widget/browser.ts";

const ARTIFACTS = path.resolve(import.meta.dirname, "../../test-artifacts/dashboard");

interface DemoBrowser {
  demo: DemoProcess;
  context: BrowserContext;
  page: Page;
  /** One row of the demo's database. */
  row<T>(sql: string, ...params: unknown[]): T;
  /** Every row. */
  rows<T>(sql: string, ...params: unknown[]): T[];
  /** The demo merchant's id. */
  merchantId(): string;
  hydrated(): Promise<unknown>;
  /** Opens a path of the demo and waits for hydration. */
  load(pathname: string): Promise<void>;
  /** axe-core 0, screenshots `${screenshots}${name}-{390,1280}.png` under test-artifacts/dashboard, no page error. */
  check(name: string): Promise<void>;
  close(): Promise<void>;
}

async function openDemoBrowser(options: {
  /** The screenshots' file-name prefix (e.g. "forms-"). */
  screenshots: string;
  /** Settings for the demo process beside the suite's own folder. */
  settings?: Record<string, string>;
  /** Lets the page read back what its Copy buttons wrote. */
  clipboard?: boolean;
}): Promise<DemoBrowser> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `pp-${options.screenshots}`));
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  let browser: Browser | undefined;
  let demo: DemoProcess | undefined;
  try {
    [demo, browser] = await Promise.all([startDemo(demoEnvironment(dir, options.settings)), launchBrowser()]);
  } catch (error) {
    await browser?.close();
    demo?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const db = new Database(path.join(dir, "demo.sqlite"), { readonly: true });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  if (options.clipboard) await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: demo.origin });
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on("pageerror", (error) => pageErrors.push(`${page.url()}: ${error.message}`));

  const row = <T>(sql: string, ...params: unknown[]) => db.prepare(sql).get(...params) as T;
  const hydrated = () => pageDrawn(page);
  const origin = demo.origin;
  const stopDemo = demo.stop.bind(demo);
  const closeBrowser = browser.close.bind(browser);
  return {
    demo,
    context,
    page,
    row,
    rows: <T>(sql: string, ...params: unknown[]) => db.prepare(sql).all(...params) as T[],
    merchantId: () => row<{ merchant_id: string }>("SELECT merchant_id FROM merchant_members LIMIT 1").merchant_id,
    hydrated,
    async load(pathname) {
      await page.goto(`${origin}${pathname}`);
      await hydrated();
    },
    async check(name) {
      assert.deepEqual(await axeViolations({ page } as TestPage), [], `${name}: axe-core violations`);
      await screenshotAtWidths(page, (width) => path.join(ARTIFACTS, `${options.screenshots}${name}-${width}.png`));
      assert.deepEqual(pageErrors, []);
    },
    async close() {
      db.close();
      await context.close().catch(() => {});
      await closeBrowser();
      stopDemo();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * openDemoBrowser for a describe block: started before its tests, closed after them. The functions work once the
 * suite has started; `page` and `demo` are read in a test or a later beforeAll.
 */
export function demoBrowserSuite(options: Parameters<typeof openDemoBrowser>[0]) {
  let opened: DemoBrowser | undefined;
  const started = () => {
    if (!opened) throw new Error("the demo browser suite has not started");
    return opened;
  };
  beforeAll(async () => {
    opened = await openDemoBrowser(options);
  }, 300_000);
  afterAll(() => opened?.close());
  return {
    get demo() {
      return started().demo;
    },
    get page() {
      return started().page;
    },
    row: <T>(sql: string, ...params: unknown[]) => started().row<T>(sql, ...params),
    rows: <T>(sql: string, ...params: unknown[]) => started().rows<T>(sql, ...params),
    merchantId: () => started().merchantId(),
    hydrated: () => started().hydrated(),
    load: (pathname: string) => started().load(pathname),
    check: (name: string) => started().check(name),
  };
}
