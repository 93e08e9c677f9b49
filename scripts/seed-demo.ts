// npm run seed:demo [-- --json]: creates (once) the test-mode demo merchant with its default program and test keys.
import { createRuntime, ensureDemoMerchant, loadConfig } from "../server/index.ts";
import pino from "pino";

const config = loadConfig();
const runtime = createRuntime(config, pino({ level: "warn" }, pino.destination(2)));
try {
  const demo = await ensureDemoMerchant(runtime.db, runtime.services, config.DATA_DIR, config.DATABASE_URL);
  if (process.argv.includes("--json")) {
    console.log(
      JSON.stringify({
        merchantId: demo.merchantId,
        programId: demo.programId,
        publishableKey: demo.publishableKey,
        secretKey: demo.secretKey,
      }),
    );
  } else {
    console.log(
      `Demo merchant ${demo.merchantId} (test mode)\n  program:         ${demo.programId}\n  publishable key: ${demo.publishableKey}\n  secret key:      ${demo.secretKey}`,
    );
  }
} finally {
  await runtime.close();
}
