// vitest (npm test, npm run test:unit, `npx vitest --watch`). A config of its own so vitest does not load the Remix
// plugin from vite.config.ts. Three projects: "unit" (server/** and the packages' tests that start no server — the
// fast loop, `vitest run --project unit`), "integration-shared" (the API tests — real API servers and databases — and
// the catalogue and vector checks, meant to run file after file in a worker: not yet in effect, see SHARED_PROCESS) and
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
 * Integration files that share their worker process with the files before them (isolate: false): the worker loads the
 * server's modules once instead of once per file (about half of these files' time was spent importing). Each of these
 * files sets up what it uses — its own databases, servers and browser contexts — and changes no module state another
 * file reads. The rest keep a process per file: the Shopify app's runtime and configuration are per process, and
 * several files set environment variables or signal handlers for the modules they load.
 * Not yet in effect (measured, issue 29): vitest 3.2 makes one forks pool per run and takes its isolation from the root
 * config, so a project's `isolate: false` is ignored and these files get a process each in `npm test` too (six test/api
 * files: module loading 7.0 s as configured, 4.5 s with `--no-isolate`, which applies to the whole run).
 */
const SHARED_PROCESS = [
  "test/api/**/*.test.ts",
  // Pure checks of the catalogues, their readers and the shared test vectors: no server, environment or browser.
  "test/i18n/**/*.test.ts",
  "test/vectors/**/*.test.ts",
];

export default defineConfig({
  test: {
    exclude: ["**/node_modules/**"],
    // Forks, not threads: better-sqlite3 is a native module, and the Shopify app keeps one runtime per process
    // (a forked worker runs one test file and exits, so each file gets a fresh process). Two workers on the two
    // cores: the integration files each start servers, databases or Chromium, and more at once made them time out.
    pool: "forks",
    maxWorkers: 2,
    minWorkers: 1,
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
          // Pure modules and in-memory fakes: a worker could run file after file (not yet in effect, see SHARED_PROCESS).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["test/**/*.test.ts", ...PACKAGE_INTEGRATION],
          exclude: ["**/node_modules/**", ...SHARED_PROCESS],
          // One Chromium for the run, shared by the browser tests.
          globalSetup: ["test/support/global-setup.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "integration-shared",
          include: SHARED_PROCESS,
          isolate: false,
        },
      },
    ],
  },
});
