// npm run seed:demo [-- --json]: creates (once) the test-mode demo merchant with its default program and test keys.
// With --all: migrates first and seeds everything `npm run demo` shows (server/demo-seed.ts); the demo runs it so, and
// with --json reads the one line it prints.
import pino from "pino";
import { createRuntime, ensureDemoMerchant, loadConfig, seedDemo } from "../server/index.ts";

const config = loadConfig();
const all = process.argv.includes("--all");
// The whole seed calls the API in process, without a socket, and the API warns that it has no client address to
// rate-limit by: noise in the block the demo prints. Errors only, then.
const logger = pino({ level: all ? "error" : "warn" }, pino.destination(2));
const json = process.argv.includes("--json");

if (all) {
  const seeded = await seedDemo(config, logger);
  console.log(
    json
      ? JSON.stringify(seeded)
      : `${keysText(seeded.merchant)}\n  sample order:    ${seeded.sample.referenceNumber} (${seeded.sample.email})`,
  );
} else {
  const runtime = createRuntime(config, logger);
  try {
    const demo = await ensureDemoMerchant(runtime.db, runtime.services, config.DATA_DIR, config.DATABASE_URL);
    const { merchantId, programId, publishableKey, secretKey } = demo;
    console.log(json ? JSON.stringify({ merchantId, programId, publishableKey, secretKey }) : keysText(demo));
  } finally {
    await runtime.close();
  }
}

function keysText(demo: { merchantId: string; programId: string; publishableKey: string; secretKey: string }) {
  return `Demo merchant ${demo.merchantId} (test mode)\n  program:         ${demo.programId}\n  publishable key: ${demo.publishableKey}\n  secret key:      ${demo.secretKey}`;
}
