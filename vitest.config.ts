// vitest (npm test, npm run test:unit, `npx vitest --watch`). A config of its own so vitest does not load the Remix
// plugin from vite.config.ts. Three projects: "unit" (server/** and the packages' tests that start no server — the
// fast loop, `vitest run --project unit`), "integration-shared" (the API tests — real API servers and databases — and
// the catalogue and vector checks; with "unit", run file after file in one worker thread, see SHARED_WORKER) and
// "integration" (everything else, a process per file: the Shopify app, child processes and Chromium).
import { defineConfig } from "vitest/config";
import { SlowFirstSequencer } from "./test/support/slow-first-sequencer.ts";

/** Package tests that start a server, a child process or Chromium. */
const PACKAGE_INTEGRATION = [
  "packages/sdk/test/api.test.ts",
  "packages/sdk/test/package.test.ts",
  "packages/widget/test/**/*.test.ts",
];

/**
 * Integration files that share their worker with the files before them: the worker loads the server's modules once
 * instead of once per file (most of these files' time was spent importing). Each of these files sets up what it uses
 * — its own databases, servers and browser contexts — and changes no module state another file reads. The Shopify
 * app's suites that run it in this process are among them: their harness (test/support/shopify-app.ts) closes the
 * app's runtimes and puts the environment back when it is done, so the next boots it afresh. The rest keep a process
 * per file: the Chromium suites over the web app's process, the files that start processes or set environment
 * variables or signal handlers for the modules they load. Measured on 2026-11-29 (the files as forks beside this
 * project, then here; one run each): the Shopify app's 17 in-process suites 183 -> 97 CPU seconds with the rest of the
 * project, then 22 more app, extension and console files 140 -> 97; then twelve more (the console's queue, the Shopify
 * job queue, ten dashboard and portal files; two runs each) 101 and 118 -> 96 and 98.
 * How: vitest 3.2 takes a pool's isolation from the root config (a project's own `isolate: false` alone is ignored
 * in a run of several projects), so these projects and "unit" run in the threads pool, which the root makes
 * non-isolated, and the rest in the forks pool, isolated. The two pools run side by side: one thread beside the two
 * forks. Measured with `vitest run --project unit --project integration-shared` (126 files, 1,681 tests), one run
 * each on this machine: 307 → 81 CPU seconds, 200 → 120 s of wall time, module loading 107 → 9 s.
 */
const SHARED_WORKER = [
  "test/api/**/*.test.ts",
  // Pure checks of the catalogues, their readers and the shared test vectors: no server, environment or browser.
  "test/i18n/**/*.test.ts",
  "test/vectors/**/*.test.ts",
  // The e-mail, migration, boundary and webhook files that work in process (no child process, browser or environment
  // of their own) and pass in any order. Their folders' other files keep a process each: they start processes or
  // Chromium.
  "test/email/{buyer-emails,email-languages,email-skeleton,smtp-pool,welcome-email}.test.ts",
  "test/server/{auto-approve-per-currency,claim-payout-state,program-currency-limits}-migration.test.ts",
  "test/server/{import-layers,rate-limit-config,sql-boundary}.test.ts",
  "test/webhooks/{concurrent-workers,delivery,worker-lifecycle}.test.ts",
  "test/app/shopify-{billing,cart-guard,claim-payout,deliveries,email-language,fee-refund}.test.ts",
  "test/app/shopify-{install-auth,markets,offline-tokens,opt-in,order-risk-claims,order-states,webhooks}.test.ts",
  "test/app/{dashboard,embedded-dashboard}.test.ts",
  "test/extensions/post-purchase-status.test.ts",
  "test/e2e/claims-on-evidence.test.ts",
  "test/app/{cached-session-storage,email-snippet,facade-boundary,fee-tiers,order-metafields}.test.ts",
  "test/app/shopify-{admin-operations,app-toml,flow-triggers,installation-cache,order-risk,schema}.test.ts",
  "test/app/shopify-{job-queue,store-jobs,store-shops,webhook-filter,webhook-topics}.test.ts",
  "test/extensions/{locale-files,metafield-declarations,theme-embed}.test.ts",
  "test/ops/{claim-decision-stats,demo-console,ops-claims,order-facts,staff}.test.ts",
  // The dashboard's and the portal's pages, loaders and words rendered in process (no web app process or browser).
  "test/dashboard/{getting-started,labels,members,needs-action,overview-notice,statement-lines,utc-day-filters}.test.ts",
  "test/portal/{decision-basis,format,route-error}.test.ts",
];

export default defineConfig({
  test: {
    exclude: ["**/node_modules/**"],
    // Forks by default: the Shopify app keeps one runtime per process (a forked worker runs one test file and exits,
    // so each file gets a fresh process). Two workers on the two cores: the integration files each start servers,
    // databases or Chromium, and more at once made them time out.
    pool: "forks",
    maxWorkers: 2,
    minWorkers: 1,
    // The shared projects' pool (see SHARED_WORKER): one worker thread, file after file, beside the forks.
    poolOptions: { threads: { isolate: false, maxThreads: 1, minThreads: 1 } },
    // Fails a file that holds its worker's event loop 30 s: vitest's own RPC timeout fails the run at 60 s, unnamed.
    setupFiles: ["test/support/event-loop-setup.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
    sequence: { sequencer: SlowFirstSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["server/**/*.test.ts", "packages/*/test/**/*.test.ts"],
          exclude: ["**/node_modules/**", ...PACKAGE_INTEGRATION],
          // Pure modules and in-memory fakes: one worker runs file after file (see SHARED_WORKER).
          pool: "threads",
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["test/**/*.test.ts", ...PACKAGE_INTEGRATION],
          exclude: ["**/node_modules/**", ...SHARED_WORKER],
          // One Chromium for the run, shared by the browser tests.
          globalSetup: ["test/support/global-setup.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "integration-shared",
          include: SHARED_WORKER,
          pool: "threads",
          isolate: false,
        },
      },
    ],
  },
});
