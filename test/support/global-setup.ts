// vitest's global setup for the integration project: one Chromium for the whole run, which every browser test
// connects to (launchBrowser in ./widget/browser.ts) instead of starting its own. A forked worker runs one test file
// and exits, so a browser per worker would still be one per file; the run's one browser outlives them. Each file
// still gets browser contexts of its own (cookies, storage), closed when it disconnects.
import { chromium } from "playwright-core";
import { CHROMIUM, CHROMIUM_ARGS, SHARED_CHROMIUM_ENV } from "./widget/browser.ts";

export async function setup(): Promise<() => Promise<void>> {
  const server = await chromium.launchServer({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  // The workers are forked after this, with this process's environment.
  process.env[SHARED_CHROMIUM_ENV] = server.wsEndpoint();
  return async () => {
    delete process.env[SHARED_CHROMIUM_ENV];
    await server.close();
  };
}
