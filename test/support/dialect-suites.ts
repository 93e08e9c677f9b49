// describe() over both databases, for test files only: it needs vitest's runner, which the scripts and benchmarks
// that import ./databases.ts and ./shopify-app.ts do not run under.
import { afterAll, beforeAll, describe } from "vitest";
import { DIALECTS, type Dialect } from "./databases.ts";
import { startShopifyApp, type ShopifyAppHarness, type ShopifyAppOptions } from "./shopify-app.ts";

function describeEachDialect(name: string, inOrder: boolean, suite: (dialect: Dialect) => void): void {
  for (const dialect of DIALECTS)
    describe(name.replace("%s", dialect), inOrder ? { shuffle: false } : {}, () => suite(dialect));
}

/**
 * describe.each(DIALECTS) for a suite whose tests follow one another on its clock (a calendar of weeks, cases that the
 * last test adds up): their order is kept under `--sequence.shuffle`, which reorders every other suite.
 */
export function describeEachDialectInOrder(name: string, suite: (dialect: Dialect) => void): void {
  describeEachDialect(name, true, suite);
}

export interface ShopifyAppSuiteOptions extends Pick<ShopifyAppOptions, "shops" | "env"> {
  /** The shops installed before the first test; all of `shops` unless said. */
  installed?: string[];
  /**
   * The tests are one shop's history: each reads the Admin calls, jobs and rows the ones before it left, so their
   * order is kept under `--sequence.shuffle`.
   */
  inOrder?: boolean;
}

/**
 * A suite over the Shopify app booted on each database in turn, in this one process (the app's runtimes are the
 * process's; the harness closes them after the suite's last test, and the next suite builds them again). The harness
 * handed to `suite` is filled in before the first test runs.
 */
export function describeShopifyApp(
  name: string,
  options: ShopifyAppSuiteOptions,
  suite: (app: ShopifyAppHarness, dialect: Dialect) => void,
): void {
  const { installed = options.shops, inOrder = false, ...appOptions } = options;
  describeEachDialect(name, inOrder, (dialect) => {
    const app = {} as ShopifyAppHarness;
    beforeAll(async () => {
      Object.assign(app, await startShopifyApp({ ...appOptions, dialect }));
      for (const shop of installed) await app.install(shop);
    });
    afterAll(() => app.close?.());
    suite(app, dialect);
  });
}
