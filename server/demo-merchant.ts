import fs from "node:fs";
import path from "node:path";
import type { Database } from "./store/database.ts";
import { sha256Hex } from "./domain/ids.ts";
import type { Services } from "./domain/context.ts";
import { authenticateKey, createTestMerchant, mintApiKey, type NewMerchant } from "./domain/merchants.ts";

const DEMO_MERCHANT_ID = "mer_demo";

/**
 * The test-mode demo merchant, created once. Keys are stored only as hashes, so the plaintext demo keys are
 * kept in a 0600 file in the data directory (one per database); if that file is lost, the demo merchant's
 * keys are revoked and new ones minted. Running this twice prints the same keys.
 */
export async function ensureDemoMerchant(db: Database, services: Services, dataDir: string, databaseUrl: string): Promise<NewMerchant> {
  const file = path.resolve(dataDir, `demo-merchant-${sha256Hex(databaseUrl).slice(0, 12)}.json`);
  const saved = readSaved(file);
  if (saved && (await stillValid(db, saved))) return saved;

  const demo = await db.transaction(async (tx) => {
    const existing = await tx.get<{ id: string }>("SELECT id FROM merchants WHERE id = ?", [DEMO_MERCHANT_ID]);
    if (!existing) return createTestMerchant(tx, services, { id: DEMO_MERCHANT_ID, name: "Demo Store" });
    await tx.run("UPDATE api_keys SET revoked_at = ? WHERE merchant_id = ? AND mode = 'test' AND revoked_at IS NULL", [services.clock(), DEMO_MERCHANT_ID]);
    const program = await tx.get<{ id: string }>("SELECT id FROM protection_programs WHERE merchant_id = ? AND mode = 'test' ORDER BY id LIMIT 1", [DEMO_MERCHANT_ID]);
    const actor = { merchantId: DEMO_MERCHANT_ID, mode: "test" as const };
    const publishable = await mintApiKey(tx, services, actor, "publishable");
    const secret = await mintApiKey(tx, services, actor, "secret");
    return { merchantId: DEMO_MERCHANT_ID, programId: program!.id, publishableKey: publishable.key, secretKey: secret.key };
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
  const [publishable, secret] = await Promise.all([authenticateKey(db, saved.publishableKey), authenticateKey(db, saved.secretKey)]);
  const program = await db.get("SELECT id FROM protection_programs WHERE id = ? AND merchant_id = ?", [saved.programId, saved.merchantId]);
  return publishable?.merchantId === saved.merchantId && secret?.merchantId === saved.merchantId && program !== undefined;
}
