// Everything `npm run demo` shows, made on its database before the web app serves it: the schema, the test-mode demo
// merchant, its sample order with a claim, two closed statements, the claims console's admin and the dashboard's owner
// with a sign-in link each. `npm run seed:demo -- --all` runs it in a process of its own, which is how the demo calls
// it: the demo's web server takes the core from the app's build, and importing server/ beside it would load every
// module twice in that long-lived process.
import type { Logger } from "pino";
import type { Config } from "./config.ts";
import { createRuntime } from "./runtime.ts";
import { migrate } from "./store/migrations.ts";
import type { NewMerchant } from "./domain/merchants.ts";
import {
  ensureDemoConsole,
  ensureDemoDashboard,
  ensureDemoMerchant,
  ensureDemoSample,
  ensureDemoStatements,
  type DemoSample,
  type DemoSignIn,
} from "./demo-merchant.ts";

export interface DemoSeed {
  merchant: NewMerchant;
  sample: DemoSample;
  console: DemoSignIn;
  dashboard: DemoSignIn;
}

/** Migrates the database and seeds the demo on it; run twice, it gives the same merchant and fresh sign-in links. */
export async function seedDemo(config: Config, logger: Logger): Promise<DemoSeed> {
  await migrate(config.DATABASE_URL);
  const runtime = createRuntime(config, logger);
  try {
    const merchant = await ensureDemoMerchant(runtime.db, runtime.services, config.DATA_DIR, config.DATABASE_URL);
    const sample = await ensureDemoSample(runtime, merchant);
    await ensureDemoStatements(runtime, merchant);
    const { email, token, expiresAt } = await ensureDemoConsole(runtime, merchant);
    const dashboard = await ensureDemoDashboard(runtime, merchant);
    return { merchant, sample, console: { email, token, expiresAt }, dashboard };
  } finally {
    await runtime.close();
  }
}
