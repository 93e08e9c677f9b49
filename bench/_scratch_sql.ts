import { randomBytes } from "node:crypto";
import pino from "pino";
import { createProtectionApi } from "../server/api.ts";
import { cryptoRandom } from "../server/domain/ids.ts";
import { createTestMerchant } from "../server/domain/merchants.ts";
import { createTestDatabase } from "../test/support/databases.ts";
import type { Database, Queryable } from "../server/store/database.ts";

const database = await createTestDatabase("sqlite");
const seen = new Map<string, number>();
const wrapQ = (q: Queryable): Queryable => ({
  dialect: q.dialect,
  all: (s, p) => { seen.set(s, (seen.get(s) ?? 0) + 1); return q.all(s, p); },
  get: (s, p) => { seen.set(s, (seen.get(s) ?? 0) + 1); return q.get(s, p); },
  run: (s, p) => { seen.set(s, (seen.get(s) ?? 0) + 1); return q.run(s, p); },
} as Queryable);
const base = database.db;
const db = { ...wrapQ(base), transaction: (fn: any, o: any) => (base.transaction as any)((tx: Queryable) => fn(wrapQ(tx)), o), close: () => base.close() } as unknown as Database;
const services = { clock: Date.now, random: cryptoRandom, settings: { companyName: "B", portalUrl: "https://p.example" } };
const m = await base.transaction((tx) => createTestMerchant(tx, services, { name: "S" }));
const api = createProtectionApi({ db, services, encryptionKey: randomBytes(32), logger: pino({ level: "warn" }) });
const post = async (path: string, body: unknown, key: string) => {
  const r = await api.fetch(new Request(`http://x/api/v1${path}`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${m.publishableKey}`, "idempotency-key": key }, body: JSON.stringify(body) }));
  return { status: r.status, token: r.headers.get("x-service-quote-token"), body: await r.json() };
};
seen.clear();
const q = await post("/offers/quote", { order_amount_cents: 12999, order_id: "o-1", protection_program_id: m.programId }, "kkkkkkkkkkkkkkkkkkk1");
console.log("QUOTE", q.status); for (const [s, n] of seen) console.log(n, s.replace(/\s+/g, " ").slice(0, 140), "\n   ", (await base.all("EXPLAIN QUERY PLAN " + s, Array(((s.match(/\?/g) || []).length)).fill("x"))).map((r: any) => r.detail).join(" | "));
seen.clear();
const c = await post("/offers/confirm", { quoteId: q.body.quoteId, quoteToken: q.token, order_context: { schema_version: "2026-01-01", order: { id: "o-1", purchased_at: new Date().toISOString(), currency: "USD", covered_amount_cents: q.body.coveredAmountCents }, participants: { mode: "unnamed" } } }, "kkkkkkkkkkkkkkkkkkk2");
console.log("CONFIRM", c.status); for (const [s, n] of seen) console.log(n, s.replace(/\s+/g, " ").slice(0, 140), "\n   ", (await base.all("EXPLAIN QUERY PLAN " + s, Array(((s.match(/\?/g) || []).length)).fill("x"))).map((r: any) => r.detail).join(" | "));
await database.drop();
