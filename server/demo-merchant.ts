import fs from "node:fs";
import path from "node:path";
import type { Database } from "./store/database.ts";
import { sha256Hex } from "./domain/ids.ts";
import type { Services } from "./domain/context.ts";
import { authenticateKey, createTestMerchant, mintTestKeys, type NewMerchant } from "./domain/merchants.ts";
import { merchantExists, revokeApiKeys } from "./store/merchants.ts";
import { firstProgramId, programBelongsTo } from "./store/programs.ts";

const DEMO_MERCHANT_ID = "mer_demo";

/**
 * The test-mode demo merchant, created once. Keys are stored only as hashes, so the plaintext demo keys are
 * kept in a 0600 file in the data directory (one per database); if that file is lost, the demo merchant's
 * keys are revoked and new ones minted. Running this twice prints the same keys.
 */
export async function ensureDemoMerchant(
  db: Database,
  services: Services,
  dataDir: string,
  databaseUrl: string,
): Promise<NewMerchant> {
  const file = path.resolve(dataDir, `demo-merchant-${sha256Hex(databaseUrl).slice(0, 12)}.json`);
  const saved = readSaved(file);
  if (saved && (await stillValid(db, saved))) return saved;

  const demo = await db.transaction(async (tx) => {
    if (!(await merchantExists(tx, DEMO_MERCHANT_ID)))
      return createTestMerchant(tx, services, { id: DEMO_MERCHANT_ID, name: "Demo Store" });
    await revokeApiKeys(tx, DEMO_MERCHANT_ID, services.clock(), "test");
    const programId = await firstProgramId(tx, { merchantId: DEMO_MERCHANT_ID, mode: "test" });
    return {
      merchantId: DEMO_MERCHANT_ID,
      programId: programId!,
      ...(await mintTestKeys(tx, services, DEMO_MERCHANT_ID)),
    };
  });
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.writeFileSync(file, JSON.stringify(demo), { mode: 0o600 });
  return demo;
}

function readSaved(file: string): NewMerchant | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as NewMerchant;
  } catch {
    return undefined;
  }
}

async function stillValid(db: Database, saved: NewMerchant): Promise<boolean> {
  const [publishable, secret] = await Promise.all([
    authenticateKey(db, saved.publishableKey),
    authenticateKey(db, saved.secretKey),
  ]);
  return (
    publishable?.merchantId === saved.merchantId &&
    secret?.merchantId === saved.merchantId &&
    (await programBelongsTo(db, saved.programId, saved.merchantId))
  );
}
