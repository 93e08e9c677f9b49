// vitest (npm test, npm run test:unit, `npx vitest --watch`). A config of its own so vitest does not load the Remix
// plugin from vite.config.ts. Suites start real servers, databases and Chromium: generous timeouts, two workers.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["server/**/*.test.ts", "test/**/*.test.ts", "packages/*/test/**/*.test.ts"],
    exclude: ["**/node_modules/**"],
    pool: "forks",
    maxWorkers: 2,
    minWorkers: 1,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
